/*
 * The command's entry point (x86-64), in place of the start files', so
 * that it calls the first __libc_start_main (GLIBC_2.2.5), which every
 * glibc keeps, not 2.34's (cli_glibc_floor.h). As the System V ABI
 * hands the process over: %rdx the dynamic loader's exit function, the
 * stack argc, argv, the environment. No init and fini functions are
 * passed: the command has no constructors of its own, and the dynamic
 * loader runs the libraries'.
 */
	.text
	.globl	_start
	.type	_start, @function
_start:
	.cfi_startproc
	.cfi_undefined rip
	xor	%ebp, %ebp
	mov	%rdx, %r9			/* rtld_fini */
	pop	%rsi				/* argc */
	mov	%rsp, %rdx			/* argv */
	and	$-16, %rsp
	push	%rax				/* keeps the stack 16-aligned */
	push	%rsp				/* stack_end */
	xor	%r8d, %r8d			/* fini */
	xor	%ecx, %ecx			/* init */
	mov	main@GOTPCREL(%rip), %rdi
	call	*__libc_start_main_first@GOTPCREL(%rip)
	hlt
	.cfi_endproc
	.size	_start, .-_start

	.symver	__libc_start_main_first, __libc_start_main@GLIBC_2.2.5

	/* what crtbegin.o gives a program that uses atexit */
	.data
	.p2align 3
	.globl	__dso_handle
	.hidden	__dso_handle
__dso_handle:
	.quad	__dso_handle

	.section .note.GNU-stack, "", @progbits

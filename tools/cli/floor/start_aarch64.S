/*
 * The command's entry point (aarch64), in place of the start files', so
 * that it calls the first __libc_start_main (GLIBC_2.17), which every
 * glibc keeps, not 2.34's (cli_glibc_floor.h). As the AAPCS64 Linux ABI
 * hands the process over: x0 the dynamic loader's exit function, the
 * stack argc, argv, the environment. No init and fini functions are
 * passed: the command has no constructors of its own, and the dynamic
 * loader runs the libraries'.
 */
	.text
	.globl	_start
	.type	_start, %function
_start:
	.cfi_startproc
	.cfi_undefined x30
	mov	x29, #0
	mov	x30, #0
	mov	x5, x0				/* rtld_fini */
	ldr	x1, [sp]			/* argc */
	add	x2, sp, #8			/* argv */
	mov	x6, sp				/* stack_end */
	mov	x3, #0				/* init */
	mov	x4, #0				/* fini */
	adrp	x0, :got:main
	ldr	x0, [x0, #:got_lo12:main]
	bl	__libc_start_main_first
	brk	#0
	.cfi_endproc
	.size	_start, .-_start

	.symver	__libc_start_main_first, __libc_start_main@GLIBC_2.17

	/* what crtbegin.o gives a program that uses atexit */
	.data
	.p2align 3
	.globl	__dso_handle
	.hidden	__dso_handle
__dso_handle:
	.quad	__dso_handle

	.section .note.GNU-stack, "", %progbits

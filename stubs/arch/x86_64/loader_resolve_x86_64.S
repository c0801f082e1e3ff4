/*
 * cudastub_asm_resolve: the first call of an export (x86-64). Every export
 * is a single `jmp *slot(%rip)` (forwarder_x86_64.h); its slot starts at
 * a two-instruction stub that loads the slot's own address into %r11 and
 * jumps here.
 *
 * cudastub_bind_slot (stubs/loader/bind/loader_bind.c), given that
 * address, finds the slot's row in its library's table, asks the loader,
 * stores the answer in the slot and returns it. Every register that can
 * carry an argument is saved around that call and restored before jumping
 * on, so the function reached sees the caller's arguments untouched: %rdi
 * %rsi %rdx %rcx %r8 %r9, %rax (the vector-register count of a variadic
 * call), %r10 (static chain) and %xmm0-%xmm7; stack arguments and a
 * struct-return pointer in %rdi are never touched, so one resolver serves
 * every prototype, and the exports no header declares.
 *
 * On entry %rsp is 8 mod 16 (the caller's return address); %rbp, eight
 * pushes and 128 bytes of vector spill keep the inner call 16-aligned.
 * Reached by jumps only, it stands where the export would: its unwind
 * information (.cfi_*, the frame on %rbp) lets a debugger or profiler
 * stopped inside a first call's dlopen walk on to the caller.
 */
	.text
	.p2align 4
	.globl	cudastub_asm_resolve
	.hidden	cudastub_asm_resolve
	.type	cudastub_asm_resolve, @function
cudastub_asm_resolve:
	.cfi_startproc
	push	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_offset %rbp, -16
	mov	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	push	%rdi
	push	%rsi
	push	%rdx
	push	%rcx
	push	%r8
	push	%r9
	push	%rax
	push	%r10
	sub	$128, %rsp
	movdqu	%xmm0, 0(%rsp)
	movdqu	%xmm1, 16(%rsp)
	movdqu	%xmm2, 32(%rsp)
	movdqu	%xmm3, 48(%rsp)
	movdqu	%xmm4, 64(%rsp)
	movdqu	%xmm5, 80(%rsp)
	movdqu	%xmm6, 96(%rsp)
	movdqu	%xmm7, 112(%rsp)
	mov	%r11, %rdi
	call	cudastub_bind_slot
	mov	%rax, %r11
	movdqu	0(%rsp), %xmm0
	movdqu	16(%rsp), %xmm1
	movdqu	32(%rsp), %xmm2
	movdqu	48(%rsp), %xmm3
	movdqu	64(%rsp), %xmm4
	movdqu	80(%rsp), %xmm5
	movdqu	96(%rsp), %xmm6
	movdqu	112(%rsp), %xmm7
	add	$128, %rsp
	pop	%r10
	pop	%rax
	pop	%r9
	pop	%r8
	pop	%rcx
	pop	%rdx
	pop	%rsi
	pop	%rdi
	pop	%rbp
	.cfi_def_cfa %rsp, 8
	.cfi_restore %rbp
	jmp	*%r11
	.cfi_endproc
	.size	cudastub_asm_resolve, .-cudastub_asm_resolve

	.section .note.GNU-stack, "", @progbits

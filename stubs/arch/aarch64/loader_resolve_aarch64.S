/*
 * cudastub_asm_resolve: the first call of an export (aarch64). Every export
 * is adrp/ldr/br x16 through its slot (forwarder_aarch64.h); its slot
 * starts at a resolve stub that puts the slot's own address in x17 and
 * branches here.
 *
 * cudastub_bind_slot (stubs/loader/bind/loader_bind.c), given that
 * address, finds the slot's row in its library's table, asks the loader,
 * stores the answer in the slot and returns it. Every register that can
 * carry an argument under the procedure-call standard is saved around that
 * call and restored before branching on, so the function reached sees the
 * caller's arguments untouched: x0-x7, x8 (where a large struct result
 * goes) and q0-q7 whole (floating-point and vector arguments, homogeneous
 * aggregates). Stack arguments are never touched: sp is back where the
 * caller left it when we branch, and so is x30, so the function reached
 * returns straight to the caller. One resolver therefore serves every
 * prototype, and the exports no header declares. x16 and x17 are the
 * scratch registers the standard gives veneers and PLTs; nothing passes an
 * argument in them.
 *
 * The frame is 224 bytes (16-aligned, as sp must stay): x29/x30, x0-x8,
 * one slot of padding, q0-q7. Its unwind information (.cfi_*) lets a
 * debugger or profiler stopped inside a first call's dlopen walk on to
 * the caller; a signed return address is marked so for the unwinder.
 */
#if defined(__ARM_FEATURE_PAC_DEFAULT) && (__ARM_FEATURE_PAC_DEFAULT & 2)
#define KEY_FRAME		.cfi_b_key_frame
#define SIGN_RETURN_ADDRESS	hint #27 /* pacibsp */; .cfi_negate_ra_state
#define CHECK_RETURN_ADDRESS	hint #31 /* autibsp */; .cfi_negate_ra_state
#elif defined(__ARM_FEATURE_PAC_DEFAULT)
#define KEY_FRAME
#define SIGN_RETURN_ADDRESS	hint #25 /* paciasp */; .cfi_negate_ra_state
#define CHECK_RETURN_ADDRESS	hint #29 /* autiasp */; .cfi_negate_ra_state
#else
#define KEY_FRAME
#define SIGN_RETURN_ADDRESS
#define CHECK_RETURN_ADDRESS
#endif

	.text
	.p2align 4
	.globl	cudastub_asm_resolve
	.hidden	cudastub_asm_resolve
	.type	cudastub_asm_resolve, %function
cudastub_asm_resolve:
	/* reached by a direct branch (b) only: no landing pad needed; with
	 * return-address signing, x30 is signed while it sits on the stack */
	.cfi_startproc
	KEY_FRAME
	SIGN_RETURN_ADDRESS
	stp	x29, x30, [sp, #-224]!
	.cfi_def_cfa_offset 224
	.cfi_offset x29, -224
	.cfi_offset x30, -216
	mov	x29, sp
	stp	x0, x1, [sp, #16]
	stp	x2, x3, [sp, #32]
	stp	x4, x5, [sp, #48]
	stp	x6, x7, [sp, #64]
	str	x8, [sp, #80]
	stp	q0, q1, [sp, #96]
	stp	q2, q3, [sp, #128]
	stp	q4, q5, [sp, #160]
	stp	q6, q7, [sp, #192]
	mov	x0, x17
	bl	cudastub_bind_slot
	mov	x16, x0
	ldp	q6, q7, [sp, #192]
	ldp	q4, q5, [sp, #160]
	ldp	q2, q3, [sp, #128]
	ldp	q0, q1, [sp, #96]
	ldr	x8, [sp, #80]
	ldp	x6, x7, [sp, #64]
	ldp	x4, x5, [sp, #48]
	ldp	x2, x3, [sp, #32]
	ldp	x0, x1, [sp, #16]
	ldp	x29, x30, [sp], #224
	.cfi_restore x29
	.cfi_restore x30
	.cfi_def_cfa_offset 0
	CHECK_RETURN_ADDRESS
	br	x16
	.cfi_endproc
	.size	cudastub_asm_resolve, .-cudastub_asm_resolve

	.section .note.GNU-stack, "", %progbits

/* A build with branch protection marks every object it links; one object
 * without the mark turns the protection off for the whole stub. */
#if defined(__ARM_FEATURE_BTI_DEFAULT) || defined(__ARM_FEATURE_PAC_DEFAULT)
#if defined(__ARM_FEATURE_BTI_DEFAULT) && __ARM_FEATURE_BTI_DEFAULT
#define FEATURE_BTI 1
#else
#define FEATURE_BTI 0
#endif
#if defined(__ARM_FEATURE_PAC_DEFAULT)
#define FEATURE_PAC 2
#else
#define FEATURE_PAC 0
#endif
	.pushsection .note.gnu.property, "a"
	.p2align 3
	.long	4			/* name size: "GNU\0" */
	.long	16			/* descriptor size */
	.long	5			/* NT_GNU_PROPERTY_TYPE_0 */
	.asciz	"GNU"
	.long	0xc0000000		/* GNU_PROPERTY_AARCH64_FEATURE_1_AND */
	.long	4			/* its data size */
	.long	FEATURE_BTI | FEATURE_PAC
	.long	0			/* padding to 8 bytes */
	.popsection
#endif

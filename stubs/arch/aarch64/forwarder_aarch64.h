/*
 * The forwarder's instructions on aarch64 (stubs/loader/bind/forwarder.h
 * puts them together into an export, its slot and its resolve stub).
 *
 * AArch64 has no branch through memory, so the export loads its slot into
 * x16 (the register the procedure-call standard leaves to veneers and
 * PLTs, never an argument) and branches to it. adrp+ldr is the shortest
 * load that reaches the slot wherever the linker puts it: the
 * one-instruction literal load reaches only 1 MiB, and the slots live in
 * the writable segment, after the whole text and read-only data of the
 * stub, a distance that grows with the library and with sanitizer builds.
 * The resolve stub puts the slot's own address in x17, the other such
 * register, and branches to cudastub_asm_resolve (loader_resolve_aarch64.S).
 */
#ifndef CUDASTUB_FORWARDER_AARCH64_H
#define CUDASTUB_FORWARDER_AARCH64_H

/* With branch protection every indirect branch must land on a BTI
 * instruction: the export is reached by the caller's PLT (br x17) or by
 * pointer (blr), the resolve stub by the export's br x16, and `bti c`
 * accepts all three. */
#if defined(__ARM_FEATURE_BTI_DEFAULT) && __ARM_FEATURE_BTI_DEFAULT
#define CUDASTUB_BRANCH_TARGET "\tbti c\n"
#else
#define CUDASTUB_BRANCH_TARGET ""
#endif
#define CUDASTUB_ASM_TYPE(what) "%" what
#define CUDASTUB_ASM_ALIGN	"\t.p2align 4\n"
#define CUDASTUB_ASM_RESOLVE(slot)                                                                 \
	"\tadrp x17, " slot "\n"                                                                   \
	"\tadd x17, x17, :lo12:" slot "\n"                                                         \
	"\tb cudastub_asm_resolve\n"
#define CUDASTUB_ASM_JUMP(slot)                                                                    \
	"\tadrp x16, " slot "\n"                                                                   \
	"\tldr x16, [x16, :lo12:" slot "]\n"                                                       \
	"\tbr x16\n"

#endif /* CUDASTUB_FORWARDER_AARCH64_H */

/*
 * The shape of every exported forwarder, written once for each
 * architecture (the generated wrappers name it, one line per function).
 *
 * After its first call an export reaches the real function through one
 * indirect jump through its slot, the least a stub that stays lazy can do:
 *   x86-64:   name:  jmp *slot(%rip)
 *             (endbr64 first when the build enables indirect-branch tracking)
 *   aarch64:  name:  adrp x16, slot
 *                    ldr  x16, [x16, :lo12:slot]
 *                    br   x16
 *             (bti c first when the build enables branch protection)
 * AArch64 has no branch through memory, so the slot is loaded into x16 (the
 * register the procedure-call standard leaves to veneers and PLTs, never
 * an argument) and branched to. adrp+ldr is the shortest load that reaches
 * the slot wherever the linker puts it: the one-instruction literal load
 * reaches only 1 MiB, and the slots live in the writable segment, after the
 * whole text and read-only data of the stub, a distance that grows with
 * the library and with sanitizer builds.
 *
 * The slot starts at the function's resolve stub, which puts its bind
 * function (void *bind(void), generated) in a scratch register (%r11, x17)
 * and jumps to cudastub_asm_resolve (loader_resolve_<arch>.S). That resolver
 * saves every register that can carry an argument, calls bind, which asks
 * the loader once and stores the answer in the slot, restores them and
 * jumps to the answer: the function reached sees the caller's arguments,
 * stack, struct-return pointer and return address untouched, whatever its
 * prototype.
 *
 * Elsewhere (CUDASTUB_ASM_FORWARDERS undefined) the generated code uses a C
 * wrapper that loads the slot and calls through it, and the exports with no
 * prototype are not exported.
 */
#ifndef CUDASTUB_FORWARDER_H
#define CUDASTUB_FORWARDER_H

#if defined(__x86_64__)
#define CUDASTUB_ASM_FORWARDERS 1

#if defined(__CET__) && (__CET__ & 1)
#define CUDASTUB_BRANCH_TARGET "\tendbr64\n"
#else
#define CUDASTUB_BRANCH_TARGET ""
#endif

/* The export `name`, jumping through `slot`; `resolve`, where the slot
 * starts, hands `bind` to the resolver. */
#define CUDASTUB_FORWARDER(name, slot, resolve, bind)                                              \
	__asm__("\t.pushsection .text\n"                                                           \
		"\t.p2align 3\n"                                                                   \
		"\t.globl " #name "\n"                                                             \
		"\t.type " #name ", @function\n" #name ":\n" CUDASTUB_BRANCH_TARGET                \
		"\tjmp *" #slot "(%rip)\n"                                                         \
		"\t.size " #name ", .-" #name "\n"                                                 \
		"\t.hidden " #resolve "\n"                                                         \
		"\t.type " #resolve ", @function\n" #resolve ":\n"                                 \
		"\tlea " #bind "(%rip), %r11\n"                                                    \
		"\tjmp cudastub_asm_resolve\n"                                                     \
		"\t.size " #resolve ", .-" #resolve "\n"                                           \
		"\t.popsection\n")

#elif defined(__aarch64__)
#define CUDASTUB_ASM_FORWARDERS 1

/* With branch protection every indirect branch must land on a BTI
 * instruction: the export is reached by the caller's PLT (br x17) or by
 * pointer (blr), the resolve stub by the export's br x16, and `bti c`
 * accepts all three. */
#if defined(__ARM_FEATURE_BTI_DEFAULT) && __ARM_FEATURE_BTI_DEFAULT
#define CUDASTUB_BRANCH_TARGET "\tbti c\n"
#else
#define CUDASTUB_BRANCH_TARGET ""
#endif

/* The export `name`, jumping through `slot`; `resolve`, where the slot
 * starts, hands `bind` to the resolver in x17. */
#define CUDASTUB_FORWARDER(name, slot, resolve, bind)                                              \
	__asm__("\t.pushsection .text\n"                                                           \
		"\t.p2align 4\n"                                                                   \
		"\t.globl " #name "\n"                                                             \
		"\t.type " #name ", %function\n" #name ":\n" CUDASTUB_BRANCH_TARGET                \
		"\tadrp x16, " #slot "\n"                                                          \
		"\tldr x16, [x16, :lo12:" #slot "]\n"                                              \
		"\tbr x16\n"                                                                       \
		"\t.size " #name ", .-" #name "\n"                                                 \
		"\t.hidden " #resolve "\n"                                                         \
		"\t.type " #resolve ", %function\n" #resolve ":\n" CUDASTUB_BRANCH_TARGET          \
		"\tadrp x17, " #bind "\n"                                                          \
		"\tadd x17, x17, :lo12:" #bind "\n"                                                \
		"\tb cudastub_asm_resolve\n"                                                       \
		"\t.size " #resolve ", .-" #resolve "\n"                                           \
		"\t.popsection\n")
#endif

#endif /* CUDASTUB_FORWARDER_H */

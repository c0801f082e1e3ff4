/*
 * The shape of every exported forwarder, written once for each
 * architecture (the generated wrappers name it, one line per function).
 *
 * After its first call an export reaches the real function through one
 * indirect jump, the least a stub that stays lazy can do:
 *   x86-64:  name:  jmp *slot(%rip)
 *            (endbr64 first when the build enables indirect-branch tracking)
 * The slot starts at the function's resolve stub, two instructions that put
 * its bind function (void *bind(void), generated) in a scratch register and
 * jump to cudastub_asm_resolve (loader_resolve_<arch>.S). That resolver
 * saves every register that can carry an argument, calls bind, which asks
 * the loader once and stores the answer in the slot, restores them and
 * jumps to the answer: the function reached sees the caller's arguments,
 * stack and struct-return pointer untouched, whatever its prototype.
 *
 * Elsewhere (CUDASTUB_ASM_FORWARDERS undefined) the generated code uses a C
 * wrapper that loads the slot and calls through it.
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
#endif

#endif /* CUDASTUB_FORWARDER_H */

/*
 * The forwarder's instructions on x86-64 (stubs/loader/bind/forwarder.h
 * puts them together into an export, its slot and its resolve stub).
 *
 * The export is one jump through its slot, `jmp *slot(%rip)`; the resolve
 * stub puts the slot's own address in %r11, which no call passes an
 * argument in, and jumps to cudastub_asm_resolve (loader_resolve_x86_64.S).
 */
#ifndef CUDASTUB_FORWARDER_X86_64_H
#define CUDASTUB_FORWARDER_X86_64_H

/* With indirect-branch tracking every indirect jump or call must land on
 * endbr64: the export is reached by the caller's PLT or by pointer, the
 * resolve stub by the export's jump through the slot. */
#if defined(__CET__) && (__CET__ & 1)
#define CUDASTUB_BRANCH_TARGET "\tendbr64\n"
#else
#define CUDASTUB_BRANCH_TARGET ""
#endif
#define CUDASTUB_ASM_TYPE(what) "@" what
#define CUDASTUB_ASM_ALIGN	"\t.p2align 3\n"
/* the resolve stub of slot: hands the slot's address to the resolver */
#define CUDASTUB_ASM_RESOLVE(slot)                                                                 \
	"\tlea " slot "(%rip), %r11\n"                                                             \
	"\tjmp cudastub_asm_resolve\n"
/* the export: one jump through slot */
#define CUDASTUB_ASM_JUMP(slot) "\tjmp *" slot "(%rip)\n"

#endif /* CUDASTUB_FORWARDER_X86_64_H */

/*
 * __cudaRegisterFunction's entry on x86-64, included by
 * stubs/cudart/cudart_register_entry.c, which says what it tells apart and
 * why it is assembly. The arguments it reads:
 * thread_limit in %r8d, tid in %r9, and bid, bDim, gDim and wSize on the
 * stack above the return address.
 *
 * Reached by the caller's call through its PLT (or by pointer), it lands
 * on CUDASTUB_BRANCH_TARGET (endbr64) when the build asks for one.
 */
#ifndef CUDASTUB_CUDART_REGISTER_ENTRY_X86_64_H
#define CUDASTUB_CUDART_REGISTER_ENTRY_X86_64_H

#include "forwarder_x86_64.h"

/* The assembly below reads one instruction a line, as written by hand. */
/* clang-format off */
__asm__("\t.text\n"
	"\t.p2align 4\n"
	"\t.globl __cudaRegisterFunction\n"
	"\t.type __cudaRegisterFunction, @function\n"
	"__cudaRegisterFunction:\n"
	"\t.cfi_startproc\n"		/* no frame: the entry's own rule */
	CUDASTUB_BRANCH_TARGET
	"\tcmpl $-1, %r8d\n"		/* thread_limit */
	"\tjne 1f\n"
	"\tmovq %r9, %rax\n"		/* tid */
	"\torq 8(%rsp), %rax\n"		/* bid */
	"\torq 16(%rsp), %rax\n"	/* bDim */
	"\torq 24(%rsp), %rax\n"	/* gDim */
	"\torq 32(%rsp), %rax\n"	/* wSize */
	"\tjnz 1f\n"
	"\tjmp cudart_registry_function_plain\n"
	"1:\tjmp cudart_registry_function_slow\n"
	"\t.cfi_endproc\n"
	"\t.size __cudaRegisterFunction, .-__cudaRegisterFunction\n");
/* clang-format on */

#endif /* CUDASTUB_CUDART_REGISTER_ENTRY_X86_64_H */

/*
 * __cudaRegisterFunction's entry on aarch64, included by
 * stubs/cudart/cudart_register_entry.c, which says what it tells apart and
 * why it is assembly. The arguments it reads:
 * thread_limit in w4, tid in x5, bid in x6, bDim in x7, and gDim and wSize
 * on the stack.
 *
 * Reached by the caller's call through its PLT (or by pointer), it lands
 * on CUDASTUB_BRANCH_TARGET (bti c) when the build asks for one.
 */
#ifndef CUDASTUB_CUDART_REGISTER_ENTRY_AARCH64_H
#define CUDASTUB_CUDART_REGISTER_ENTRY_AARCH64_H

#include "forwarder_aarch64.h"

/* The assembly below reads one instruction a line, as written by hand. */
/* clang-format off */
__asm__("\t.text\n"
	"\t.p2align 4\n"
	"\t.globl __cudaRegisterFunction\n"
	"\t.type __cudaRegisterFunction, %function\n"
	"__cudaRegisterFunction:\n"
	"\t.cfi_startproc\n"		/* no frame: the entry's own rule */
	CUDASTUB_BRANCH_TARGET
	"\tcmn w4, #1\n"		/* thread_limit */
	"\tb.ne 1f\n"
	"\torr x9, x5, x6\n"		/* tid, bid */
	"\torr x9, x9, x7\n"		/* bDim */
	"\tldp x10, x11, [sp]\n"	/* gDim, wSize */
	"\torr x9, x9, x10\n"
	"\torr x9, x9, x11\n"
	"\tcbnz x9, 1f\n"
	"\tb cudart_registry_function_plain\n"
	"1:\tb cudart_registry_function_slow\n"
	"\t.cfi_endproc\n"
	"\t.size __cudaRegisterFunction, .-__cudaRegisterFunction\n");
/* clang-format on */

#endif /* CUDASTUB_CUDART_REGISTER_ENTRY_AARCH64_H */

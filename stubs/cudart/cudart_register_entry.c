/*
 * __cudaRegisterFunction's entry, in assembly: it tells a function
 * registered as nvcc registers every one (thread limit -1, and no tid,
 * bid, dimension or warp size pointers) from any other and jumps on, to
 * cudart_registry_function_plain or to cudart_registry_function_slow,
 * with every argument where the caller left it.
 *
 * Why not C: a recorded kernel may cost the stub no more than a twentieth
 * of what NVIDIA's runtime spends registering it (cudart_registry.c,
 * invariant 9). Four of the ten arguments are on the stack on x86-64 (two
 * on aarch64), and a C function that tests them and may tail-call with all
 * ten keeps them in saved registers and stores them back: 16 instructions
 * where these take 9.
 *
 * It keeps no frame, so its unwind information is the entry's (the caller's
 * return address on the stack, or in x30): .cfi_startproc alone says so,
 * for a profiler or debugger that stops inside it.
 */
#include "forwarder.h"

/* The assembly below reads one instruction a line, as written by hand. */
/* clang-format off */
#if defined(__x86_64__)

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

#elif defined(__aarch64__)

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

#endif
/* clang-format on */

/* The fat binary nvcc built from one_kernel.cu (BENCH_FATBIN, a path),
 * as read-only data aligned as nvcc aligns its own. */
	.section .rodata
	.balign 8
	.globl bench_fatbin
	.hidden bench_fatbin
bench_fatbin:
	.incbin BENCH_FATBIN
	.section .note.GNU-stack, "", %progbits

/*
 * The program callgrind counts for the per-call cost and the first-call
 * cost: one first call of the library's cheap function (cheap_call.h),
 * then N more in a loop. Built for each library twice, linked to the stub
 * and linked directly to NVIDIA's library.
 *   measure/calls.sh       counts inside calls_loop, for N and 2N calls;
 *   measure/first_call.sh  counts inside first_call.
 *
 *   bench_call_<library>_<stub|direct> N
 */
#include "cheap_call.h"

#include <stdio.h>
#include <stdlib.h>

/* noinline and noipa: each must stay a function callgrind can find */
__attribute__((noinline, noipa)) static int first_call(void)
{
	return cheap_call();
}

__attribute__((noinline, noipa)) static int calls_loop(long n)
{
	int failed = 0;

	for (long i = 0; i < n; i++)
		failed |= cheap_call();
	return failed;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000;

	/* The first call finds, loads and binds; the loop counts what every
	 * call after it costs. */
	if (first_call()) {
		fprintf(stderr, "%s: the first call failed (is the library there?)\n", argv[0]);
		return 2;
	}
	if (calls_loop(n)) {
		fprintf(stderr, "%s: a call in the loop failed\n", argv[0]);
		return 1;
	}
	return 0;
}

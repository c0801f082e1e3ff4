/*
 * The loop whose instructions callgrind counts: N calls of nvrtcVersion,
 * a real NVRTC function that does almost nothing, so the cost of reaching
 * it dominates. Built twice: linked against NVIDIA's libnvrtc directly,
 * and against libnvrtc_stub.so. run_callgrind.sh counts only inside
 * bench_loop (--toggle-collect) and divides the difference by N.
 */
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>

/* noinline and noipa: the loop must stay a function callgrind can find */
__attribute__((noinline, noipa)) static int bench_loop(long n)
{
	int major = 0, minor = 0, bad = 0;

	for (long i = 0; i < n; i++)
		bad |= nvrtcVersion(&major, &minor) != NVRTC_SUCCESS;
	return bad;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000;
	int major = 0, minor = 0;

	/* The first call loads the library and binds the function; the
	 * contract is about every call after it, so it stays out of the loop. */
	if (nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) {
		fprintf(stderr, "call_overhead: no libnvrtc to call\n");
		return 2;
	}
	if (bench_loop(n)) {
		fprintf(stderr, "call_overhead: a call failed\n");
		return 1;
	}
	printf("nvrtc %d.%d, %ld calls\n", major, minor, n);
	return 0;
}

/*
 * What a call costs on the GPU's host, in wall time: the first call
 * (cudaGetDeviceCount: through the stub, the search and dlopen), then
 * cudaGetDevice a million times after it. Printed for the suite's cost
 * table, never compared (bench/ has the instruction counts).
 */
#define _POSIX_C_SOURCE 200809L
#include <cuda_runtime_api.h>
#include <time.h>

#include "gpu_check.h"

#define CALLS 1000000

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(void)
{
	int count = 0, device = -1;
	double start = now(), first, loop;

	cudaGetDeviceCount(&count);
	first = now() - start;
	start = now();
	for (int i = 0; i < CALLS; i++)
		cudaGetDevice(&device);
	loop = now() - start;
	printf("devices: %d\n", count);
	printf("first call: %.0f us\n", first * 1e6);
	printf("per call: %.1f ns\n", loop * 1e9 / CALLS);
	return 0;
}

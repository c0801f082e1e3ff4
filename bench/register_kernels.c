/*
 * Kernel registration at scale: what an nvcc-built library of many
 * kernels does in its constructors, N times over, then one runtime call.
 *
 *   bench_register_<stub|direct> N [threaded]
 *
 * registers one fat binary (one_kernel.cu, built with nvcc -fatbin) and N
 * functions on it, each with a host stub address and a device name of its
 * own, as nvcc's generated code does for a module of N kernels; ends the
 * module; then makes one cheap call (cudaGetErrorName), which through the
 * stub loads NVIDIA's runtime and replays the registrations. register_all
 * and first_call are what callgrind counts (measure/registration.sh): N
 * against 2N, so that everything else cancels. The names are made before.
 *
 * "threaded" starts a second thread first, which waits until the end: a
 * library dlopened after a program started threads (a Python import
 * beside a thread pool). Through the stub a kernel is then recorded under
 * the registry's lock; in a process of one thread, without it.
 *
 * It prints the heap bytes the registration took (mallinfo2, before the
 * call): NVIDIA's for the direct program, the stub's records for the
 * stub's.
 */
#define _GNU_SOURCE
#include <cuda_runtime_api.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* bench_fatbin.S: the fat binary, 8-byte aligned */
extern const unsigned char bench_fatbin[];

/* nvcc's registration entry points (crt/host_runtime.h declares them for
 * C++ only); the shapes of CUDA 12 and 13. */
extern void **__cudaRegisterFatBinary(void *wrapper);
extern void __cudaRegisterFatBinaryEnd(void **handle);
extern void __cudaRegisterFunction(void **handle, const char *host_fun, char *device_fun,
				   const char *device_name, int thread_limit, uint3 *tid,
				   uint3 *bid, dim3 *block_dim, dim3 *grid_dim, int *warp_size);

/* The wrapper nvcc emits around a fat binary: magic, version, the data. */
static struct {
	int magic, version;
	const void *data;
	void *unused;
} wrapper = {0x466243b1, 1, bench_fatbin, NULL};

static char *names;	 /* N device names, "k0000000\0" each */
static char *host_stubs; /* N distinct host addresses */
enum { NAME_SIZE = 16 };

__attribute__((noinline)) void register_all(long n)
{
	void **module = __cudaRegisterFatBinary(&wrapper);

	for (long i = 0; i < n; i++) {
		char *name = names + i * NAME_SIZE;

		__cudaRegisterFunction(module, host_stubs + i, name, name, -1, NULL, NULL, NULL,
				       NULL, NULL);
	}
	__cudaRegisterFatBinaryEnd(module);
}

__attribute__((noinline)) const char *first_call(void)
{
	return cudaGetErrorName(cudaSuccess);
}

/* The second thread of "threaded": it waits for the pipe's end to close. */
static void *wait_for_end(void *pipe_end)
{
	char byte;

	return (void *)(long)read(*(int *)pipe_end, &byte, 1);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	int threaded = argc > 2 && !strcmp(argv[2], "threaded"), ends[2];
	struct mallinfo2 before, after;
	const char *answer;
	pthread_t second;

	if (n < 0 || n > 10000000 || (argc > 2 && !threaded)) {
		fprintf(stderr, "usage: %s N [threaded] (0 to 10000000 kernels)\n", argv[0]);
		return 2;
	}
	if (threaded && (pipe(ends) != 0 || pthread_create(&second, NULL, wait_for_end, &ends[0])))
		return 1;
	names = malloc((size_t)(n ? n : 1) * NAME_SIZE);
	host_stubs = malloc((size_t)(n ? n : 1));
	if (!names || !host_stubs)
		return 1;
	for (long i = 0; i < n; i++)
		snprintf(names + i * NAME_SIZE, NAME_SIZE, "k%07ld", i);
	before = mallinfo2();
	register_all(n);
	after = mallinfo2();
	answer = first_call();
	/* blocks from malloc's heap, and those it mapped apart (large ones) */
	printf("kernels=%ld answer=%s heap_bytes=%zu\n", n, answer ? answer : "(null)",
	       (after.uordblks + after.hblkhd) - (before.uordblks + before.hblkhd));
	if (threaded) {
		close(ends[1]);
		pthread_join(second, NULL);
	}
	return 0;
}

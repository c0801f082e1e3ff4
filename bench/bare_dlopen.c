/*
 * The baseline of a first call: what a program pays to
 * open NVIDIA's library itself and make the same cheap call
 * (cheap_call.h): dlopen of the file, as the stub opens its choice
 * (RTLD_NOW | RTLD_LOCAL), dlsym of the function, and the call. What a
 * stub's first call costs beyond this is the stub's own work.
 * measure/first_call.sh counts inside first_call.
 *
 *   bench_bare_<library> PATH
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>

#if defined(BENCH_LIBRARY_NVRTC)
#include <nvrtc.h>
#define CHEAP_NAME "nvrtcVersion"
typedef __typeof__(nvrtcVersion) cheap_function;

static int call(cheap_function *f)
{
	int major = 0, minor = 0;

	return f(&major, &minor) != NVRTC_SUCCESS;
}
#elif defined(BENCH_LIBRARY_CUDART)
#include <cuda_runtime_api.h>
#define CHEAP_NAME "cudaGetErrorName"
typedef __typeof__(cudaGetErrorName) cheap_function;

static int call(cheap_function *f)
{
	return f(cudaErrorInvalidValue) == NULL;
}
#elif defined(BENCH_LIBRARY_DRIVER)
#include <cuda.h>
#define CHEAP_NAME "cuDriverGetVersion"
typedef __typeof__(cuDriverGetVersion) cheap_function;

static int call(cheap_function *f)
{
	int version = 0;

	return f(&version) != CUDA_SUCCESS;
}
#else
#error "define BENCH_LIBRARY_NVRTC, _CUDART or _DRIVER"
#endif

/* noinline and noipa: callgrind must find it */
__attribute__((noinline, noipa)) static int first_call(const char *path)
{
	void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	cheap_function *f;

	if (!library)
		return 2;
	*(void **)&f = dlsym(library, CHEAP_NAME);
	return f ? call(f) : 3;
}

int main(int argc, char **argv)
{
	int failed;

	if (argc != 2) {
		fprintf(stderr, "usage: %s PATH\n", argv[0]);
		return 2;
	}
	failed = first_call(argv[1]);
	if (failed)
		fprintf(stderr, "%s: %s: %s\n", argv[0], argv[1],
			failed == 2 ? dlerror() : "the call failed");
	return failed;
}

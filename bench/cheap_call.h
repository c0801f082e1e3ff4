/*
 * The cheap function of each library that the benchmarks call: it does
 * almost nothing, so what reaching it costs is what shows. The library is
 * chosen when compiling, with one of
 *   BENCH_LIBRARY_NVRTC    nvrtcVersion
 *   BENCH_LIBRARY_CUDART   cudaGetErrorName
 *   BENCH_LIBRARY_DRIVER   cuDriverGetVersion
 *   BENCH_LIBRARY_EMPTY    bench_empty_function (empty_library.c)
 *   BENCH_LIBRARY_NONE     nothing: the call does nothing and links nothing
 * cheap_call() returns 0 when the call succeeded.
 */
#ifndef BENCH_CHEAP_CALL_H
#define BENCH_CHEAP_CALL_H

#if defined(BENCH_LIBRARY_NVRTC)
#include <nvrtc.h>

static inline int cheap_call(void)
{
	int major = 0, minor = 0;

	return nvrtcVersion(&major, &minor) != NVRTC_SUCCESS;
}
#elif defined(BENCH_LIBRARY_CUDART)
#include <cuda_runtime_api.h>

static inline int cheap_call(void)
{
	return cudaGetErrorName(cudaErrorInvalidValue) == NULL;
}
#elif defined(BENCH_LIBRARY_DRIVER)
#include <cuda.h>

static inline int cheap_call(void)
{
	int version = 0;

	return cuDriverGetVersion(&version) != CUDA_SUCCESS;
}
#elif defined(BENCH_LIBRARY_EMPTY)
int bench_empty_function(void);

static inline int cheap_call(void)
{
	return bench_empty_function();
}
#elif defined(BENCH_LIBRARY_NONE)
static inline int cheap_call(void)
{
	return 0;
}
#else
#error "define one BENCH_LIBRARY_* (see cheap_call.h)"
#endif

#endif /* BENCH_CHEAP_CALL_H */

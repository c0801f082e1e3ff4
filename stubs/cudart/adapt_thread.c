/*
 * cudaThread*: the CUDA 3.x names of six cudaDevice* functions, deprecated
 * since 4.0, still exported by 11.x and 12.x, removed in 13.0.
 *
 *   11.x, 12.x                                  every major
 *   cudaError_t cudaThreadExit(void)            cudaError_t cudaDeviceReset(void)
 *   cudaError_t cudaThreadSynchronize(void)     cudaError_t cudaDeviceSynchronize(void)
 *   cudaError_t cudaThreadSetLimit(enum cudaLimit limit, size_t value)
 *                                               cudaError_t cudaDeviceSetLimit(same)
 *   cudaError_t cudaThreadGetLimit(size_t *pValue, enum cudaLimit limit)
 *                                               cudaError_t cudaDeviceGetLimit(same)
 *   cudaError_t cudaThreadGetCacheConfig(enum cudaFuncCache *pCacheConfig)
 *                                               cudaError_t cudaDeviceGetCacheConfig(same)
 *   cudaError_t cudaThreadSetCacheConfig(enum cudaFuncCache cacheConfig)
 *                                               cudaError_t cudaDeviceSetCacheConfig(same)
 *
 * Rule: an 11- or 12-ABI stub on 13 hands out 13's cudaDevice* function
 * itself. The 11.x and 12.x headers document each cudaThread* function as
 * identical to its cudaDevice* twin; the prototypes are the same (checked
 * below against the build's headers), the cudaDevice* ones have the same ABI
 * in 11.8, 12.4 and 13.0 (the generator forwards them everywhere), and
 * enum cudaLimit and enum cudaFuncCache have the same values in all three.
 * So nothing is translated and the call costs what a forwarded one does.
 */
#define _GNU_SOURCE
#include "adapt_loaded.h"

#if CUDART_VERSION < 13000

#define SAME_PROTOTYPE(thread_fn, device_fn)                                                       \
	_Static_assert(__builtin_types_compatible_p(thread_fn, __typeof__(&device_fn)),            \
		       #thread_fn " and " #device_fn " differ")
SAME_PROTOTYPE(cudaThreadExit_fn, cudaDeviceReset);
SAME_PROTOTYPE(cudaThreadSynchronize_fn, cudaDeviceSynchronize);
SAME_PROTOTYPE(cudaThreadSetLimit_fn, cudaDeviceSetLimit);
SAME_PROTOTYPE(cudaThreadGetLimit_fn, cudaDeviceGetLimit);
SAME_PROTOTYPE(cudaThreadGetCacheConfig_fn, cudaDeviceGetCacheConfig);
SAME_PROTOTYPE(cudaThreadSetCacheConfig_fn, cudaDeviceSetCacheConfig);

/* 13's cudaDevice* twin of name, or NULL on any other major. */
static void *device_twin(const char *name, const char *twin)
{
	if (adapt_loaded_major() != 13)
		return NULL;
	return adapt_chosen(name, twin, adapt_loaded_symbol(twin));
}

cudaThreadExit_fn cudastub_cudart_adapt_cudaThreadExit(void)
{
	cudaThreadExit_fn fn;

	*(void **)&fn = device_twin("cudaThreadExit", "cudaDeviceReset");
	return fn;
}

cudaThreadSynchronize_fn cudastub_cudart_adapt_cudaThreadSynchronize(void)
{
	cudaThreadSynchronize_fn fn;

	*(void **)&fn = device_twin("cudaThreadSynchronize", "cudaDeviceSynchronize");
	return fn;
}

cudaThreadSetLimit_fn cudastub_cudart_adapt_cudaThreadSetLimit(void)
{
	cudaThreadSetLimit_fn fn;

	*(void **)&fn = device_twin("cudaThreadSetLimit", "cudaDeviceSetLimit");
	return fn;
}

cudaThreadGetLimit_fn cudastub_cudart_adapt_cudaThreadGetLimit(void)
{
	cudaThreadGetLimit_fn fn;

	*(void **)&fn = device_twin("cudaThreadGetLimit", "cudaDeviceGetLimit");
	return fn;
}

cudaThreadGetCacheConfig_fn cudastub_cudart_adapt_cudaThreadGetCacheConfig(void)
{
	cudaThreadGetCacheConfig_fn fn;

	*(void **)&fn = device_twin("cudaThreadGetCacheConfig", "cudaDeviceGetCacheConfig");
	return fn;
}

cudaThreadSetCacheConfig_fn cudastub_cudart_adapt_cudaThreadSetCacheConfig(void)
{
	cudaThreadSetCacheConfig_fn fn;

	*(void **)&fn = device_twin("cudaThreadSetCacheConfig", "cudaDeviceSetCacheConfig");
	return fn;
}

#endif

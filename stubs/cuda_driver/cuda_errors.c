/*
 * cuGetErrorName and cuGetErrorString, which must answer without a driver,
 * and the probes that set their outputs to 0 without one.
 *
 * These two return their answer through an out-parameter. With a driver
 * loaded they forward, except for CUDA_ERROR_STUB_LIBRARY while no driver
 * could be loaded: the stub returned that itself, and explains what it
 * searched. Without a driver, names come from the CUresult enum of the
 * build headers, the string of a code is its name (NVIDIA's descriptions
 * live in the missing driver), and an unknown code is
 * CUDA_ERROR_INVALID_VALUE with a NULL string, as the driver does.
 */
#define _GNU_SOURCE
#include "cuda_stub.h"

CUDASTUB_EXPORT CUresult cuGetErrorString(CUresult error, const char **pStr)
{
	const char *why;

	if (error == CUDA_ERROR_STUB_LIBRARY &&
	    (why = cudastub_loader_why_missing(&cudastub_cuda_library)) != NULL) {
		if (!pStr)
			return CUDA_ERROR_INVALID_VALUE;
		*pStr = why;
		return CUDA_SUCCESS;
	}
	return cudastub_cuda_forward_cuGetErrorString(error, pStr);
}

CUresult cudastub_cuda_fallback_cuGetErrorName(CUresult error, const char **pStr)
{
	const char *name = cudastub_cuda_result_name((int)error);

	if (!pStr)
		return CUDA_ERROR_INVALID_VALUE;
	*pStr = name;
	return name ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cudastub_cuda_fallback_cuGetErrorString(CUresult error, const char **pStr)
{
	return cudastub_cuda_fallback_cuGetErrorName(error, pStr);
}

/* The probes set their outputs to 0 without a driver. */
CUDASTUB_PROBE_FALLBACK(cuda, CUresult, cuDriverGetVersion)
CUDASTUB_PROBE_FALLBACK(cuda, CUresult, cuDeviceGetCount)

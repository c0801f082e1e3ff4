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

static int no_driver(void)
{
	return cudastub_loader_load(&cudastub_cuda_library) != CUDASTUB_STATE_LOADED;
}

CUDASTUB_EXPORT CUresult cuGetErrorString(CUresult error, const char **pStr)
{
	const char *summary;

	if (error == CUDA_ERROR_STUB_LIBRARY && no_driver() &&
	    (summary = cudastub_loader_summary(&cudastub_cuda_library)) != NULL) {
		if (!pStr)
			return CUDA_ERROR_INVALID_VALUE;
		*pStr = summary;
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

CUresult cudastub_cuda_fallback_cuDriverGetVersion(int *driverVersion)
{
	return (CUresult)cudastub_loader_zero_and_fail(
		&cudastub_cuda_library, driverVersion,
		&cudastub_cuda_functions[F_cuDriverGetVersion]);
}

CUresult cudastub_cuda_fallback_cuDeviceGetCount(int *count)
{
	return (CUresult)cudastub_loader_zero_and_fail(
		&cudastub_cuda_library, count, &cudastub_cuda_functions[F_cuDeviceGetCount]);
}

/*
 * What cuGetErrorName and cuGetErrorString, and the probes, answer without
 * a driver: the fallbacks their slots hold when none could be loaded (the
 * exports themselves are generated forwarders).
 *
 * These two return their answer through an out-parameter. With a driver
 * loaded every code is the driver's to explain. Without one, the stub's own
 * "no driver" code (CUDA_ERROR_NO_DEVICE: stubs/cuda_driver/cuda.spec)
 * is explained with what it searched; other names come from the CUresult enum of the build
 * headers, the string of a code is its name (NVIDIA's descriptions live in
 * the missing driver), and an unknown code is CUDA_ERROR_INVALID_VALUE with
 * a NULL string, as the driver does.
 */
#define _GNU_SOURCE
#include "cuda_stub.h"

CUresult cudastub_cuda_fallback_cuGetErrorName(CUresult error, const char **pStr)
{
	const char *name = cudastub_cuda_result_name((int)error);

	if (!pStr)
		return CUDA_ERROR_INVALID_VALUE;
	*pStr = name;
	return name ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
CUDASTUB_FALLBACK_SAYS(cudastub_cuda_fallback_cuGetErrorName,
		       "sets the code's name in the stub's record and returns CUDA_SUCCESS "
		       "(an unknown code: NULL and CUDA_ERROR_INVALID_VALUE)",
		       CUDASTUB_SAYS_NO_CODE);

CUresult cudastub_cuda_fallback_cuGetErrorString(CUresult error, const char **pStr)
{
	const char *summary = cudastub_loader_why_missing(&cudastub_cuda_library);

	/* what was searched, when no driver could be loaded */
	if ((int)error == cudastub_cuda_library.codes[CUDASTUB_UNAVAILABLE_LIBRARY] && summary) {
		if (!pStr)
			return CUDA_ERROR_INVALID_VALUE;
		*pStr = summary;
		return CUDA_SUCCESS;
	}
	return cudastub_cuda_fallback_cuGetErrorName(error, pStr);
}
CUDASTUB_FALLBACK_SAYS(cudastub_cuda_fallback_cuGetErrorString,
		       "sets what was searched for the stub's own code, else the code's name, "
		       "and returns CUDA_SUCCESS (an unknown code: CUDA_ERROR_INVALID_VALUE)",
		       CUDASTUB_SAYS_NO_CODE);

/* The probes set their outputs to 0 without a driver. */
CUDASTUB_PROBE_FALLBACK(cuda, CUresult, cuDriverGetVersion)
CUDASTUB_PROBE_FALLBACK(cuda, CUresult, cuDeviceGetCount)

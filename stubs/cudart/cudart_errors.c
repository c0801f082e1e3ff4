/*
 * What the error-name and error-string functions, and the probes, answer
 * without a runtime: the fallbacks their slots hold when none could be
 * loaded (the exports themselves are generated forwarders).
 *
 * With a runtime loaded, every code is the runtime's own to explain. Without
 * one, cudaErrorStubLibrary, which the stub itself returned, is explained
 * with what it searched; other names come from the cudaError enum of the
 * build headers; the string of a code is its name (NVIDIA's descriptions
 * live in the library that is missing), and an unknown code gets the text
 * the runtime gives one.
 */
#define _GNU_SOURCE
#include "cudart_stub.h"

static const char unknown_code[] = "unrecognized error code";

const char *cudastub_cudart_fallback_cudaGetErrorName(cudaError_t error)
{
	const char *name = cudastub_cudart_result_name((int)error);

	return name ? name : unknown_code;
}

const char *cudastub_cudart_fallback_cudaGetErrorString(cudaError_t error)
{
	const char *summary = cudastub_loader_summary(&cudastub_cudart_library);

	/* the summary is there when the search failed: no runtime */
	if (error == cudaErrorStubLibrary && summary)
		return summary;
	return cudastub_cudart_fallback_cudaGetErrorName(error);
}

/* The probes set their outputs to 0: callers print them, or test > 0. */
cudaError_t cudastub_cudart_fallback_cudaGetDeviceCount(int *count)
{
	return (cudaError_t)cudastub_loader_zero_and_fail(
		&cudastub_cudart_library, count, &cudastub_cudart_functions[F_cudaGetDeviceCount]);
}

cudaError_t cudastub_cudart_fallback_cudaRuntimeGetVersion(int *runtimeVersion)
{
	return (cudaError_t)cudastub_loader_zero_and_fail(
		&cudastub_cudart_library, runtimeVersion,
		&cudastub_cudart_functions[F_cudaRuntimeGetVersion]);
}

cudaError_t cudastub_cudart_fallback_cudaDriverGetVersion(int *driverVersion)
{
	return (cudaError_t)cudastub_loader_zero_and_fail(
		&cudastub_cudart_library, driverVersion,
		&cudastub_cudart_functions[F_cudaDriverGetVersion]);
}

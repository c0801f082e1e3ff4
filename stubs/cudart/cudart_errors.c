/*
 * Error names and strings, and the probes that must answer without a
 * runtime.
 *
 * With a runtime loaded, every code is the runtime's own to explain, so the
 * calls forward; the one exception is cudaErrorStubLibrary while no runtime
 * could be loaded, which the stub itself returned and explains with what it
 * searched. Without a runtime, names come from the cudaError enum of the
 * build headers; the string of a code is its name (NVIDIA's descriptions
 * live in the library that is missing), and an unknown code gets the text
 * the runtime gives one.
 */
#define _GNU_SOURCE
#include "cudart_stub.h"

static const char unknown_code[] = "unrecognized error code";

static int stub_library_error(cudaError_t error)
{
	return error == cudaErrorStubLibrary &&
	       cudastub_loader_load(&cudastub_cudart_library) != CUDASTUB_STATE_LOADED;
}

CUDASTUB_EXPORT const char *cudaGetErrorString(cudaError_t error)
{
	if (stub_library_error(error) && cudastub_loader_summary(&cudastub_cudart_library))
		return cudastub_loader_summary(&cudastub_cudart_library);
	return cudastub_cudart_forward_cudaGetErrorString(error);
}

CUDASTUB_EXPORT const char *cudaGetErrorName(cudaError_t error)
{
	return cudastub_cudart_forward_cudaGetErrorName(error);
}

const char *cudastub_cudart_fallback_cudaGetErrorName(cudaError_t error)
{
	const char *name = cudastub_cudart_result_name((int)error);

	return name ? name : unknown_code;
}

const char *cudastub_cudart_fallback_cudaGetErrorString(cudaError_t error)
{
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

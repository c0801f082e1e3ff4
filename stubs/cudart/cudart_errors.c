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

CUDASTUB_EXPORT const char *cudaGetErrorString(cudaError_t error)
{
	const char *why;

	if (error == cudaErrorStubLibrary &&
	    (why = cudastub_loader_why_missing(&cudastub_cudart_library)) != NULL)
		return why;
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
CUDASTUB_PROBE_FALLBACK(cudart, cudaError_t, cudaGetDeviceCount)
CUDASTUB_PROBE_FALLBACK(cudart, cudaError_t, cudaRuntimeGetVersion)
CUDASTUB_PROBE_FALLBACK(cudart, cudaError_t, cudaDriverGetVersion)

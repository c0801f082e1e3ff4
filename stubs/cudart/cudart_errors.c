/*
 * What the error-name and error-string functions, and the probes, answer
 * without a runtime: the fallbacks their slots hold when none could be
 * loaded (the exports themselves are generated forwarders).
 *
 * With a runtime loaded, every code is the runtime's own to explain. Without
 * one, the stub's own "no runtime" code (cudaErrorInsufficientDriver:
 * specs/cudart.spec), which it returned, is explained
 * with the failed search's one line; other names come from the cudaError
 * enum of the stub's record; the string of a code is its name (NVIDIA's descriptions
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
CUDASTUB_FALLBACK_SAYS(
	cudastub_cudart_fallback_cudaGetErrorName,
	"returns the code's name in the stub's record, or \"unrecognized error code\"",
	CUDASTUB_SAYS_NO_CODE);

const char *cudastub_cudart_fallback_cudaGetErrorString(cudaError_t error)
{
	const char *summary = cudastub_loader_why_missing(&cudastub_cudart_library);

	/* what was searched, when no runtime could be loaded */
	if ((int)error == cudastub_cudart_library.codes[CUDASTUB_UNAVAILABLE_LIBRARY] && summary)
		return summary;
	return cudastub_cudart_fallback_cudaGetErrorName(error);
}
CUDASTUB_FALLBACK_SAYS(
	cudastub_cudart_fallback_cudaGetErrorString,
	"returns the failed search's one line for the stub's own code, else the code's name",
	CUDASTUB_SAYS_NO_CODE);

/* The probes set their outputs to 0: callers print them, or test > 0. */
CUDASTUB_PROBE_FALLBACK(cudart, cudaError_t, cudaGetDeviceCount)
CUDASTUB_PROBE_FALLBACK(cudart, cudaError_t, cudaRuntimeGetVersion)
CUDASTUB_PROBE_FALLBACK(cudart, cudaError_t, cudaDriverGetVersion)

/*
 * NVRTC's error strings and version query, which must answer without a
 * library.
 *
 * Once a library is loaded it answers every code, the stub's "no library"
 * code included, so the strings are exactly NVRTC's; only the two codes a
 * loaded library never returns and the stub does (a function the library
 * lacks, or declares differently) keep the stub's explanation. Without a
 * library the names come from the nvrtcResult enum of the stub's record,
 * and an unknown code gets the text the real library gives for one.
 */
#define _GNU_SOURCE
#include "nvrtc_stub.h"

static const char not_found_text[] =
	"cudastub: the loaded libnvrtc does not export this function: it is "
	"older or newer than the CUDA ABI the stub was built for. Run "
	"with CUDASTUB_DEBUG=1 to see which function and which library.";
static const char not_supported_text[] =
	"cudastub: the loaded libnvrtc declares this function with a different "
	"ABI than the CUDA ABI the stub was built for, so the stub does "
	"not call it. Run with CUDASTUB_DEBUG=1 to see which.";

CUDASTUB_EXPORT const char *nvrtcGetErrorString(nvrtcResult result)
{
	const char *why;

	switch ((int)result) {
	case CUDASTUB_NVRTC_ERROR_STUB_LIBRARY:
		why = cudastub_loader_why_missing(&cudastub_nvrtc_library);
		if (why)
			return why;
		break;
	case CUDASTUB_NVRTC_ERROR_NOT_FOUND: return not_found_text;
	case CUDASTUB_NVRTC_ERROR_NOT_SUPPORTED: return not_supported_text;
	}
	return cudastub_nvrtc_forward_nvrtcGetErrorString(result);
}

const char *cudastub_nvrtc_fallback_nvrtcGetErrorString(nvrtcResult result)
{
	const char *name = cudastub_nvrtc_result_name((int)result);

	return name ? name : "NVRTC_ERROR unknown";
}
CUDASTUB_FALLBACK_SAYS(cudastub_nvrtc_fallback_nvrtcGetErrorString,
		       "returns the code's name in the stub's record, or \"NVRTC_ERROR unknown\"",
		       CUDASTUB_SAYS_NO_CODE);

nvrtcResult cudastub_nvrtc_fallback_nvrtcVersion(int *major, int *minor)
{
	/* callers print these; 0.0 says "none" where garbage would mislead */
	if (major)
		*major = 0;
	if (minor)
		*minor = 0;
	return (nvrtcResult)cudastub_loader_unavailable(&cudastub_nvrtc_library,
							&cudastub_nvrtc_rows[F_nvrtcVersion].gate);
}
CUDASTUB_FALLBACK_SAYS(cudastub_nvrtc_fallback_nvrtcVersion, "sets both outputs to 0 and returns",
		       CUDASTUB_SAYS_CODE);

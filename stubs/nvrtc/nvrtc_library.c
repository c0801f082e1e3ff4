/*
 * The NVRTC stub's library for the loader: what the spec describes
 * (stubs/nvrtc/nvrtc.spec: SONAMEs, wheel folders, variables,
 * codes) and its version probe. NVRTC answers nvrtcVersion without a GPU.
 */
#define _GNU_SOURCE
#include <dlfcn.h>

#include "nvrtc_stub.h"

#ifndef CUDASTUB_ABI_MAJOR
#error "CUDASTUB_ABI_MAJOR and CUDASTUB_ABI_MINOR come from the build"
#endif

static int nvrtc_probe_version(void *handle, const char *path, int *major, int *minor)
{
	nvrtcResult (*version)(int *, int *);

	(void)path;
	*(void **)&version = cudastub_probe_symbol(handle, "nvrtcVersion");
	return version && version(major, minor) == NVRTC_SUCCESS ? 0 : -1;
}

struct cudastub_library cudastub_nvrtc_library = {
	CUDASTUB_NVRTC_DESCRIPTION,
	.probe_version = nvrtc_probe_version,
};

/*
 * The NVRTC stub's description for the loader, and its introspection entry
 * points. NVRTC is found as libnvrtc.so.13, .12 or .11.2 (every 11.x from
 * 11.2 on ships under that name), and answers nvrtcVersion without a GPU.
 */
#define _GNU_SOURCE
#include <dlfcn.h>

#include "nvrtc_stub.h"

#ifndef CUDASTUB_ABI_MAJOR
#error "CUDASTUB_ABI_MAJOR and CUDASTUB_ABI_MINOR come from the build"
#endif

static const struct cudastub_soname nvrtc_sonames[] = {
	{13, "libnvrtc.so.13"},
	{12, "libnvrtc.so.12"},
	{11, "libnvrtc.so.11.2"},
	{0, NULL},
};

/* CUDA 13 wheels share one folder; 11 and 12 have one per component. */
static const char *const nvrtc_wheel_dirs[] = {
	"nvidia/cu13/lib",
	"nvidia/cuda_nvrtc/lib",
	NULL,
};

static int nvrtc_probe_version(void *handle, const char *path, int *major, int *minor)
{
	nvrtcResult (*version)(int *, int *);

	(void)path;
	*(void **)&version = dlsym(handle, "nvrtcVersion");
	return version && version(major, minor) == NVRTC_SUCCESS ? 0 : -1;
}

struct cudastub_library cudastub_nvrtc_library = {
	.name = "nvrtc",
	.env_path = "CUDASTUB_NVRTC_PATH",
	.env_major = "CUDASTUB_NVRTC_MAJOR",
	.family = "libnvrtc",
	.sonames = nvrtc_sonames,
	.wheel_dirs = nvrtc_wheel_dirs,
	.probe_version = nvrtc_probe_version,
	.companion_format = "libnvrtc-builtins.so.%d.%d",
	.codes = CUDASTUB_NVRTC_UNAVAILABLE_CODES,
	.abi_major = CUDASTUB_ABI_MAJOR,
	.abi_minor = CUDASTUB_ABI_MINOR,
	CUDASTUB_LIBRARY_STATE_INIT("nvrtc"),
};

CUDASTUB_EXPORT const cudastub_library_info *cudastub_nvrtc_info(void)
{
	return cudastub_loader_info(&cudastub_nvrtc_library);
}

CUDASTUB_EXPORT cudastub_state cudastub_nvrtc_load(void)
{
	return cudastub_loader_load(&cudastub_nvrtc_library);
}

/*
 * The driver stub's description for the loader, its version probe, and its
 * introspection entry points.
 *
 * The driver ships with the NVIDIA driver, not the toolkit, under one
 * SONAME whatever its version: libcuda.so.1, never the unversioned
 * libcuda.so. Its major (for version gating) is the CUDA version the driver
 * supports, from cuDriverGetVersion, which needs no GPU. NVIDIA's link-time
 * stub (the toolkit's stubs/libcuda.so, also SONAME libcuda.so.1) answers
 * every call with CUDA_ERROR_STUB_LIBRARY; it is skipped and the search
 * goes on, so a LD_LIBRARY_PATH that names the toolkit's stubs/ folder does
 * not hide the real driver.
 */
#define _GNU_SOURCE
#include <dlfcn.h>

#include "cuda_stub.h"

#ifndef CUDASTUB_ABI_MAJOR
#error "CUDASTUB_ABI_MAJOR and CUDASTUB_ABI_MINOR come from the build"
#endif

/* Major 0: one name for every driver version; the probe says which. */
static const struct cudastub_soname cuda_sonames[] = {
	{0, "libcuda.so.1"},
	{0, NULL},
};

static const char *const no_wheel_dirs[] = {NULL};

typedef CUresult (*driver_version_fn)(int *);

static const char *cuda_reject(void *handle)
{
	driver_version_fn get;
	int version = 0;

	*(void **)&get = dlsym(handle, "cuDriverGetVersion");
	if (get && get(&version) == CUDA_ERROR_STUB_LIBRARY)
		return "NVIDIA's link-time stub (the toolkit's stubs/libcuda.so), not a driver";
	return NULL;
}

static int cuda_probe_version(void *handle, const char *path, int *major, int *minor)
{
	driver_version_fn get;
	int version = 0;

	(void)path;
	*(void **)&get = dlsym(handle, "cuDriverGetVersion");
	if (!get || get(&version) != CUDA_SUCCESS || version <= 0)
		return -1;
	*major = version / 1000;
	*minor = (version % 1000) / 10;
	return 0;
}

struct cudastub_library cudastub_cuda_library = {
	.name = "cuda",
	.env_path = "CUDASTUB_CUDA_PATH",
	.env_major = "CUDASTUB_CUDA_MAJOR",
	.family = "libcuda",
	.sonames = cuda_sonames,
	.wheel_dirs = no_wheel_dirs,
	.probe_version = cuda_probe_version,
	.reject = cuda_reject,
	.codes = CUDASTUB_CUDA_UNAVAILABLE_CODES,
	.abi_major = CUDASTUB_ABI_MAJOR,
	.abi_minor = CUDASTUB_ABI_MINOR,
	CUDASTUB_LIBRARY_STATE_INIT("cuda"),
};

CUDASTUB_EXPORT const cudastub_library_info *cudastub_cuda_info(void)
{
	return cudastub_loader_info(&cudastub_cuda_library);
}

CUDASTUB_EXPORT cudastub_state cudastub_cuda_load(void)
{
	return cudastub_loader_load(&cudastub_cuda_library);
}

/*
 * The driver stub's library for the loader: what the spec describes
 * (stubs/cuda_driver/cuda.spec), its version probe and what it turns
 * down.
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

static const char *cuda_reject(void *handle)
{
	int version;

	if (cudastub_driver_version(handle, &version) == CUDA_ERROR_STUB_LIBRARY)
		return "NVIDIA's link-time stub (the toolkit's stubs/libcuda.so), not a driver";
	return NULL;
}

static int cuda_probe_version(void *handle, const char *path, int *major, int *minor)
{
	int version;

	(void)path;
	if (cudastub_driver_version(handle, &version) != CUDA_SUCCESS)
		return -1;
	return cudastub_version_decode(version, major, minor);
}

struct cudastub_library cudastub_cuda_library = {
	CUDASTUB_CUDA_DESCRIPTION,
	.probe_version = cuda_probe_version,
	.reject = cuda_reject,
};

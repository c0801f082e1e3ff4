/*
 * The runtime stub's library for the loader: what the spec describes
 * (stubs/cudart/cudart.spec, the release preference of
 * stubs/loader/search/loader_release.c included), its version probe, and the
 * replay of deferred registrations.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart_registry.h"

#ifndef CUDASTUB_ABI_MAJOR
#error "CUDASTUB_ABI_MAJOR and CUDASTUB_ABI_MINOR come from the build"
#endif

/* "libcudart.so.11.8.89" -> 11, 8: the file a SONAME link points to. */
static int version_from_file_name(const char *path, int *major, int *minor)
{
	char real[4096];
	const char *base;

	if (!realpath(path, real))
		return -1;
	base = strrchr(real, '/');
	base = base ? base + 1 : real;
	return cudastub_version_from_file_name(base, cudastub_cudart_library.family, major, minor);
}

/*
 * cudaRuntimeGetVersion needs no GPU from 12.0 on. 11.x initialises the
 * driver first and answers cudaErrorInsufficientDriver without one, so for
 * it the version comes from the file the SONAME link names.
 */
static int cudart_probe_version(void *handle, const char *path, int *major, int *minor)
{
	cudaError_t (*get)(int *);
	struct link_map *map = NULL;
	int v = 0;

	*(void **)&get = cudastub_probe_symbol(handle, "cudaRuntimeGetVersion");
	if (!get)
		return -1;
	if (get(&v) == cudaSuccess && cudastub_version_decode(v, major, minor) == 0)
		return 0;
	if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map->l_name && *map->l_name &&
	    version_from_file_name(map->l_name, major, minor) == 0)
		return 0;
	return version_from_file_name(path, major, minor);
}

struct cudastub_library cudastub_cudart_library = {
	CUDASTUB_CUDART_DESCRIPTION,
	.probe_version = cudart_probe_version,
	.after_load = cudart_registry_replay,
};

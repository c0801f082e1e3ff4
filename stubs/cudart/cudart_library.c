/*
 * The runtime stub's library for the loader: what the spec describes
 * (tools/gen_stubs/specs/cudart.spec), its version probe, the driver-aware
 * choice of major, and the replay of deferred registrations.
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

	*(void **)&get = dlsym(handle, "cudaRuntimeGetVersion");
	if (!get)
		return -1;
	if (get(&v) == cudaSuccess && cudastub_version_decode(v, major, minor) == 0)
		return 0;
	if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map->l_name && *map->l_name &&
	    version_from_file_name(map->l_name, major, minor) == 0)
		return 0;
	return version_from_file_name(path, major, minor);
}

/*
 * A runtime newer than the driver answers every call with
 * cudaErrorInsufficientDriver, so the newest major the driver supports is
 * preferred (a 12.4 driver with runtimes 12 and 13 installed gets 12). The
 * driver is looked for as libcuda.so.1 only; NVIDIA's link-time stub, whose
 * cuDriverGetVersion fails, counts as no driver.
 *
 * What the probe opens it closes again unless it is NVIDIA's driver: a
 * stub left holding the SONAME libcuda.so.1 (NVIDIA's link-time stub, or a
 * cudastub driver shim the program itself never asked for) would be what
 * NVIDIA's runtime gets from its own dlopen("libcuda.so.1") later, and what
 * a program that looks for a driver finds. A cudastub shim answers the
 * version of the real driver behind it, so it still informs the choice.
 */
/* The first sound libcuda.so.1 where the loader would look (a damaged one
 * is skipped with its reason, never opened), opened by path: kept open, it
 * is also what NVIDIA's runtime gets from its dlopen by name. */
struct driver_walk {
	struct cudastub_library *lib;
	void *handle;
};

static int open_driver(const char *path, void *ctx)
{
	struct driver_walk *walk = ctx;
	char why[256];
	const char *reason;
	int absent;

	reason = cudastub_elf_check_file(path, &absent, why, sizeof why);
	if (reason) {
		cudastub_log_debug(walk->lib, "driver %s: skipped: %s", path, reason);
		return 0;
	}
	walk->handle = cudastub_dlopen(path, RTLD_NOW | RTLD_LOCAL);
	return walk->handle != NULL;
}

static uint32_t cudart_preferred_majors(struct cudastub_search *search)
{
	struct cudastub_library *lib = search->lib;
	struct driver_walk walk = {lib, NULL};
	char choice[160];
	void *driver;
	int version, major, minor, is_stub;
	uint32_t mask = 0;

	/* the process's own driver if it has one, wherever it came from */
	driver = cudastub_dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
	if (!driver && cudastub_loader_walk(search->self, "libcuda.so.1", open_driver, &walk))
		driver = walk.handle;
	if (!driver) {
		cudastub_log_debug(lib, "no driver (libcuda.so.1): no preference of major");
		return 0;
	}
	is_stub = dlsym(driver, "cudastub_cuda_info") != NULL;
	if (is_stub)
		cudastub_log_debug(lib, "libcuda.so.1 is a cudastub shim: asking the driver "
					"behind it, then closing it");
	if (cudastub_driver_version(driver, &version) != 0 ||
	    cudastub_version_decode(version, &major, &minor) != 0) {
		cudastub_log_debug(lib, "libcuda.so.1 answers no version: no preference of major");
		cudastub_dlclose(driver);
		return 0;
	}
	if (is_stub)
		cudastub_dlclose(driver);
	search->info.driver_version = version;
	for (int m = 1; m <= major && m < 32; m++)
		mask |= CUDASTUB_MAJOR_BIT(m);
	snprintf(choice, sizeof choice,
		 "driver supports CUDA %d.%d: runtimes up to %d searched first", major, minor,
		 major);
	search->info.choice = cudastub_log_keep_message(search, choice);
	cudastub_log_debug(lib, "%s", choice);
	return mask;
}

struct cudastub_library cudastub_cudart_library = {
	CUDASTUB_CUDART_DESCRIPTION,
	.probe_version = cudart_probe_version,
	.preferred_majors = cudart_preferred_majors,
	.after_load = cudart_registry_replay,
};

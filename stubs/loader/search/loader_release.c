/*
 * One CUDA release per process: which majors a search tries first.
 *
 * NVIDIA's libraries of one process must come from one CUDA release: a
 * runtime newer than the driver answers every call with
 * cudaErrorInsufficientDriver, PTX from a newer NVRTC is refused by an
 * older driver, and cuBLAS 12 next to a 13 runtime mixes two runtimes'
 * worth of state. Each stub decides alone, at its own first call, but
 * from the same facts, so they agree:
 *   1. a CUDA library already in the process (loaded by a stub, or by
 *      anyone: PyTorch, the program) fixes the release: its major first;
 *   2. otherwise the installed driver (libcuda.so.1, asked for the CUDA
 *      version it supports): the majors it can run first, newest first;
 *   3. otherwise no preference: newest first.
 * A pin or an override wins over all of this (loader_search.c). The first
 * search pass tries only the preferred majors; a second pass tries the
 * rest, since a library of another release still answers better than
 * none. `cudastub info` shows the reason (info.release_reason, and
 * info.choice or info.driver_missing).
 *
 * The release SONAMEs (a file name that belongs to one CUDA major, such as
 * libcublas.so.12) come from every library's spec (generated/libraries.c). cudastub builds are
 * never evidence: a shim has NVIDIA's SONAME.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>

#include "loader_core.h"
#include "loader_log.h"
#include "loader_process.h"
#include "loader_candidate.h"
#include "loader_elf.h"
#include "loader_loaded.h"
#include "loader_search.h"
#include "loader_versions.h"

/* 1: the major of a CUDA library already loaded, or 0. */
static int release_in_process(struct cudastub_search *search, const char **which)
{
	unsigned short hits[64];
	size_t found = cudastub_loaded_releases(search, hits, sizeof hits / sizeof *hits);

	/* in the list's order */
	for (size_t k = 0; k < found; k++) {
		const struct cudastub_soname *so = &cudastub_release_sonames[hits[k]];
		void *h = cudastub_dlopen(so->soname, RTLD_LAZY | RTLD_NOLOAD);
		int stub;

		if (!h)
			continue;
		stub = cudastub_is_stub_build(h);
		cudastub_dlclose(h); /* drops only the reference NOLOAD took */
		if (!stub) {
			*which = so->soname;
			return so->major;
		}
	}
	return 0;
}

/* 2: the first sound libcuda.so.1 where the loader would look (a damaged
 * one is skipped with its reason, never opened). Its file's name says the
 * version where it can (loader_driver_name.c), and nothing is loaded, by
 * any stub: the runtime's too, whose library loads the driver only at its
 * first call that needs a device, so that cudaGetErrorName maps no driver
 * through the stub either (asking the driver cost the runtime's
 * first call a 725,000-instruction dlopen and its cuDriverGetVersion).
 * Otherwise it is opened by path: kept open, it is also what NVIDIA's
 * libraries get from their dlopen by name. */
struct driver_walk {
	struct cudastub_library *lib;
	void *handle;
	int named_version, at_least; /* from the file's name, or 0 */
	char named_driver[32];	     /* "550.163.01" */
	char path[512];		     /* the file found, for the reason it answered none */
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
	snprintf(walk->path, sizeof walk->path, "%s", path);
	if ((walk->named_version = cudastub_driver_version_from_file(
		     path, walk->named_driver, sizeof walk->named_driver, &walk->at_least)))
		return 1;
	walk->handle = cudastub_dlopen(path, RTLD_NOW | RTLD_LOCAL);
	return walk->handle != NULL;
}

/*
 * The CUDA version the installed driver supports (12040), or 0. What the
 * probe opens it closes again unless it is NVIDIA's driver: a stub left
 * holding the SONAME libcuda.so.1 (NVIDIA's link-time stub, or a cudastub
 * driver shim the program itself never asked for) would be what NVIDIA's
 * libraries get from their own dlopen("libcuda.so.1") later. A cudastub
 * shim answers the version of the real driver behind it, so it still
 * informs the choice. NVIDIA's link-time stub answers none.
 */
/* Keeps why no driver answered in info.driver_missing, so that `cudastub
 * info` can say it on a machine without one instead of guessing. */
static void driver_missing(struct cudastub_search *search, const char *why)
{
	search->info.driver_missing = cudastub_log_keep_message(search, why);
	cudastub_log_debug(search->lib, "%s: no preference of major", why);
}

static int driver_version(struct cudastub_search *search, struct driver_walk *walk)
{
	struct cudastub_library *lib = search->lib;
	void *driver;
	int version, is_stub, code;
	char why[700];

	/* the process's own driver if it has one, wherever it came from */
	driver = cudastub_dlopen_loaded(search, "libcuda.so.1", RTLD_NOW);
	if (!driver && cudastub_loader_walk(search, "libcuda.so.1", open_driver, walk)) {
		if (walk->named_version)
			return walk->named_version;
		driver = walk->handle;
		/* the driver and what it links are in the process now */
		cudastub_loaded_forget(search);
	}
	if (!driver) {
		driver_missing(search, "no libcuda.so.1 in the process, nor a sound one where "
				       "the loader looks (LD_LIBRARY_PATH, RUNPATH, "
				       "ld.so.cache, system folders)");
		return 0;
	}
	is_stub = cudastub_is_stub_build(driver);
	if (is_stub)
		cudastub_log_debug(lib, "libcuda.so.1 is a cudastub shim: asking the driver "
					"behind it, then closing it");
	if ((code = cudastub_driver_version(driver, &version)) != 0 || version <= 0) {
		/* -1: no cuDriverGetVersion; else the driver's CUresult (34:
		 * NVIDIA's link-time stub) */
		if (code == -1)
			snprintf(why, sizeof why,
				 "%s has no usable cuDriverGetVersion (not a driver)", walk->path);
		else if (code)
			snprintf(why, sizeof why, "%s: cuDriverGetVersion failed with code %d",
				 walk->path, code);
		else
			snprintf(why, sizeof why, "%s: cuDriverGetVersion answered version %d",
				 walk->path, version);
		driver_missing(search, why);
		cudastub_dlclose(driver);
		return 0;
	}
	if (is_stub)
		cudastub_dlclose(driver);
	return version;
}

uint32_t cudastub_release_preference(struct cudastub_search *search)
{
	struct driver_walk walk = {search->lib, NULL, 0, 0, "", "libcuda.so.1 (already loaded)"};
	const char *loaded = NULL;
	char choice[sizeof walk.path + 200];
	int major, minor, version;
	uint32_t mask = 0;

	major = release_in_process(search, &loaded);
	if (major) {
		snprintf(choice, sizeof choice,
			 "%s is loaded in this process: CUDA %d searched first", loaded, major);
		mask = CUDASTUB_MAJOR_BIT(major);
		search->info.release_reason = CUDASTUB_REASON_IN_PROCESS;
	} else if ((version = driver_version(search, &walk)) > 0 &&
		   cudastub_version_decode(version, &major, &minor) == 0) {
		search->info.driver_version = version;
		if (walk.named_version)
			snprintf(choice, sizeof choice,
				 "driver %s (%s, by its file's name, not loaded) supports CUDA "
				 "%d.%d%s: up to CUDA %d searched first",
				 walk.named_driver, walk.path, major, minor,
				 walk.at_least ? " or later" : "", major);
		else
			snprintf(choice, sizeof choice,
				 "driver supports CUDA %d.%d: up to CUDA %d searched first", major,
				 minor, major);
		for (int m = 1; m <= major && m < 32; m++)
			mask |= CUDASTUB_MAJOR_BIT(m);
		search->info.release_reason = CUDASTUB_REASON_DRIVER;
	} else {
		search->info.release_reason = CUDASTUB_REASON_NOTHING_ANSWERED;
		return 0;
	}
	search->info.choice = cudastub_log_keep_message(search, choice);
	cudastub_log_debug(search->lib, "%s", choice);
	return mask;
}

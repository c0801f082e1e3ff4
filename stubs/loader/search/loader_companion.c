/*
 * Some NVIDIA libraries dlopen a companion by bare file name at run time:
 * NVRTC loads libnvrtc-builtins.so.<major>.<minor> during its first
 * compile. A bare name is looked up on the loader's path, not beside the
 * library, so a libnvrtc the stub found through CUDASTUB_NVRTC_PATH, a pip
 * wheel or CUDA_HOME would fail to compile anything. Loading the companion
 * from the same folder first fixes that: glibc then answers NVRTC's later
 * dlopen by SONAME with the copy already in the process.
 *
 * Where the library's own dlopen by name would meet that very file first
 * (a toolkit in ld.so.cache, a folder on LD_LIBRARY_PATH), nothing is
 * loaded now: the library loads its companion itself when it needs it, as
 * without a stub. NVRTC's builtins cost 3.3 million instructions to load,
 * half again a first nvrtcVersion, and a process that never
 * compiles never needs them.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader_core.h"
#include "loader_log.h"
#include "loader_process.h"
#include "loader_companion.h"
#include "loader_elf.h"
#include "loader_loaded.h"
#include "loader_search.h"
#include "loader_sys.h"

/* The file a walk met first. */
struct first_file {
	unsigned long dev, ino;
	int found;
};

static int note_first(const char *path, void *ctx)
{
	struct first_file *first = ctx;
	struct stat st;

	if (cudastub_sys_stat(path, &st) != 0)
		return 0;
	first->dev = (unsigned long)st.st_dev;
	first->ino = (unsigned long)st.st_ino;
	return first->found = 1;
}

/* Whether the library, opening name itself, would get the file at path:
 * its own search (its RPATH, LD_LIBRARY_PATH, its RUNPATH, ld.so.cache,
 * the default folders) meets that file first. */
static int library_finds_it(struct cudastub_search *s, const char *name, const char *path)
{
	struct first_file first = {0, 0, 0};
	struct stat st;

	return cudastub_loader_walk_from(s->handle, name, note_first, &first) && first.found &&
	       cudastub_sys_stat(path, &st) == 0 && (unsigned long)st.st_dev == first.dev &&
	       (unsigned long)st.st_ino == first.ino;
}

/* Loads name from the folder of file; returns 1 if it was there. */
static int load_beside(struct cudastub_search *s, const char *file, const char *name)
{
	char path[PATH_MAX], skipped[300];
	const char *slash = strrchr(file, '/');
	int n;

	if (!slash)
		return 0;
	char why[256];
	const char *reason;
	int absent;

	n = snprintf(path, sizeof path, "%.*s/%s", (int)(slash - file), file, name);
	if (n <= 0 || n >= (int)sizeof path)
		return 0;
	reason = cudastub_elf_check_file(path, &absent, why, sizeof why);
	if (absent)
		return 0;
	if (reason) {
		snprintf(skipped, sizeof skipped, "skipped: companion: %s", reason);
		cudastub_log_attempt(s, s->info.source, s->info.major, path, skipped);
		return 1;
	}
	if (library_finds_it(s, name, path)) {
		cudastub_log_attempt(s, s->info.source, s->info.major, path,
				     "not loaded now: companion the library finds by name itself");
		return 1;
	}
	s->info.dlopen_calls++;
	if (cudastub_dlopen(path, RTLD_NOW | RTLD_LOCAL))
		cudastub_log_attempt(s, s->info.source, s->info.major, path,
				     "loaded: companion the library opens by name");
	else
		cudastub_log_attempt(s, s->info.source, s->info.major, path, dlerror());
	return 1;
}

void cudastub_load_companion(struct cudastub_search *s)
{
	const struct cudastub_library *lib = s->lib;
	char name[128], real[PATH_MAX];

	if (!lib->companion_format || !s->info.path)
		return;
	snprintf(name, sizeof name, lib->companion_format, s->info.major, s->info.minor);
	/* Already there (loaded by someone, or on the loader's path and
	 * loaded by the library itself): nothing to do. Asked of the list as
	 * it is now, not as the search found it: the library just loaded. */
	if (cudastub_dlopen_loaded(NULL, name, RTLD_NOW))
		return;
	/* Beside the name we loaded, else beside the file it links to: an
	 * override may be a symlink into the toolkit. */
	if (load_beside(s, s->info.path, name))
		return;
	if (realpath(s->info.path, real) && load_beside(s, real, name))
		return;
	cudastub_log_debug(lib, "companion %s: not beside %s", name, s->info.path);
}

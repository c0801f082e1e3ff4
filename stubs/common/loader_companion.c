/*
 * Some NVIDIA libraries dlopen a companion by bare file name at run time:
 * NVRTC loads libnvrtc-builtins.so.<major>.<minor> during its first
 * compile. A bare name is looked up on the loader's path, not beside the
 * library, so a libnvrtc the stub found through CUDASTUB_NVRTC_PATH, a pip
 * wheel or CUDA_HOME would fail to compile anything. Loading the companion
 * from the same folder first fixes that: glibc then answers NVRTC's later
 * dlopen by SONAME with the copy already in the process.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loader_core.h"
#include "loader_log.h"
#include "loader_process.h"
#include "loader_search.h"

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

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
#include <string.h>
#include <unistd.h>

#include "loader.h"

void cudastub_load_companion(struct cudastub_library *lib)
{
	char name[128], path[PATH_MAX];
	const char *slash;
	int n;

	if (!lib->companion_format || !lib->info.path)
		return;
	snprintf(name, sizeof name, lib->companion_format, lib->info.major, lib->info.minor);
	/* Already there (loaded by someone, or on the loader's path and
	 * loaded by the library itself): nothing to do. */
	if (dlopen(name, RTLD_NOW | RTLD_NOLOAD))
		return;
	slash = strrchr(lib->info.path, '/');
	if (!slash)
		return;
	n = snprintf(path, sizeof path, "%.*s/%s", (int)(slash - lib->info.path), lib->info.path,
		     name);
	if (n <= 0 || n >= (int)sizeof path || access(path, F_OK) != 0) {
		cudastub_log_debug(lib, "companion %s: not beside %s", name, lib->info.path);
		return;
	}
	lib->info.dlopen_calls++;
	if (dlopen(path, RTLD_NOW | RTLD_LOCAL))
		cudastub_log_attempt(lib, lib->info.source, lib->info.major, path,
				     "loaded: companion the library opens by name");
	else
		cudastub_log_attempt(lib, lib->info.source, lib->info.major, path, dlerror());
}

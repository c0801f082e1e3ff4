/* The fake NVRTC 13 for a loader compiled into the test: ld_nvrtc_library.h. */
#define _GNU_SOURCE
#include "ld_nvrtc_library.h"

#include <dlfcn.h>

const struct cudastub_soname ld_nvrtc_sonames[] = {{13, "libnvrtc.so.13"}, {0, NULL}};
const char *const ld_nvrtc_wheel_dirs[] = {NULL};
const struct cudastub_function ld_nvrtc_row = {CUDASTUB_MAJOR_BIT(13), 0, 0};

int ld_nvrtc_probe_version(void *handle, const char *path, int *major, int *minor)
{
	int (*version)(int *, int *);

	(void)path;
	*(void **)&version = dlsym(handle, "nvrtcVersion");
	return version && version(major, minor) == 0 ? 0 : -1;
}

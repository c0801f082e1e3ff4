/*
 * CUDA's version numbers, and the driver's: what every stub asks the same
 * way. A version is 1000 * major + 10 * minor (12040 is 12.4), for the
 * runtime, NVRTC's callers and the driver alike.
 */
#define _GNU_SOURCE
#include <dlfcn.h>

#include "loader.h"

int cudastub_version_decode(int version, int *major, int *minor)
{
	if (version <= 0)
		return -1;
	*major = version / 1000;
	*minor = (version % 1000) / 10;
	return 0;
}

int cudastub_driver_version(void *driver, int *version)
{
	int (*get)(int *);

	*version = 0;
	*(void **)&get = driver ? dlsym(driver, "cuDriverGetVersion") : NULL;
	return get ? get(version) : -1;
}

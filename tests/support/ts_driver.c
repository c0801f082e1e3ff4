/* Where a real driver is (see ts_driver.h). */
#define _GNU_SOURCE
#include "ts_driver.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "test_support.h"
#include "ts_files.h"

#ifndef CUDASTUB_TEST_LINK_STUB
#define CUDASTUB_TEST_LINK_STUB "/usr/local/cuda/lib64/stubs/libcuda.so"
#endif

const char *ts_driver_dir(char *buf, size_t size)
{
	const char *root = ts_fixture(ts_library_fixture("driver-550"));
	char lib[PATH_MAX + 32];

	if (!root)
		return NULL;
	snprintf(buf, size, "%s/usr/lib/" TS_MULTIARCH "/nvidia/current", root);
	snprintf(lib, sizeof lib, "%s/libcuda.so.1", buf);
	return ts_present(lib, "run tests/fixtures/fetch.sh") ? buf : NULL;
}

const char *ts_link_stub_libcuda(void)
{
	if (!CUDASTUB_TEST_LINK_STUB[0]) {
		ts_not_applicable("no NVIDIA link-time stub libcuda.so for this architecture here "
				  "(the toolkit's is x86-64's; Debian's arm64 one ships only in "
				  "nvidia-cuda-dev); configure with "
				  "-DCUDASTUB_LINK_STUB_LIBCUDA=<file>");
		return NULL;
	}
	return ts_present(CUDASTUB_TEST_LINK_STUB, "install the CUDA 13 toolkit");
}

int ts_machine_has_driver(void)
{
	void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	int (*get)(int *);
	int version = 0;

	if (!driver)
		return 0;
	*(void **)&get = dlsym(driver, "cuDriverGetVersion");
	return get && get(&version) == 0 && version > 0;
}

/* Where the driver stub, its shim, the fake and their lists are; the
 * library under test in a child. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuda_driver_test.h"
#include "ts_files.h"

const char *cd_stub(void)
{
	return CD_STUB;
}

const char *cd_shim(void)
{
#ifdef CD_SHIM
	return CD_SHIM;
#else
	return NULL;
#endif
}

const char *cd_fake(void)
{
	return CD_FAKE;
}

const char *cd_symbols_file(void)
{
	return CD_SYMBOLS;
}

const char *cd_abi_record(void)
{
	return CD_ABI_RECORD;
}

const struct cd_lib *cd_libs(void)
{
	static struct cd_lib libs[CD_LIB_COUNT];

	libs[0] = (struct cd_lib){"stub", cd_stub()};
	libs[1] = (struct cd_lib){"shim", cd_shim()};
	return libs;
}

const char *cd_lib_path(const struct cd_lib *lib)
{
	if (!lib->path) /* a choice of the build, not a missing prerequisite */
		printf("SKIP: no shim in this build (CUDASTUB_BUILD_SHIMS=OFF)\n");
	return lib->path;
}

const char *cd_driver_file(char *buf, size_t size)
{
	char dir[PATH_MAX];

	if (!ts_driver_dir(dir, sizeof dir))
		return NULL;
	snprintf(buf, size, "%s/libcuda.so.1", dir);
	return buf;
}

void *cd_open_lib(void)
{
	const char *path = getenv(CD_LIB_VAR);
	void *lib = path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;

	if (!lib)
		fprintf(stderr, "cannot open %s: %s\n", path ? path : CD_LIB_VAR " (unset)",
			dlerror());
	return lib;
}

void *cd_sym(void *handle, const char *name)
{
	void *sym = dlsym(handle, name);

	if (!sym)
		fprintf(stderr, "no %s: %s\n", name, dlerror());
	return sym;
}

int cd_search(void *lib)
{
	cudastub_state (*load)(void);
	const cudastub_library_info *(*info)(void);

	*(void **)&load = cd_sym(lib, "cudastub_cuda_load");
	*(void **)&info = cd_sym(lib, "cudastub_cuda_info");
	if (!load || !info)
		return -1;
	printf("load=%d\n", (int)load());
	ts_print_info(info());
	return 0;
}

int cd_call_with_zeros(void *fn)
{
	cd_zero_args_fn call;

	if (!fn)
		return -1;
	*(void **)&call = fn;
	return call(0, 0, 0, 0, 0, 0, 0, 0);
}

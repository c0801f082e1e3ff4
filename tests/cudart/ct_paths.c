/* Where the stubs, the real runtimes and the driver are. */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cudart_test.h"
#include "ts_files.h"

#ifndef CT_TOOLKIT_CUDART13
#define CT_TOOLKIT_CUDART13 "/usr/local/cuda/lib64/libcudart.so.13"
#endif

const struct ct_runtime ct_runtimes[CT_RUNTIME_COUNT] = {
	{"11.8", 11, 11080, "cuda-11.8", "libcudart.so.11.0"},
	{"12.4", 12, 12040, "cuda-12.4", "libcudart.so.12"},
	{"13.0", 13, 13000, NULL, CT_TOOLKIT_CUDART13},
};

const struct ct_runtime *ct_runtime_of_major(int major)
{
	for (int i = 0; i < CT_RUNTIME_COUNT; i++)
		if (ct_runtimes[i].major == major)
			return &ct_runtimes[i];
	return NULL;
}

const struct ct_runtime *ct_newest_runtime(void)
{
	const struct ct_runtime *rt = ct_runtime_of_major(13);

	return rt->file[0] ? rt : ct_runtime_of_major(12);
}

const char *ct_runtime_file(const struct ct_runtime *rt, char *buf, size_t size)
{
	char dir[PATH_MAX];

	if (!rt->fixture && !rt->file[0]) {
		ts_not_applicable(
			"no CUDA 13.0 libcudart for this architecture here (Debian ships "
			"none for arm64); configure with -DCUDASTUB_REAL_CUDART13=<file>");
		return NULL;
	}
	if (!rt->fixture) {
		snprintf(buf, size, "%s", rt->file);
		return ts_present(buf, "install the CUDA 13 toolkit");
	}
	if (!ts_fixture_libdir(rt->fixture, dir, sizeof dir))
		return NULL;
	snprintf(buf, size, "%s/%s", dir, rt->file);
	return ts_present(buf, "run tests/fixtures/fetch.sh");
}

const char *ct_runtime_file_if_present(const struct ct_runtime *rt, char *buf, size_t size)
{
	const char *root = getenv("CUDASTUB_FIXTURES");

	if (!root || !*root)
		root = CUDASTUB_TEST_FIXTURES;
	if (!rt->fixture && !rt->file[0])
		return NULL; /* none for this architecture */
	if (rt->fixture)
		snprintf(buf, size, "%s/%s/usr/lib/" TS_MULTIARCH "/%s", root,
			 ts_library_fixture(rt->fixture), rt->file);
	else
		snprintf(buf, size, "%s", rt->file);
	return access(buf, F_OK) == 0 ? buf : NULL;
}

/* Cuts path at its last slash: its folder. */
static const char *folder(char *path)
{
	char *slash = strrchr(path, '/');

	if (slash)
		*slash = '\0';
	return path;
}

const char *ct_runtime_dir_if_present(const struct ct_runtime *rt, char *buf, size_t size)
{
	return ct_runtime_file_if_present(rt, buf, size) ? folder(buf) : NULL;
}

const char *ct_runtime_dir(const struct ct_runtime *rt, char *buf, size_t size)
{
	return ct_runtime_file(rt, buf, size) ? folder(buf) : NULL;
}

const char *ct_stub(void)
{
	return CT_STUB;
}

int ct_build_abi(void)
{
	return CT_ABI_MAJOR;
}

static const char *soname(int abi)
{
	return abi == 11 ? "libcudart.so.11.0" : abi == 12 ? "libcudart.so.12" : "libcudart.so.13";
}

const char *ct_abi_stub(int abi)
{
	static char paths[16][PATH_MAX];
	char *path = paths[abi % 16];

	if (abi == CT_ABI_MAJOR)
		return ct_stub();
	snprintf(path, PATH_MAX, "%s/abi-%d/libcudart_stub.so", CT_ABI_STUBS_DIR, abi);
	return access(path, F_OK) == 0 ? path : NULL;
}

const char *ct_abi_shim(int abi)
{
	static char paths[16][PATH_MAX];
	char *path = paths[abi % 16];

	if (abi == CT_ABI_MAJOR)
		return ct_shim();
	snprintf(path, PATH_MAX, "%s/abi-%d/shim/%s", CT_ABI_STUBS_DIR, abi, soname(abi));
	return access(path, F_OK) == 0 ? path : NULL;
}

const char *ct_shim(void)
{
#ifdef CT_SHIM
	return CT_SHIM;
#else
	return NULL;
#endif
}

const char *ct_symbols_file(int abi)
{
	static char paths[16][PATH_MAX];
	char *path = paths[abi % 16];

	snprintf(path, PATH_MAX, "%s/cudart/cu%d/cudart.symbols", CUDASTUB_TEST_GENERATED_DIR, abi);
	return path;
}

static const char *data_file(int major, const char *format)
{
	static char paths[32][PATH_MAX];
	static int next;
	const struct ct_runtime *rt = ct_runtime_of_major(major);
	char *path = paths[next++ % 32];

	snprintf(path, PATH_MAX, "%s/data/", CUDASTUB_TEST_SOURCE_DIR);
	snprintf(path + strlen(path), PATH_MAX - strlen(path), format, rt ? rt->version : "?");
	return path;
}

const char *ct_abi_record(int major)
{
	return data_file(major, "abi/cudart-%s.abi");
}

const char *ct_exports_file(int major)
{
	return data_file(major, "exports/libcudart-%s.exports");
}

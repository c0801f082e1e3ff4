/*
 * The runtime's pure functions, answered by the stub without loading
 * anything (stubs/cudart/cudart_in_place.c):
 *
 *   sweep        cudaCreateChannelDesc through the stub equals NVIDIA's
 *                runtime's, 11.8, 12.4 and 13.0, for every combination of
 *                a sweep of channel sizes and kinds (negative, huge and
 *                unknown values included), and the stub has searched for
 *                nothing after 80,000 calls;
 *   constructor  a C constructor calls it before main, as CUDA 11 code with
 *                namespace-scope texture<> references does (Debian's
 *                MAGMA): with a runtime on LD_LIBRARY_PATH, at main the
 *                stub has tried nothing and no libcudart is mapped.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart_test.h"

typedef struct cudaChannelFormatDesc (*create_fn)(int, int, int, int, enum cudaChannelFormatKind);

static const int sizes[] = {0, 1, 7, 8, 16, 32, 64, -1, INT_MAX, INT_MIN};
enum { SIZE_COUNT = sizeof sizes / sizeof *sizes };
static const int kinds[] = {0, 1, 2, 3, 4, 30, -1, 1000};
enum { KIND_COUNT = sizeof kinds / sizeof *kinds };

/* ---- children ---- */

/* Compares the stub's answers with the runtime's at CT_RUNTIME_FILE. */
static int sweep_child(void)
{
	void *real = dlopen(getenv("CT_RUNTIME_FILE"), RTLD_NOW | RTLD_LOCAL);
	void *stub = dlopen(ct_stub(), RTLD_NOW | RTLD_LOCAL);
	const cudastub_library_info *(*info)(void);
	create_fn by_real, by_stub;
	long calls = 0, differ = 0;

	if (!real || !stub) {
		printf("error=%s\n", dlerror());
		return 2;
	}
	*(void **)&by_real = dlsym(real, "cudaCreateChannelDesc");
	*(void **)&by_stub = dlsym(stub, "cudaCreateChannelDesc");
	*(void **)&info = dlsym(stub, "cudastub_cudart_info");
	if (!by_real || !by_stub || !info)
		return 3;
	for (int x = 0; x < SIZE_COUNT; x++)
		for (int y = 0; y < SIZE_COUNT; y++)
			for (int z = 0; z < SIZE_COUNT; z++)
				for (int w = 0; w < SIZE_COUNT; w++)
					for (int f = 0; f < KIND_COUNT; f++) {
						enum cudaChannelFormatKind k =
							(enum cudaChannelFormatKind)kinds[f];
						struct cudaChannelFormatDesc a = by_real(
							sizes[x], sizes[y], sizes[z], sizes[w], k);
						struct cudaChannelFormatDesc b = by_stub(
							sizes[x], sizes[y], sizes[z], sizes[w], k);

						calls++;
						differ += a.x != b.x || a.y != b.y || a.z != b.z ||
							  a.w != b.w || a.f != b.f;
					}
	printf("calls=%ld\ndiffer=%ld\nstate=%d\n", calls, differ, (int)info()->state);
	return 0;
}

static struct cudaChannelFormatDesc at_constructor;

/* Runs in every process of this binary, the parent's too: what the
 * constructors of texture<> references do. */
__attribute__((constructor)) static void texture_constructor(void)
{
	at_constructor = cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
}

static int count_runtime(struct dl_phdr_info *info, size_t size, void *count)
{
	(void)size;
	if (strstr(info->dlpi_name, "libcudart.so."))
		++*(int *)count;
	return 0;
}

static int constructor_child(void)
{
	int runtimes = 0;

	dl_iterate_phdr(count_runtime, &runtimes);
	printf("desc=%d,%d,%d,%d,%d\n", at_constructor.x, at_constructor.y, at_constructor.z,
	       at_constructor.w, (int)at_constructor.f);
	printf("runtimes_mapped=%d\nstate=%d\n", runtimes, (int)cudastub_cudart_info()->state);
	return 0;
}

/* ---- parent ---- */

static void test_sweep(void)
{
	int compared = 0;

	for (int i = 0; i < CT_RUNTIME_COUNT; i++) {
		char file[PATH_MAX], env_file[PATH_MAX + 32];
		const char *env[] = {env_file, NULL};
		struct ts_child c;

		if (!ct_runtime_file(&ct_runtimes[i], file, sizeof file))
			continue;
		snprintf(env_file, sizeof env_file, "CT_RUNTIME_FILE=%s", file);
		CU_ASSERT_EQUAL_FATAL(ts_run_child("sweep", env, &c), 0);
		CU_ASSERT_EQUAL(c.exit_code, 0);
		CU_ASSERT_EQUAL(ts_number(&c, "calls"), (long)SIZE_COUNT * SIZE_COUNT * SIZE_COUNT *
								SIZE_COUNT * KIND_COUNT);
		CU_ASSERT_EQUAL(ts_number(&c, "differ"), 0);
		/* nothing searched for all those calls */
		CU_ASSERT_EQUAL(ts_number(&c, "state"), CUDASTUB_STATE_NOT_TRIED);
		printf(" %s: %ld calls, %ld differ;", ct_runtimes[i].version,
		       ts_number(&c, "calls"), ts_number(&c, "differ"));
		compared++;
	}
	if (!compared)
		ts_not_applicable("no real runtime to compare with");
}

TS_TEST(test_sweep, "cudaCreateChannelDesc as NVIDIA's runtime, for a sweep");

static void test_constructor(void)
{
	char dir[PATH_MAX], env_path[PATH_MAX + 32];
	const char *env[] = {env_path, NULL};
	struct ts_child c;

	if (!ct_runtime_dir(ct_newest_runtime(), dir, sizeof dir))
		return;
	/* a search would find this runtime */
	snprintf(env_path, sizeof env_path, "LD_LIBRARY_PATH=%s", dir);
	CU_ASSERT_EQUAL_FATAL(ts_run_child("constructor", env, &c), 0);
	CU_ASSERT_EQUAL(c.exit_code, 0);
	CU_ASSERT_STRING_EQUAL(ts_text(&c, "desc"), "8,8,8,8,1");
	CU_ASSERT_EQUAL(ts_number(&c, "runtimes_mapped"), 0);
	CU_ASSERT_EQUAL(ts_number(&c, "state"), CUDASTUB_STATE_NOT_TRIED);
}

TS_TEST(test_constructor, "a constructor calling it loads nothing");

static const struct ts_scenario scenarios[] = {
	{"sweep", sweep_child}, {"constructor", constructor_child}, {NULL, NULL}};

TS_MAIN_SUITE("cudart: pure functions answered in place", NULL, NULL, scenarios)

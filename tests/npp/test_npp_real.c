/*
 * NPP through its stubs, with NVIDIA's libraries and no GPU: the 12.4 and
 * 11.8 fixtures' core (libnppc) and signal library (libnpps), through the
 * stubs built against the 12.4 and 11.8 headers (no CUDA 13 NPP header is
 * recorded here: tests/abi_stubs.cmake, cudastub_stub_from_fixture_headers).
 * The other nine libraries' exports and their calls without a library are
 * the contract's (tests/libraries).
 *
 *   real        through the stubs of a release's ABI, every answer equals
 *               NPP's own called directly: the version, the device's
 *               counts and name, the stream context, nppsSet_32f refusing
 *               NULL and failing on a host pointer, nppsMalloc_32f, a
 *               buffer size;
 *   across      NPP 12 made every signal length a size_t: the 12.x stub on
 *               11.8 refuses those calls (NPP_NOT_IMPLEMENTED_ERROR), never
 *               passes a size_t where 11.8 reads an int; nppc's calls, the
 *               same in both, forward;
 *   no library  what NPP answers on a machine without a GPU:
 *               NPP_CUDA_KERNEL_EXECUTION_ERROR, -1 for the counts, "n/a",
 *               a version of 0.0.0 (never NULL), no crash.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudastub/cudastub.h"
#include "test_support.h"
#include "ts_real.h"
#include "ts_release.h"

/* From CMake: NP_NPPC_12, NP_NPPS_12, NP_NPPC_11, NP_NPPS_11: the stubs
 * built against the 12.4 and 11.8 headers ("" where those were not fetched
 * when configuring). */

/* NppStatus values (nppdefs.h, the same in 11.x and 12.x) */
#define NPP_CUDA_KERNEL_EXECUTION_ERROR (-1000)
#define NPP_NOT_IMPLEMENTED_ERROR	(-3)

/* ---- child: the calls, through NP_NPPC and NP_NPPS (stubs or real) ---- */

typedef const struct {
	int major, minor, build;
} * version_fn(void);

static int calls_child(void)
{
	void *core = dlopen(getenv("NP_NPPC"), RTLD_NOW | RTLD_GLOBAL);
	void *signal = dlopen(getenv("NP_NPPS"), RTLD_NOW | RTLD_LOCAL);
	/* the lengths' type: int in 11.x, size_t from 12.0 */
	int wide = atoi(getenv("NP_ABI")) >= 12;
	version_fn *version;
	int (*count[3])(void);
	const char *(*name)(void);
	int (*context)(void *);
	const cudastub_library_info *(*info)(void);
	char ctx[256];
	long buffer_size;

	if (!core || !signal) {
		printf("open_error=%s\n", dlerror());
		return 3;
	}
	*(void **)&version = dlsym(core, "nppGetLibVersion");
	*(void **)&count[0] = dlsym(core, "nppGetGpuNumSMs");
	*(void **)&count[1] = dlsym(core, "nppGetMaxThreadsPerBlock");
	*(void **)&count[2] = dlsym(core, "nppGetMaxThreadsPerSM");
	*(void **)&name = dlsym(core, "nppGetGpuName");
	*(void **)&context = dlsym(core, "nppGetStreamContext");
	if (!version || !count[0] || !count[1] || !count[2] || !name || !context)
		return 4;
	printf("version_null=%d\n", version() == NULL);
	if (version())
		printf("version=%d.%d.%d\n", version()->major, version()->minor, version()->build);
	for (int k = 0; k < 3; k++)
		printf("count%d=%d\n", k, count[k]());
	memset(ctx, 0, sizeof ctx);
	printf("context_rc=%d\n", context(ctx));
	if (wide) {
		int (*set)(float, float *, size_t);
		float *(*alloc)(size_t);
		int (*buffer)(size_t, size_t *);
		size_t size = 7;
		float host[4];

		*(void **)&set = dlsym(signal, "nppsSet_32f");
		*(void **)&alloc = dlsym(signal, "nppsMalloc_32f");
		*(void **)&buffer = dlsym(signal, "nppsSumGetBufferSize_32f");
		if (!set || !alloc || !buffer)
			return 5;
		printf("set_null=%d\nset_host=%d\n", set(1.0f, NULL, 4), set(1.0f, host, 4));
		printf("malloc_null=%d\n", alloc(4) == NULL);
		printf("buffer_rc=%d\n", buffer(16, &size));
		buffer_size = (long)size;
	} else {
		int (*set)(float, float *, int);
		float *(*alloc)(int);
		int (*buffer)(int, int *);
		int size = 7;
		float host[4];

		*(void **)&set = dlsym(signal, "nppsSet_32f");
		*(void **)&alloc = dlsym(signal, "nppsMalloc_32f");
		*(void **)&buffer = dlsym(signal, "nppsSumGetBufferSize_32f");
		if (!set || !alloc || !buffer)
			return 5;
		printf("set_null=%d\nset_host=%d\n", set(1.0f, NULL, 4), set(1.0f, host, 4));
		printf("malloc_null=%d\n", alloc(4) == NULL);
		printf("buffer_rc=%d\n", buffer(16, &size));
		buffer_size = (long)size;
	}
	/* Without a GPU, NPP answers these from memory it never set: 12.4
	 * called directly printed the name "n/a" in some runs and "" in others,
	 * and sizes that change with the caller's code (8, 0, -8036376832).
	 * After end=, out of the comparison. */
	printf("end=1\nname=%s\nbuffer=%ld\n", name() ? name() : "(null)", buffer_size);
	fflush(stdout);
	*(void **)&info = dlsym(core, "cudastub_nppc_info");
	if (info)
		printf("nppc_state=%d\nnppc_major=%d\n", (int)info()->state, info()->major);
	*(void **)&info = dlsym(signal, "cudastub_npps_info");
	if (info)
		printf("npps_state=%d\nnpps_major=%d\n", (int)info()->state, info()->major);
	return 0;
}

/* ---- parent ---- */

/* Runs the calls child on the core and signal libraries (env: more
 * NULL-ended entries, two at most); 0 if it ran. */
static int npp_calls(const char *core, const char *signal, int abi, const char *const *extra,
		     struct ts_child *child)
{
	char signal_var[PATH_MAX + 16], abi_var[32];
	const char *env[6] = {signal_var, abi_var, NULL, NULL, NULL, NULL};

	snprintf(signal_var, sizeof signal_var, "NP_NPPS=%s", signal);
	snprintf(abi_var, sizeof abi_var, "NP_ABI=%d", abi);
	for (int i = 0; extra && extra[i] && i < 2; i++)
		env[2 + i] = extra[i];
	return ts_real_run("calls", "NP_NPPC", core, env, child);
}

static const struct {
	int abi;
	const char *core, *signal;
} stubs[] = {{12, NP_NPPC_12, NP_NPPS_12}, {11, NP_NPPC_11, NP_NPPS_11}};

static void test_real(void)
{
	int pairs = 0;

	for (size_t s = 0; s < 2; s++) {
		if (!*stubs[s].core) {
			ts_unavailable("the 12.4 and 11.8 headers (tests/fixtures/fetch.sh), "
				       "fetched before configuring");
			continue;
		}
		for (int major = 12; major >= 11; major--) {
			char core[PATH_MAX], signal[PATH_MAX], soname[32], a[4096], b[4096];
			char core_env[PATH_MAX + 32], signal_env[PATH_MAX + 32];
			const char *env[] = {core_env, signal_env, NULL};

			snprintf(soname, sizeof soname, "libnppc.so.%d", major);
			if (!ts_release_file(major, soname, core, sizeof core))
				continue; /* reported */
			snprintf(soname, sizeof soname, "libnpps.so.%d", major);
			if (!ts_release_file(major, soname, signal, sizeof signal))
				continue;
			snprintf(core_env, sizeof core_env, "CUDASTUB_NPPC_PATH=%s", core);
			snprintf(signal_env, sizeof signal_env, "CUDASTUB_NPPS_PATH=%s", signal);
			if (npp_calls(core, signal, major, NULL, &ts_direct) ||
			    npp_calls(stubs[s].core, stubs[s].signal, stubs[s].abi, env,
				      &ts_through))
				continue;
			pairs++;
			CU_ASSERT_EQUAL(ts_number(&ts_through, "nppc_state"),
					CUDASTUB_STATE_LOADED);
			CU_ASSERT_EQUAL(ts_number(&ts_through, "nppc_major"), major);
			if (stubs[s].abi == major) {
				CU_ASSERT_EQUAL(ts_number(&ts_through, "npps_state"),
						CUDASTUB_STATE_LOADED);
				CU_ASSERT_EQUAL(ts_number(&ts_through, "npps_major"), major);
				ts_real_answers(&ts_through, "end=1", NULL, a, sizeof a);
				ts_real_answers(&ts_direct, "end=1", NULL, b, sizeof b);
				if (strcmp(a, b))
					fprintf(stderr, "through the stubs:\n%s\ndirectly:\n%s\n",
						a, b);
				CU_ASSERT_STRING_EQUAL(a, b);
			} else {
				/* nppc: the same ABI in both, forwarded */
				CU_ASSERT_STRING_EQUAL(ts_text(&ts_through, "version"),
						       ts_text(&ts_direct, "version"));
				CU_ASSERT_EQUAL(ts_number(&ts_through, "context_rc"),
						ts_number(&ts_direct, "context_rc"));
				/* npps: every length changed type, refused */
				CU_ASSERT_EQUAL(ts_number(&ts_through, "set_host"),
						NPP_NOT_IMPLEMENTED_ERROR);
				CU_ASSERT_EQUAL(ts_number(&ts_through, "buffer_rc"),
						NPP_NOT_IMPLEMENTED_ERROR);
				CU_ASSERT_EQUAL(ts_number(&ts_through, "buffer"), 7);
				CU_ASSERT_EQUAL(ts_number(&ts_through, "malloc_null"), 1);
			}
			printf("  abi %d stubs, NPP %s (%s): nppsSet_32f %ld directly, %ld "
			       "through the stub\n",
			       stubs[s].abi, ts_text(&ts_direct, "version"), core,
			       ts_number(&ts_direct, "set_host"),
			       ts_number(&ts_through, "set_host"));
		}
	}
	if (!pairs)
		ts_unavailable("no real NPP (tests/fixtures/fetch.sh: npp-12.4, npp-11.8)");
}

TS_TEST(test_real, "nppc and npps: what NPP answers, and 12 on 11.8 refused");

static void test_no_library(void)
{
	const char *env[] = {"CUDASTUB_NPPC_PATH=/nonexistent/cudastub-no-library",
			     "CUDASTUB_NPPS_PATH=/nonexistent/cudastub-no-library", NULL};

	for (size_t s = 0; s < 2; s++) {
		if (!*stubs[s].core ||
		    npp_calls(stubs[s].core, stubs[s].signal, stubs[s].abi, env, &ts_through))
			continue; /* reported by test_real */
		CU_ASSERT_EQUAL(ts_number(&ts_through, "version_null"), 0);
		CU_ASSERT_STRING_EQUAL(ts_text(&ts_through, "version"), "0.0.0");
		for (int k = 0; k < 3; k++) {
			char key[16];

			snprintf(key, sizeof key, "count%d", k);
			CU_ASSERT_EQUAL(ts_number(&ts_through, key), -1);
		}
		CU_ASSERT_STRING_EQUAL(ts_text(&ts_through, "name"), "n/a");
		CU_ASSERT_EQUAL(ts_number(&ts_through, "context_rc"),
				NPP_CUDA_KERNEL_EXECUTION_ERROR);
		CU_ASSERT_EQUAL(ts_number(&ts_through, "set_null"),
				NPP_CUDA_KERNEL_EXECUTION_ERROR);
		CU_ASSERT_EQUAL(ts_number(&ts_through, "set_host"),
				NPP_CUDA_KERNEL_EXECUTION_ERROR);
		CU_ASSERT_EQUAL(ts_number(&ts_through, "malloc_null"), 1);
		CU_ASSERT_EQUAL(ts_number(&ts_through, "buffer"), 7);
		CU_ASSERT_EQUAL(ts_number(&ts_through, "nppc_state"),
				CUDASTUB_STATE_OVERRIDE_FAILED);
		CU_ASSERT_EQUAL(ts_number(&ts_through, "npps_state"),
				CUDASTUB_STATE_OVERRIDE_FAILED);
	}
}

TS_TEST(test_no_library, "no library: NPP's own no-GPU answers, never NULL");

TS_REAL_MAIN("NPP: real libraries through the stubs", calls_child)

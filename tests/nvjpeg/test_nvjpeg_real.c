/*
 * nvJPEG through its stub, with NVIDIA's libraries and no GPU: the 12.4 and
 * 11.8 fixtures' libnvjpeg.so.12 and libnvjpeg.so.11, through the stubs
 * built against the 12.4 and 11.8 headers (no CUDA 13 nvjpeg.h is recorded
 * here: tests/abi_stubs.cmake, cudastub_stub_from_fixture_headers).
 *
 *   versions    nvjpegGetProperty and nvjpegGetCudartProperty through the
 *               stub answer what the library answers called directly;
 *   handle      nvjpegCreateSimple returns what the library returns on a
 *               machine without a GPU (NVJPEG_STATUS_EXECUTION_FAILED
 *               here; with a GPU, what it returns there), the same
 *               through the stub;
 *   gating      what 11.8 lacks (nvjpegBufferDeviceResize) is refused on
 *               it by the 12.x stub, never called
 *               (NVJPEG_STATUS_IMPLEMENTATION_NOT_SUPPORTED); on 12.4 the
 *               library's own answer;
 *   no library  every call NVJPEG_STATUS_NOT_INITIALIZED, the version
 *               outputs 0, no crash.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvjpeg.h>

#include "cudastub/cudastub.h"
#include "test_support.h"
#include "ts_real.h"
#include "ts_release.h"

/* From CMake: NJ_STUB_12 and NJ_STUB_11, the stubs built against the 12.4
 * and 11.8 headers ("" where those were not fetched when configuring). */

/* ---- child: the calls, through NJ_OPEN (a stub or a real library) ---- */

static int calls_child(void)
{
	void *lib = ts_real_open("NJ_OPEN");
	nvjpegStatus_t (*property)(libraryPropertyType, int *);
	nvjpegStatus_t (*cudart_property)(libraryPropertyType, int *);
	nvjpegStatus_t (*create_simple)(nvjpegHandle_t *);
	nvjpegStatus_t (*destroy)(nvjpegHandle_t);
	nvjpegStatus_t (*resize)(nvjpegBufferDevice_t, size_t, cudaStream_t);
	const cudastub_library_info *(*info)(void);
	nvjpegHandle_t handle = NULL;

	if (!lib)
		return 3;
	*(void **)&property = dlsym(lib, "nvjpegGetProperty");
	*(void **)&cudart_property = dlsym(lib, "nvjpegGetCudartProperty");
	*(void **)&create_simple = dlsym(lib, "nvjpegCreateSimple");
	*(void **)&destroy = dlsym(lib, "nvjpegDestroy");
	*(void **)&resize = dlsym(lib, "nvjpegBufferDeviceResize");
	if (!property || !cudart_property || !create_simple || !destroy)
		return 4;
	for (int k = 0; k < 3; k++) {
		int v = -7;
		nvjpegStatus_t rc = property((libraryPropertyType)k, &v);

		printf("property%d_rc=%d\nproperty%d=%d\n", k, (int)rc, k, v);
	}
	for (int k = 0; k < 2; k++) {
		int v = -7;
		nvjpegStatus_t rc = cudart_property((libraryPropertyType)k, &v);

		printf("cudart%d_rc=%d\ncudart%d=%d\n", k, (int)rc, k, v);
	}
	printf("create_rc=%d\n", (int)create_simple(&handle));
	if (handle)
		printf("destroy_rc=%d\n", (int)destroy(handle));
	/* a NULL buffer: the library's own refusal where it has the function */
	if (resize)
		printf("resize_rc=%d\n", (int)resize(NULL, 1, NULL));
	fflush(stdout);
	*(void **)&info = dlsym(lib, "cudastub_nvjpeg_info");
	if (info)
		printf("stub_state=%d\nstub_major=%d\n", (int)info()->state, info()->major);
	return 0;
}

/* ---- parent ---- */

static void test_real(void)
{
	static const struct {
		int abi;
		const char *stub;
	} stubs[] = {{12, NJ_STUB_12}, {11, NJ_STUB_11}};
	static const struct {
		int major;
		const char *soname;
	} reals[] = {{12, "libnvjpeg.so.12"}, {11, "libnvjpeg.so.11"}};
	int pairs = 0;

	for (size_t s = 0; s < 2; s++) {
		if (!*stubs[s].stub) {
			ts_unavailable("the 12.4 and 11.8 headers (tests/fixtures/fetch.sh), "
				       "fetched before configuring");
			continue;
		}
		for (size_t r = 0; r < 2; r++) {
			char path[PATH_MAX], override[PATH_MAX + 32], a[8192], b[8192];
			const char *real =
				ts_release_file(reals[r].major, reals[r].soname, path, sizeof path);
			const char *env[] = {override, NULL};

			if (!real)
				continue; /* reported */
			snprintf(override, sizeof override, "CUDASTUB_NVJPEG_PATH=%s", real);
			if (ts_real_run("calls", "NJ_OPEN", real, NULL, &ts_direct) ||
			    ts_real_run("calls", "NJ_OPEN", stubs[s].stub, env, &ts_through))
				continue;
			pairs++;
			CU_ASSERT_EQUAL(ts_number(&ts_direct, "property0_rc"), 0);
			CU_ASSERT_EQUAL(ts_number(&ts_direct, "property0"), reals[r].major);
			CU_ASSERT_EQUAL(ts_number(&ts_through, "stub_state"),
					CUDASTUB_STATE_LOADED);
			CU_ASSERT_EQUAL(ts_number(&ts_through, "stub_major"), reals[r].major);
			/* versions, the handle: everything the library answers */
			CU_ASSERT_STRING_EQUAL(
				ts_real_answers(&ts_through, "resize_rc=", "stub_state=", a,
						sizeof a),
				ts_real_answers(&ts_direct, "resize_rc=", "stub_state=", b,
						sizeof b));
			if (reals[r].major == 12 && stubs[s].abi == 12) {
				CU_ASSERT_PTR_NOT_NULL(ts_value(&ts_direct, "resize_rc"));
				CU_ASSERT_EQUAL(ts_number(&ts_through, "resize_rc"),
						ts_number(&ts_direct, "resize_rc"));
			} else if (reals[r].major == 11) {
				/* 11.8 has no nvjpegBufferDeviceResize: the 11.x
				 * stub has none either, the 12.x stub refuses it */
				CU_ASSERT_PTR_NULL(ts_value(&ts_direct, "resize_rc"));
				if (stubs[s].abi == 12)
					CU_ASSERT_EQUAL(ts_number(&ts_through, "resize_rc"),
							NVJPEG_STATUS_IMPLEMENTATION_NOT_SUPPORTED);
			}
			printf("  abi %d stub, %s: nvJPEG %ld.%ld.%ld (CUDA %ld.%ld), "
			       "nvjpegCreateSimple %ld, the same directly\n",
			       stubs[s].abi, real, ts_number(&ts_through, "property0"),
			       ts_number(&ts_through, "property1"),
			       ts_number(&ts_through, "property2"),
			       ts_number(&ts_through, "cudart0"), ts_number(&ts_through, "cudart1"),
			       ts_number(&ts_through, "create_rc"));
		}
	}
	if (!pairs)
		ts_unavailable(
			"no real nvJPEG (tests/fixtures/fetch.sh: nvjpeg-12.4, nvjpeg-11.8)");
}

static void test_no_library(void)
{
	const char *stubs[] = {NJ_STUB_12, NJ_STUB_11};
	const char *env[] = {"CUDASTUB_NVJPEG_PATH=/nonexistent/cudastub-no-library", NULL};

	for (size_t s = 0; s < 2; s++) {
		if (!*stubs[s] || ts_real_run("calls", "NJ_OPEN", stubs[s], env, &ts_through))
			continue; /* reported by test_real */
		for (int k = 0; k < 3; k++) {
			char key[32];

			snprintf(key, sizeof key, "property%d_rc", k);
			CU_ASSERT_EQUAL(ts_number(&ts_through, key), NVJPEG_STATUS_NOT_INITIALIZED);
			snprintf(key, sizeof key, "property%d", k);
			CU_ASSERT_EQUAL(ts_number(&ts_through, key), 0);
		}
		CU_ASSERT_EQUAL(ts_number(&ts_through, "cudart0_rc"),
				NVJPEG_STATUS_NOT_INITIALIZED);
		CU_ASSERT_EQUAL(ts_number(&ts_through, "cudart0"), 0);
		CU_ASSERT_EQUAL(ts_number(&ts_through, "create_rc"), NVJPEG_STATUS_NOT_INITIALIZED);
		CU_ASSERT_PTR_NULL(ts_value(&ts_through, "destroy_rc"));
		CU_ASSERT_EQUAL(ts_number(&ts_through, "stub_state"),
				CUDASTUB_STATE_OVERRIDE_FAILED);
	}
}

static const struct ts_test tests[] = {
	{"versions, handle and gating: what the library answers", test_real},
	{"no library: NVJPEG_STATUS_NOT_INITIALIZED, outputs 0", test_no_library},
	{NULL, NULL},
};

static const struct ts_suite suite = {"nvJPEG: real libraries through the stub", NULL, NULL, tests};

int main(int argc, char **argv)
{
	static const struct ts_scenario scenarios[] = {{"calls", calls_child}, {NULL, NULL}};

	return ts_main_suite(argc, argv, scenarios, &suite);
}

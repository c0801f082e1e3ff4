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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvjpeg.h>

#include "cudastub/cudastub.h"
#include "test_support.h"
#include "ts_real.h"

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

static const struct ts_real_fixture_lib nvjpeg = {
	{NJ_STUB_12, NJ_STUB_11},
	{"libnvjpeg.so.12", "libnvjpeg.so.11"},
	"NJ_OPEN",
	"CUDASTUB_NVJPEG_PATH",
	NULL,
	"the 12.4 and 11.8 headers",
	"no real nvJPEG: nvjpeg-12.4, nvjpeg-11.8",
};

static void same_answers(const struct ts_real_pair *p)
{
	char a[8192], b[8192];

	CU_ASSERT_EQUAL(ts_number(&ts_direct, "property0_rc"), 0);
	CU_ASSERT_EQUAL(ts_number(&ts_direct, "property0"), p->major);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "stub_state"), CUDASTUB_STATE_LOADED);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "stub_major"), p->major);
	/* versions, the handle: everything the library answers */
	CU_ASSERT_STRING_EQUAL(
		ts_real_answers(&ts_through, "resize_rc=", "stub_state=", a, sizeof a),
		ts_real_answers(&ts_direct, "resize_rc=", "stub_state=", b, sizeof b));
	if (p->major == 12 && p->abi == 12) {
		CU_ASSERT_PTR_NOT_NULL(ts_value(&ts_direct, "resize_rc"));
		CU_ASSERT_EQUAL(ts_number(&ts_through, "resize_rc"),
				ts_number(&ts_direct, "resize_rc"));
	} else if (p->major == 11) {
		/* 11.8 has no nvjpegBufferDeviceResize: the 11.x stub has none
		 * either, the 12.x stub refuses it */
		CU_ASSERT_PTR_NULL(ts_value(&ts_direct, "resize_rc"));
		if (p->abi == 12)
			CU_ASSERT_EQUAL(ts_number(&ts_through, "resize_rc"),
					NVJPEG_STATUS_IMPLEMENTATION_NOT_SUPPORTED);
	}
	printf("  abi %d stub, %s: nvJPEG %ld.%ld.%ld (CUDA %ld.%ld), nvjpegCreateSimple %ld, "
	       "the same directly\n",
	       p->abi, p->real, ts_number(&ts_through, "property0"),
	       ts_number(&ts_through, "property1"), ts_number(&ts_through, "property2"),
	       ts_number(&ts_through, "cudart0"), ts_number(&ts_through, "cudart1"),
	       ts_number(&ts_through, "create_rc"));
}

static void test_real(void)
{
	ts_real_fixture_pairs(&nvjpeg, same_answers);
}

TS_TEST(test_real, "versions, handle and gating: what the library answers");

static void no_library_codes(int abi)
{
	(void)abi; /* the same for both */
	for (int k = 0; k < 3; k++) {
		char key[32];

		snprintf(key, sizeof key, "property%d_rc", k);
		CU_ASSERT_EQUAL(ts_number(&ts_through, key), NVJPEG_STATUS_NOT_INITIALIZED);
		snprintf(key, sizeof key, "property%d", k);
		CU_ASSERT_EQUAL(ts_number(&ts_through, key), 0);
	}
	CU_ASSERT_EQUAL(ts_number(&ts_through, "cudart0_rc"), NVJPEG_STATUS_NOT_INITIALIZED);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "cudart0"), 0);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "create_rc"), NVJPEG_STATUS_NOT_INITIALIZED);
	CU_ASSERT_PTR_NULL(ts_value(&ts_through, "destroy_rc"));
	CU_ASSERT_EQUAL(ts_number(&ts_through, "stub_state"), CUDASTUB_STATE_OVERRIDE_FAILED);
}

static void test_no_library(void)
{
	ts_real_fixture_no_library(&nvjpeg, no_library_codes);
}

TS_TEST(test_no_library, "no library: NVJPEG_STATUS_NOT_INITIALIZED, outputs 0");

TS_REAL_MAIN("nvJPEG: real libraries through the stub", calls_child)

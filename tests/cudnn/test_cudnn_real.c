/*
 * cuDNN through its stub, with NVIDIA's library and no GPU: the 13.0
 * toolkit's cuDNN 9 (libcudnn.so.9), the one real cuDNN this machine has
 * (Debian's nvidia-cudnn downloads its library at install time).
 *
 *   versions      cudnnGetVersion, cudnnGetCudartVersion, cudnnGetProperty
 *                 and cudnnGetMaxDeviceVersion answer through the stub what
 *                 the library answers directly; the stub reports cuDNN's
 *                 own version and the CUDA release cudnnGetCudartVersion
 *                 names;
 *   error strings cudnnGetErrorString answers every code of every range
 *                 cuDNN 9 uses (and codes around them) as the library
 *                 does, without loading anything: no libcudnn.so.9 is in
 *                 the process afterwards;
 *   no GPU        cudnnCreate returns what the library returns on this
 *                 machine (CUDNN_STATUS_NOT_INITIALIZED without a GPU),
 *                 the same through the stub;
 *   release       a pin of another CUDA major refuses the toolkit's cuDNN
 *                 (built with CUDA 13), by its cudnnGetCudartVersion;
 *   no library    the documented codes; cudnnGetVersion and cudnnGetProperty
 *                 answer what the record's cuDNN (the toolkit's) answers
 *                 here, which passes PyTorch's check against the headers
 *                 this suite is built with (the same major, no older
 *                 minor); the other version queries 0; the error strings
 *                 still the library's names but for the "no library" code,
 *                 which says none was found, in one line.
 */
#define _GNU_SOURCE
#include <cudnn.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudastub/cudastub.h"
#include "test_support.h"
#include "ts_real.h"

/* From CMake: CD_STUB, the build's stub. */

/* The codes whose strings are compared: each of cuDNN 9's ranges (1000 a
 * class, sub-codes from 1), past its last sub-code, and codes no range
 * has. */
static const int first_codes[] = {0, 1000, 2000, 3000, 4000, 5000, 6000};
#define CODES_PER_RANGE 40
static const int other_codes[] = {-1, 1, 15, 999, 9999, 1 << 30};

/* ---- child: the calls, through CD_OPEN (the stub or the real library) ---- */

static int calls_child(void)
{
	void *lib = ts_real_open("CD_OPEN");
	size_t (*get_version)(void), (*get_cudart)(void), (*max_device)(void);
	cudnnStatus_t (*get_property)(libraryPropertyType, int *);
	const char *(*error_string)(cudnnStatus_t);
	cudnnStatus_t (*create)(cudnnHandle_t *);
	cudnnStatus_t (*destroy)(cudnnHandle_t);
	int property[3] = {-7, -7, -7}, rc = 0;
	cudnnHandle_t handle = (cudnnHandle_t)(uintptr_t)0x1234;

	if (!lib)
		return 3;
	*(void **)&get_version = ts_real_symbol(lib, "cudnnGetVersion");
	*(void **)&get_cudart = ts_real_symbol(lib, "cudnnGetCudartVersion");
	*(void **)&max_device = ts_real_symbol(lib, "cudnnGetMaxDeviceVersion");
	*(void **)&get_property = ts_real_symbol(lib, "cudnnGetProperty");
	*(void **)&error_string = ts_real_symbol(lib, "cudnnGetErrorString");
	*(void **)&create = ts_real_symbol(lib, "cudnnCreate");
	*(void **)&destroy = ts_real_symbol(lib, "cudnnDestroy");

	/* the strings first: through the stub they load nothing */
	for (size_t r = 0; r < sizeof first_codes / sizeof *first_codes; r++)
		for (int k = 0; k < CODES_PER_RANGE; k++)
			ts_real_print_string("err", first_codes[r] + k,
					     error_string((cudnnStatus_t)(first_codes[r] + k)));
	for (size_t k = 0; k < sizeof other_codes / sizeof *other_codes; k++)
		ts_real_print_string("err", other_codes[k],
				     error_string((cudnnStatus_t)(other_codes[k])));
	printf("loaded_after_strings=%d\n",
	       dlopen("libcudnn.so.9", RTLD_NOW | RTLD_NOLOAD) != NULL);

	printf("version=%zu\ncudart=%zu\nmax_device=%zu\n", get_version(), get_cudart(),
	       max_device());
	for (int k = 0; k < 3; k++) {
		int r = (int)get_property((libraryPropertyType)k, &property[k]);

		if (rc == 0)
			rc = r;
	}
	printf("property_rc=%d\nproperty=%d.%d.%d\n", rc, property[0], property[1], property[2]);
	rc = (int)create(&handle);
	printf("create_rc=%d\ncreate_handle_set=%d\n", rc,
	       handle != (cudnnHandle_t)(uintptr_t)0x1234);
	if (rc == CUDNN_STATUS_SUCCESS)
		printf("destroy_rc=%d\n", (int)destroy(handle));
	/* the strings again, after the search */
	for (int k = 0; k < 3; k++)
		ts_real_print_string("err", first_codes[1] + k,
				     error_string((cudnnStatus_t)(first_codes[1] + k)));
	printf("err_after_1001=%s\n", error_string(CUDNN_STATUS_NOT_INITIALIZED));

	ts_real_print_info(lib, "cudastub_cudnn_info");
	fflush(stdout);
	return 0;
}

/* ---- parent ---- */

/* The toolkit's cuDNN directly and through the stub (its override). */
static const char *cudnn_both(char *real, size_t size)
{
	if (!ts_toolkit_file("libcudnn.so.9", real, size) ||
	    ts_real_both("calls", "CD_OPEN", "CUDASTUB_CUDNN_PATH", CD_STUB, real, NULL))
		return NULL; /* reported */
	return real;
}

/* Every error string key the child printed, checked by f. */
static int each_code(void (*f)(const char *key, int code))
{
	char key[32];
	int n = 0;

	for (size_t r = 0; r < sizeof first_codes / sizeof *first_codes; r++)
		for (int k = 0; k < CODES_PER_RANGE; k++, n++) {
			snprintf(key, sizeof key, "err_%d", first_codes[r] + k);
			f(key, first_codes[r] + k);
		}
	for (size_t k = 0; k < sizeof other_codes / sizeof *other_codes; k++, n++) {
		snprintf(key, sizeof key, "err_%d", other_codes[k]);
		f(key, other_codes[k]);
	}
	return n;
}

static void same_string(const char *key, int code)
{
	(void)code;
	TS_REAL_SAME(key);
}

static void test_versions(void)
{
	static const char *const same[] = {"version",	       "cudart",   "max_device",
					   "property_rc",      "property", "create_rc",
					   "create_handle_set"};
	char real[PATH_MAX], own[32];
	long version, cudart;

	if (!cudnn_both(real, sizeof real))
		return;
	for (size_t k = 0; k < sizeof same / sizeof *same; k++)
		TS_REAL_SAME(same[k]);
	version = ts_number(&ts_direct, "version");
	cudart = ts_number(&ts_direct, "cudart");
	CU_ASSERT_EQUAL(ts_number(&ts_direct, "property_rc"), CUDNN_STATUS_SUCCESS);
	/* CUDNN_VERSION's form, and the properties say the same */
	snprintf(own, sizeof own, "%ld.%ld.%ld", version / 10000, version % 10000 / 100,
		 version % 100);
	CU_ASSERT_STRING_EQUAL(ts_text(&ts_direct, "property"), own);
	CU_ASSERT_EQUAL(version / 10000, 9);
	CU_ASSERT_STRING_EQUAL(ts_text(&ts_through, "own"), own);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "state"), CUDASTUB_STATE_LOADED);
	/* the CUDA release it was built with: cudnnGetCudartVersion's */
	CU_ASSERT_EQUAL(ts_number(&ts_through, "major"), cudart / 1000);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "minor"), cudart % 1000 / 10);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "major"), 13);
	printf("  %s: cuDNN %s, built with CUDA %ld.%ld; cudnnCreate %ld both ways\n", real, own,
	       cudart / 1000, cudart % 1000 / 10, ts_number(&ts_direct, "create_rc"));
}

TS_TEST(test_versions, "versions as directly, CUDA release from cudnnGetCudartVersion");

static void test_no_gpu(void)
{
	char real[PATH_MAX];
	long rc;

	if (!cudnn_both(real, sizeof real))
		return;
	TS_REAL_SAME("create_rc");
	TS_REAL_SAME("create_handle_set");
	rc = ts_number(&ts_direct, "create_rc");
	/* without a GPU NVIDIA's cuDNN refuses a handle: the code the stub
	 * gives without a library too; with one (tests/gpu), it succeeds */
	CU_ASSERT(rc == CUDNN_STATUS_NOT_INITIALIZED || rc == CUDNN_STATUS_SUCCESS);
	if (rc == CUDNN_STATUS_SUCCESS)
		TS_REAL_SAME("destroy_rc");
}

TS_TEST(test_no_gpu, "cudnnCreate without a GPU as directly");

static void test_error_strings(void)
{
	char real[PATH_MAX];
	int n;

	if (!cudnn_both(real, sizeof real))
		return;
	n = each_code(same_string);
	TS_REAL_SAME("err_after_1001");
	/* answered in place: the strings alone loaded no cuDNN */
	CU_ASSERT_EQUAL(ts_number(&ts_through, "loaded_after_strings"), 0);
	CU_ASSERT_STRING_EQUAL(ts_text(&ts_direct, "err_1001"), "CUDNN_STATUS_NOT_INITIALIZED");
	CU_ASSERT_STRING_EQUAL(ts_text(&ts_direct, "err_1"), "CUDNN_UNKNOWN_STATUS");
	printf("  %d codes: the same string through the stub as directly\n", n);
}

TS_TEST(test_error_strings, "every error string as directly, nothing loaded");

/* The toolkit's cuDNN is CUDA 13's: a pin of 12 refuses it by its answer. */
static void test_release(void)
{
	char real[PATH_MAX], dir[PATH_MAX + 32];
	const char *env[] = {dir, "CUDASTUB_CUDNN_MAJOR=12", NULL};

	if (!ts_toolkit_file("libcudnn.so.9", real, sizeof real))
		return;
	*strrchr(real, '/') = '\0';
	snprintf(dir, sizeof dir, "LD_LIBRARY_PATH=%s", real);
	if (ts_real_run("calls", "CD_OPEN", CD_STUB, env, &ts_through))
		return;
	CU_ASSERT_EQUAL(ts_number(&ts_through, "state"), CUDASTUB_STATE_NOT_FOUND);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "version"), CUDNN_VERSION);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "create_rc"), CUDNN_STATUS_NOT_INITIALIZED);
	env[1] = "CUDASTUB_CUDNN_MAJOR=13";
	if (ts_real_run("calls", "CD_OPEN", CD_STUB, env, &ts_through))
		return;
	CU_ASSERT_EQUAL(ts_number(&ts_through, "state"), CUDASTUB_STATE_LOADED);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "major"), 13);
}

TS_TEST(test_release, "a pin of another CUDA major refuses it");

static void no_library_string(const char *key, int code)
{
	if (code == CUDNN_STATUS_NOT_INITIALIZED)
		return; /* searched by then? not yet: the strings come first */
	TS_REAL_SAME(key);
}

static void test_no_library(void)
{
	char real[PATH_MAX];
	const char *env[] = {"CUDASTUB_CUDNN_PATH=/nonexistent/cudastub-no-cudnn", NULL};

	/* the direct answers, for the strings */
	if (!ts_toolkit_file("libcudnn.so.9", real, sizeof real) ||
	    ts_real_run("calls", "CD_OPEN", real, NULL, &ts_direct) ||
	    ts_real_run("calls", "CD_OPEN", CD_STUB, env, &ts_through))
		return;
	/* the versions a machine with the record's cuDNN and no GPU answers */
	TS_REAL_SAME("version");
	TS_REAL_SAME("property_rc");
	TS_REAL_SAME("property");
	CU_ASSERT_EQUAL(ts_number(&ts_through, "property_rc"), CUDNN_STATUS_SUCCESS);
	/* PyTorch's check: the major it was built with, no older minor */
	{
		int major = -1, minor = -1;

		CU_ASSERT_EQUAL(sscanf(ts_text(&ts_through, "property"), "%d.%d", &major, &minor),
				2);
		CU_ASSERT_EQUAL(major, CUDNN_MAJOR);
		CU_ASSERT(minor >= CUDNN_MINOR);
	}
	CU_ASSERT_EQUAL(ts_number(&ts_through, "cudart"), 0);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "max_device"), 0);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "create_rc"), CUDNN_STATUS_NOT_INITIALIZED);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "create_handle_set"), 0);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "state"), CUDASTUB_STATE_OVERRIDE_FAILED);
	CU_ASSERT_PTR_NOT_NULL(strstr(ts_text(&ts_through, "error"), "CUDASTUB_CUDNN_PATH="));
	/* before any search, every string is the library's */
	each_code(no_library_string);
	CU_ASSERT_STRING_EQUAL(ts_text(&ts_through, "err_1001"), "CUDNN_STATUS_NOT_INITIALIZED");
	/* after it, the "no library" code says none was found */
	CU_ASSERT_PTR_NOT_NULL(
		strstr(ts_text(&ts_through, "err_after_1001"), "CUDASTUB_CUDNN_PATH"));
	TS_REAL_SAME("err_1002");
}

TS_TEST(test_no_library, "no library: documented codes, outputs 0, strings");

TS_REAL_MAIN("cuDNN through its stub, the real library", calls_child)

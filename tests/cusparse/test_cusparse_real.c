/*
 * cuSPARSE through its stub, with the real libraries and no GPU: the 13.0
 * toolkit's libcusparse.so.12 (cuSPARSE 12.6), Debian's 12.4 one (the same
 * file name, cuSPARSE 12.3) and 11.8's libcusparse.so.11 (the fixtures).
 *
 *   same answers  for each release, the same calls directly and through
 *                 the stub (its override naming the real file) give the
 *                 same results: cusparseGetProperty, cusparseGetVersion,
 *                 cusparseGetErrorName/String for every status, handle
 *                 creation (the library's own error without a device, and
 *                 its own message on stderr), a CSR descriptor made and
 *                 read back host-side (13.0's const descriptor handle,
 *                 forwarded to 11.8 as the plain one it always was); the
 *                 stub reports the CUDA release the file belongs to;
 *   gating        cusparseCreateConstCsr, which 11.8 lacks, answers
 *                 CUSPARSE_STATUS_NOT_SUPPORTED through the stub there;
 *   release lines libcusparse.so.12 is CUDA 13's or 12's by its version: a
 *                 pin to 12 refuses the toolkit's, a pin to 13 the 12.4
 *                 one ahead of it; a process whose cuSOLVER came from
 *                 12.4 gets 12.4's cuSPARSE with no override;
 *   no library    the stub's codes, outputs 0, names from the enum, and
 *                 the "no library" string says which variable to set.
 *
 * The 12.4 and 11.8 libraries need their release's folders on the path
 * (cuSPARSE 12.4 needs libnvJitLink.so.12), as a packager puts them; the
 * toolkit's are in ld.so.cache.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DISABLE_CUSPARSE_DEPRECATED
#include <cusparse.h>

#include "cudastub/cudastub.h"
#include "test_support.h"
#include "ts_real.h"
#include "ts_driver.h"
#include "ts_release.h"

/* From CMake: CS_STUB (the cuSPARSE stub), CS_CUSOLVER_STUB. */

/* The status codes asked by name and string: every one of the 13.0
 * headers' cusparseStatus_t (0 to 11), and some no cuSPARSE has. */
static const int codes[] = {-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 1000};
enum { CODES = sizeof codes / sizeof *codes };

/* ---- child: the calls, on whatever CS_LIB names ---- */

/* A CSR descriptor made, read back and destroyed: host-side only. */
static void descriptor_calls(void *lib)
{
	cusparseStatus_t (*create_csr)(cusparseSpMatDescr_t *, int64_t, int64_t, int64_t, void *,
				       void *, void *, cusparseIndexType_t, cusparseIndexType_t,
				       cusparseIndexBase_t, cudaDataType);
	cusparseStatus_t (*create_const_csr)(cusparseConstSpMatDescr_t *, int64_t, int64_t, int64_t,
					     const void *, const void *, const void *,
					     cusparseIndexType_t, cusparseIndexType_t,
					     cusparseIndexBase_t, cudaDataType);
	cusparseStatus_t (*get_size)(cusparseConstSpMatDescr_t, int64_t *, int64_t *, int64_t *);
	cusparseStatus_t (*get_format)(cusparseConstSpMatDescr_t, cusparseFormat_t *);
	cusparseStatus_t (*destroy)(cusparseConstSpMatDescr_t);
	int offsets[5] = {0, 1, 2, 3, 3}, columns[3] = {0, 2, 4};
	float values[3] = {1, 2, 3};
	int64_t rows = -7, cols = -7, nnz = -7;
	cusparseFormat_t format = (cusparseFormat_t)-7;
	cusparseSpMatDescr_t matrix = NULL;
	cusparseConstSpMatDescr_t constant = NULL;
	int rc;

	*(void **)&create_csr = dlsym(lib, "cusparseCreateCsr");
	*(void **)&create_const_csr = dlsym(lib, "cusparseCreateConstCsr");
	*(void **)&get_size = dlsym(lib, "cusparseSpMatGetSize");
	*(void **)&get_format = dlsym(lib, "cusparseSpMatGetFormat");
	*(void **)&destroy = dlsym(lib, "cusparseDestroySpMat");
	if (!create_csr || !get_size || !get_format || !destroy) {
		printf("missing=descriptor calls\n");
		return;
	}
	rc = create_csr(&matrix, 4, 5, 3, offsets, columns, values, CUSPARSE_INDEX_32I,
			CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
	printf("csr_rc=%d\n", rc);
	if (rc == 0) {
		printf("size_rc=%d\n", (int)get_size(matrix, &rows, &cols, &nnz));
		printf("format_rc=%d\n", (int)get_format(matrix, &format));
		printf("destroy_rc=%d\n", (int)destroy(matrix));
	}
	printf("rows=%lld\ncols=%lld\nnnz=%lld\nformat=%d\n", (long long)rows, (long long)cols,
	       (long long)nnz, (int)format);
	if (!create_const_csr) {
		printf("const_csr_rc=missing\n");
		return;
	}
	rc = create_const_csr(&constant, 4, 5, 3, offsets, columns, values, CUSPARSE_INDEX_32I,
			      CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
	printf("const_csr_rc=%d\n", rc);
	if (rc == 0)
		printf("const_destroy_rc=%d\n", (int)destroy(constant));
}

static int calls_child(void)
{
	void *lib = ts_real_open("CS_LIB");
	void *get_property;
	cusparseStatus_t (*get_version)(cusparseHandle_t, int *);
	const char *(*error_name)(cusparseStatus_t);
	const char *(*error_string)(cusparseStatus_t);
	cusparseStatus_t (*create)(cusparseHandle_t *);
	cusparseStatus_t (*destroy)(cusparseHandle_t);
	cusparseHandle_t handle = NULL;
	int version = -7, rc;

	if (!lib)
		return 3;
	get_property = dlsym(lib, "cusparseGetProperty");
	*(void **)&get_version = dlsym(lib, "cusparseGetVersion");
	*(void **)&error_name = dlsym(lib, "cusparseGetErrorName");
	*(void **)&error_string = dlsym(lib, "cusparseGetErrorString");
	*(void **)&create = dlsym(lib, "cusparseCreate");
	*(void **)&destroy = dlsym(lib, "cusparseDestroy");
	if (!get_property || !get_version || !error_name || !error_string || !create || !destroy)
		return 4;
	ts_real_print_properties(get_property);
	/* no handle: cuSPARSE's own "invalid value", and its message */
	printf("version_rc=%d\n", (int)get_version(NULL, &version));
	printf("version=%d\n", version);
	for (int i = 0; i < CODES; i++) {
		printf("name.%d=%s\n", codes[i], error_name((cusparseStatus_t)codes[i]));
		printf("string.%d=%s\n", codes[i], error_string((cusparseStatus_t)codes[i]));
	}
	rc = create(&handle);
	printf("create_rc=%d\ncreate_handle=%d\n", rc, handle != NULL);
	if (rc == 0)
		destroy(handle);
	descriptor_calls(lib);
	ts_real_print_info(lib, "cudastub_cusparse_info");
	fflush(stdout);
	return 0;
}

/* The cuSOLVER stub's first call, then the cuSPARSE stub's: which
 * cuSPARSE the second one takes. */
static int after_cusolver_child(void)
{
	void *solver = dlopen(CS_CUSOLVER_STUB, RTLD_NOW | RTLD_LOCAL);
	void *lib = ts_real_open("CS_LIB");
	cusparseStatus_t (*get_property)(libraryPropertyType, int *);
	int (*solver_property)(libraryPropertyType, int *);
	int value = -7;

	if (!solver || !lib)
		return 3;
	*(void **)&solver_property = dlsym(solver, "cusolverGetProperty");
	*(void **)&get_property = dlsym(lib, "cusparseGetProperty");
	if (!solver_property || !get_property)
		return 4;
	printf("cusolver_rc=%d\n", solver_property(MAJOR_VERSION, &value));
	printf("prop_rc.0=%d\n", (int)get_property(MAJOR_VERSION, &value));
	ts_real_print_info(lib, "cudastub_cusparse_info");
	fflush(stdout);
	return 0;
}

/* ---- parent ---- */

/* The real cuSPARSE of a release, or NULL (reported). */
static const char *real_cusparse(int major, char *buf, size_t size)
{
	return ts_release_file(major, major == 11 ? "libcusparse.so.11" : "libcusparse.so.12", buf,
			       size);
}

/* Every answer of the calls child, directly and through the stub. */
static void same_cusparse(int major)
{
	static const char *const keys[] = {
		"prop_rc.0",  "prop.0",	    "prop_rc.1", "prop.1",	  "prop_rc.2", "prop.2",
		"version_rc", "version",    "create_rc", "create_handle", "csr_rc",    "size_rc",
		"format_rc",  "destroy_rc", "rows",	 "cols",	  "nnz",       "format"};
	char path[PATH_MAX], key[32];
	const char *real = real_cusparse(major, path, sizeof path);

	if (!real || ts_real_both_in("calls", "CS_LIB", "CUDASTUB_CUSPARSE_PATH", CS_STUB, real,
				     major, NULL, NULL))
		return;
	ts_real_same_texts(keys, sizeof keys / sizeof *keys);
	for (int i = 0; i < CODES; i++) {
		snprintf(key, sizeof key, "name.%d", codes[i]);
		CU_ASSERT_STRING_EQUAL(ts_text(&ts_through, key), ts_text(&ts_direct, key));
		snprintf(key, sizeof key, "string.%d", codes[i]);
		CU_ASSERT_STRING_EQUAL(ts_text(&ts_through, key), ts_text(&ts_direct, key));
	}
	/* what cuSPARSE prints (its "on entry to" lines): the stub adds nothing */
	CU_ASSERT_STRING_EQUAL(ts_through.err, ts_direct.err);
	CU_ASSERT_EQUAL(ts_number(&ts_direct, "prop_rc.0"), CUSPARSE_STATUS_SUCCESS);
	CU_ASSERT_EQUAL(ts_number(&ts_direct, "version_rc"), CUSPARSE_STATUS_INVALID_VALUE);
	CU_ASSERT_STRING_EQUAL(ts_text(&ts_direct, "name.3"), "CUSPARSE_STATUS_INVALID_VALUE");
	if (!ts_machine_has_driver())
		CU_ASSERT_EQUAL(ts_number(&ts_direct, "create_rc"),
				CUSPARSE_STATUS_NOT_INITIALIZED);
	/* the descriptor was made and read back: 4 x 5, 3 entries, CSR */
	CU_ASSERT_EQUAL(ts_number(&ts_direct, "csr_rc"), CUSPARSE_STATUS_SUCCESS);
	CU_ASSERT_EQUAL(ts_number(&ts_direct, "rows"), 4);
	CU_ASSERT_EQUAL(ts_number(&ts_direct, "nnz"), 3);
	CU_ASSERT_EQUAL(ts_number(&ts_direct, "format"), CUSPARSE_FORMAT_CSR);
	/* the release the file belongs to, from its own version */
	ts_real_loaded(major);
	/* 11.8 has no const descriptors: the stub's "not supported", uncalled */
	if (major == 11) {
		CU_ASSERT_STRING_EQUAL(ts_text(&ts_direct, "const_csr_rc"), "missing");
		CU_ASSERT_EQUAL(ts_number(&ts_through, "const_csr_rc"),
				CUSPARSE_STATUS_NOT_SUPPORTED);
	} else {
		CU_ASSERT_STRING_EQUAL(ts_text(&ts_direct, "const_csr_rc"), "0");
		CU_ASSERT_STRING_EQUAL(ts_text(&ts_through, "const_csr_rc"), "0");
	}
	printf("  CUDA %d: %s is cuSPARSE %s; without a device cusparseCreate gives %ld, the "
	       "same through the stub\n",
	       major, real, ts_text(&ts_through, "own"), ts_number(&ts_direct, "create_rc"));
}

static void test_13_0(void)
{
	same_cusparse(13);
}

TS_TEST(test_13_0, "13.0: the same answers, CUDA 13");

static void test_12_4(void)
{
	same_cusparse(12);
}

TS_TEST(test_12_4, "12.4: the same answers, CUDA 12");

static void test_11_8(void)
{
	same_cusparse(11);
}

TS_TEST(test_11_8, "11.8: the same answers, CUDA 11; const descriptors not supported");

/* Search with a pin and a path: the state, the major, and the outcome
 * text of the attempt whose path holds `tried` (checked when given). */
static void search(const char *pin, const char *path, int state, int major, const char *tried,
		   const char *outcome)
{
	char pin_var[64], key[32], asan[1024];
	const char *env[] = {pin_var, ts_env_leaks_unnamed(asan, sizeof asan), NULL};
	int seen = 0;

	snprintf(pin_var, sizeof pin_var, "CUDASTUB_CUSPARSE_MAJOR=%s", pin);
	if (ts_real_run_in("calls", "CS_LIB", CS_STUB, path, pin[0] ? env : NULL, &ts_through))
		return;
	CU_ASSERT_EQUAL(ts_number(&ts_through, "state"), state);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "major"), major);
	for (long i = 0; tried && i < ts_number(&ts_through, "tried"); i++) {
		snprintf(key, sizeof key, "tried.%ld", i);
		const char *attempt = ts_text(&ts_through, key);

		if (strstr(attempt, tried) && strstr(attempt, outcome))
			seen = 1;
	}
	if (tried && !seen) {
		CU_FAIL("the expected attempt is not in the stub's list");
		fprintf(stderr, "wanted %s: ...%s...\n%s\n", tried, outcome, ts_through.out);
	}
}

static void test_release_lines(void)
{
	char path12[2 * PATH_MAX], buf[PATH_MAX];

	if (!real_cusparse(13, buf, sizeof buf) || !real_cusparse(12, buf, sizeof buf))
		return;
	ts_release_path(12, path12, sizeof path12);
	/* nothing asked: the toolkit's, CUDA 13 */
	search("", "", CUDASTUB_STATE_LOADED, 13, NULL, NULL);
	/* the toolkit's libcusparse.so.12 has CUDA 12's file name, not its release */
	search("12", "", CUDASTUB_STATE_NOT_FOUND, 0, "libcusparse.so.12",
	       "but CUDASTUB_CUSPARSE_MAJOR=12");
	CU_ASSERT_EQUAL(ts_number(&ts_through, "prop_rc.0"), CUSPARSE_STATUS_NOT_INITIALIZED);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "prop.0"), 0);
	/* Debian's 12.4 one is CUDA 12's */
	search("12", path12, CUDASTUB_STATE_LOADED, 12, "mathlibs-12.4", "loaded");
	/* first on the path, but not CUDA 13's: skipped for the toolkit's */
	search("13", path12, CUDASTUB_STATE_LOADED, 13, "mathlibs-12.4",
	       "but CUDASTUB_CUSPARSE_MAJOR=13");
	CU_ASSERT_PTR_NOT_NULL(strstr(ts_text(&ts_through, "path"), "/usr/local/cuda"));
}

TS_TEST(test_release_lines, "libcusparse.so.12: CUDA 13's or 12's by its version");

/* One CUDA release per process: cuSOLVER 12.4 brings its cuSPARSE (and
 * nvJitLink 12) in, and the cuSPARSE stub, asked nothing, keeps to it
 * rather than take the toolkit's 13.0 from ld.so.cache. */
static void test_one_release(void)
{
	char path12[2 * PATH_MAX], dir[PATH_MAX / 2], solver[PATH_MAX];
	const char *env[] = {solver, NULL};

	if (!ts_fixture_libdir("mathlibs-12.4", dir, sizeof dir))
		return;
	ts_release_path(12, path12, sizeof path12);
	snprintf(solver, sizeof solver, "CUDASTUB_CUSOLVER_PATH=%s/libcusolver.so.11", dir);
	if (ts_real_run_in("after_cusolver", "CS_LIB", CS_STUB, path12, env, &ts_through))
		return;
	CU_ASSERT_EQUAL(ts_number(&ts_through, "cusolver_rc"), 0);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "prop_rc.0"), 0);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "state"), CUDASTUB_STATE_LOADED);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "major"), 12);
	CU_ASSERT_PTR_NOT_NULL(strstr(ts_text(&ts_through, "path"), dir));
	CU_ASSERT_PTR_NOT_NULL(strstr(ts_text(&ts_through, "choice"), "CUDA 12"));
}

TS_TEST(test_one_release, "cuSOLVER 12.4 in the process: 12.4's cuSPARSE");

static void test_no_library(void)
{
	static const char *const env[] = {"CUDASTUB_CUSPARSE_PATH=/nonexistent/cudastub-none",
					  NULL};
	char key[32], real[PATH_MAX];

	if (ts_real_run_in("calls", "CS_LIB", CS_STUB, "", env, &ts_through))
		return;
	for (int k = 0; k < 3; k++) {
		snprintf(key, sizeof key, "prop_rc.%d", k);
		CU_ASSERT_EQUAL(ts_number(&ts_through, key), CUSPARSE_STATUS_NOT_INITIALIZED);
		snprintf(key, sizeof key, "prop.%d", k);
		CU_ASSERT_EQUAL(ts_number(&ts_through, key), 0);
	}
	CU_ASSERT_EQUAL(ts_number(&ts_through, "version_rc"), CUSPARSE_STATUS_NOT_INITIALIZED);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "version"), 0);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "create_rc"), CUSPARSE_STATUS_NOT_INITIALIZED);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "create_handle"), 0);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "csr_rc"), CUSPARSE_STATUS_NOT_INITIALIZED);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "const_csr_rc"), CUSPARSE_STATUS_NOT_INITIALIZED);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "state"), CUDASTUB_STATE_OVERRIDE_FAILED);
	/* the "no library" code explained: what failed, what to set */
	CU_ASSERT_PTR_NOT_NULL(strstr(ts_text(&ts_through, "string.1"), "CUDASTUB_CUSPARSE_PATH="));
	CU_ASSERT_STRING_EQUAL(ts_text(&ts_through, "string.3"), "CUSPARSE_STATUS_INVALID_VALUE");
	CU_ASSERT_STRING_EQUAL(ts_text(&ts_through, "name.1000"), "unrecognized status code");
	/* every status of the 13.0 headers named as the 13.0 library names it */
	if (!real_cusparse(13, real, sizeof real) ||
	    ts_real_run_in("calls", "CS_LIB", real, "", NULL, &ts_direct))
		return;
	for (int code = CUSPARSE_STATUS_SUCCESS; code <= CUSPARSE_STATUS_INSUFFICIENT_RESOURCES;
	     code++) {
		snprintf(key, sizeof key, "name.%d", code);
		CU_ASSERT_STRING_EQUAL(ts_text(&ts_through, key), ts_text(&ts_direct, key));
	}
}

TS_TEST(test_no_library, "no library: the codes, outputs 0, names, why");

static const struct ts_scenario scenarios[] = {
	{"calls", calls_child}, {"after_cusolver", after_cusolver_child}, {NULL, NULL}};

TS_MAIN_SUITE("cuSPARSE: the real libraries through the stub", NULL, NULL, scenarios)

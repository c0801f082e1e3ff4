/*
 * cuSOLVER through its stub, with the real libraries and no GPU: the 13.0
 * toolkit's libcusolver.so.12 (cuSOLVER 12.0), Debian's 12.4
 * libcusolver.so.11 (cuSOLVER 11.6) and 11.8's, under the same file name
 * (cuSOLVER 11.4, the fixtures).
 *
 *   same answers  for each release, the same calls directly and through
 *                 the stub (its override naming the real file) give the
 *                 same results: cusolverGetProperty, cusolverGetVersion,
 *                 handle creation of the dense, sparse and refactorization
 *                 APIs (the library's own error without a device), and
 *                 what needs no device (dense parameters, a syevj
 *                 configuration, a sparse QR info); the stub reports the
 *                 CUDA release the file belongs to;
 *   gating        what the loaded release lacks is never called: 11.8 has
 *                 no cusolverDnSetDeterministicMode, 11.8 and 12.4 no
 *                 cusolverDnSetMathMode (13.0's, forwarded to a later
 *                 12.x only where it exports it): CUSOLVER_STATUS_NOT_SUPPORTED;
 *   release lines libcusolver.so.11 is CUDA 12's or 11's by its version:
 *                 a pin to 11 skips 12.4's ahead of 11.8's, a pin to 12
 *                 the other way round;
 *   no library    the stub's codes and outputs 0.
 *
 * The 12.4 and 11.8 libraries need their release's folders on the path
 * (cuSOLVER 12.4 needs libnvJitLink.so.12), as a packager puts them; the
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
#include <cusolverDn.h>
#include <cusolverRf.h>
#include <cusolverSp.h>

#include "cudastub/cudastub.h"
#include "test_support.h"
#include "ts_real.h"
#include "ts_driver.h"
#include "ts_release.h"

/* From CMake: CSV_STUB (the cuSOLVER stub). */

/* ---- child: the calls, on whatever CSV_LIB names ---- */

/* Handle creation: without a device, the library's own error. */
static void create_calls(void *lib)
{
	static const char *const creators[][3] = {{"dn", "cusolverDnCreate", "cusolverDnDestroy"},
						  {"sp", "cusolverSpCreate", "cusolverSpDestroy"},
						  {"rf", "cusolverRfCreate", "cusolverRfDestroy"}};

	for (size_t i = 0; i < sizeof creators / sizeof *creators; i++) {
		cusolverStatus_t (*create)(void **), (*destroy)(void *);
		void *handle = NULL;
		int rc;

		*(void **)&create = dlsym(lib, creators[i][1]);
		*(void **)&destroy = dlsym(lib, creators[i][2]);
		if (!create || !destroy) {
			printf("%s_create_rc=missing\n", creators[i][0]);
			continue;
		}
		rc = create(&handle);
		printf("%s_create_rc=%d\n%s_handle=%d\n", creators[i][0], rc, creators[i][0],
		       handle != NULL);
		if (rc == 0)
			destroy(handle);
	}
}

/* What needs no device: made, configured, destroyed. */
static void host_calls(void *lib)
{
	cusolverStatus_t (*create_params)(cusolverDnParams_t *);
	cusolverStatus_t (*destroy_params)(cusolverDnParams_t);
	cusolverStatus_t (*create_syevj)(syevjInfo_t *);
	cusolverStatus_t (*syevj_tolerance)(syevjInfo_t, double);
	cusolverStatus_t (*destroy_syevj)(syevjInfo_t);
	cusolverStatus_t (*create_qr)(csrqrInfo_t *);
	cusolverStatus_t (*destroy_qr)(csrqrInfo_t);
	cusolverDnParams_t params = NULL;
	syevjInfo_t syevj = NULL;
	csrqrInfo_t qr = NULL;
	int rc;

	*(void **)&create_params = dlsym(lib, "cusolverDnCreateParams");
	*(void **)&destroy_params = dlsym(lib, "cusolverDnDestroyParams");
	*(void **)&create_syevj = dlsym(lib, "cusolverDnCreateSyevjInfo");
	*(void **)&syevj_tolerance = dlsym(lib, "cusolverDnXsyevjSetTolerance");
	*(void **)&destroy_syevj = dlsym(lib, "cusolverDnDestroySyevjInfo");
	*(void **)&create_qr = dlsym(lib, "cusolverSpCreateCsrqrInfo");
	*(void **)&destroy_qr = dlsym(lib, "cusolverSpDestroyCsrqrInfo");
	if (!create_params || !destroy_params || !create_syevj || !syevj_tolerance ||
	    !destroy_syevj || !create_qr || !destroy_qr) {
		printf("missing=host calls\n");
		return;
	}
	rc = create_params(&params);
	printf("params_rc=%d\n", rc);
	if (rc == 0)
		printf("params_destroy_rc=%d\n", (int)destroy_params(params));
	rc = create_syevj(&syevj);
	printf("syevj_rc=%d\n", rc);
	if (rc == 0) {
		printf("syevj_tolerance_rc=%d\n", (int)syevj_tolerance(syevj, 1e-7));
		printf("syevj_destroy_rc=%d\n", (int)destroy_syevj(syevj));
	}
	rc = create_qr(&qr);
	printf("qr_rc=%d\n", rc);
	if (rc == 0)
		printf("qr_destroy_rc=%d\n", (int)destroy_qr(qr));
}

/* Functions a release may lack: directly, only their presence is told;
 * through the stub, those CSV_CALL_NEWER names are called, which answer
 * without touching the handle (there is none without a device). */
static void newer_calls(void *lib, int stub)
{
	const char *call = getenv("CSV_CALL_NEWER");

	static const char *const names[][2] = {{"deterministic", "cusolverDnSetDeterministicMode"},
					       {"math_mode", "cusolverDnSetMathMode"}};

	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		cusolverStatus_t (*set)(cusolverDnHandle_t, int);

		*(void **)&set = dlsym(lib, names[i][1]);
		if (!stub)
			printf("%s=%s\n", names[i][0], set ? "exported" : "missing");
		else if (call && strstr(call, names[i][0]))
			printf("%s=%d\n", names[i][0], set ? (int)set(NULL, 0) : -99);
	}
}

static int calls_child(void)
{
	void *lib = ts_real_open("CSV_LIB");
	void *get_property;
	cusolverStatus_t (*get_version)(int *);
	int version = -7, stub;

	if (!lib)
		return 3;
	stub = dlsym(lib, "cudastub_cusolver_info") != NULL;
	get_property = dlsym(lib, "cusolverGetProperty");
	*(void **)&get_version = dlsym(lib, "cusolverGetVersion");
	if (!get_property || !get_version)
		return 4;
	ts_real_print_properties(get_property);
	printf("version_rc=%d\n", (int)get_version(&version));
	printf("version=%d\n", version);
	create_calls(lib);
	host_calls(lib);
	newer_calls(lib, stub);
	ts_real_print_info(lib, "cudastub_cusolver_info");
	fflush(stdout);
	return 0;
}

/* ---- parent ---- */

/* The real cuSOLVER of a release (CUDA 12 and 11 share its SONAME), or
 * NULL (reported). */
static const char *real_cusolver(int major, char *buf, size_t size)
{
	return ts_release_file(major, major == 13 ? "libcusolver.so.12" : "libcusolver.so.11", buf,
			       size);
}

static void same_cusolver(int major)
{
	static const char *const keys[] = {"prop_rc.0",	       "prop.0",
					   "prop_rc.1",	       "prop.1",
					   "prop_rc.2",	       "prop.2",
					   "version_rc",       "version",
					   "dn_create_rc",     "dn_handle",
					   "sp_create_rc",     "sp_handle",
					   "rf_create_rc",     "rf_handle",
					   "params_rc",	       "params_destroy_rc",
					   "syevj_rc",	       "syevj_tolerance_rc",
					   "syevj_destroy_rc", "qr_rc",
					   "qr_destroy_rc"};
	char path[PATH_MAX], asan[1024];
	const char *real = real_cusolver(major, path, sizeof path);
	/* called through the stub only where the release lacks them */
	const char *newer = major == 11	  ? "CSV_CALL_NEWER=deterministic,math_mode"
			    : major == 12 ? "CSV_CALL_NEWER=math_mode"
					  : "CSV_CALL_NEWER=";
	const char *direct_env[2] = {NULL}, *env[3] = {newer, NULL};

	if (!real)
		return;
	if (major == 11) /* 11.8's cuSOLVER closes the libnvrtc.so it opens */
		direct_env[0] = env[1] = ts_env_leaks_unnamed(asan, sizeof asan);
	if (ts_real_both_in("calls", "CSV_LIB", "CUDASTUB_CUSOLVER_PATH", CSV_STUB, real, major,
			    direct_env, env))
		return;
	ts_real_same_texts(keys, sizeof keys / sizeof *keys);
	CU_ASSERT_STRING_EQUAL(ts_through.err, ts_direct.err);
	CU_ASSERT_EQUAL(ts_number(&ts_direct, "prop_rc.0"), CUSOLVER_STATUS_SUCCESS);
	/* cusolverGetVersion: major * 1000 + minor * 100 + patch */
	CU_ASSERT_EQUAL(ts_number(&ts_direct, "version"),
			ts_number(&ts_direct, "prop.0") * 1000 +
				ts_number(&ts_direct, "prop.1") * 100 +
				ts_number(&ts_direct, "prop.2"));
	if (!ts_machine_has_driver()) {
		CU_ASSERT_EQUAL(ts_number(&ts_direct, "dn_create_rc"),
				CUSOLVER_STATUS_NOT_INITIALIZED);
		CU_ASSERT_EQUAL(ts_number(&ts_direct, "sp_create_rc"),
				CUSOLVER_STATUS_NOT_INITIALIZED);
	}
	CU_ASSERT_EQUAL(ts_number(&ts_direct, "params_rc"), CUSOLVER_STATUS_SUCCESS);
	CU_ASSERT_EQUAL(ts_number(&ts_direct, "syevj_tolerance_rc"), CUSOLVER_STATUS_SUCCESS);
	CU_ASSERT_EQUAL(ts_number(&ts_direct, "qr_rc"), CUSOLVER_STATUS_SUCCESS);
	/* the release the file belongs to, from its own version */
	ts_real_loaded(major);
	/* what the release lacks: the stub's "not supported", never called */
	if (major == 11) {
		CU_ASSERT_STRING_EQUAL(ts_text(&ts_direct, "deterministic"), "missing");
		CU_ASSERT_EQUAL(ts_number(&ts_through, "deterministic"),
				CUSOLVER_STATUS_NOT_SUPPORTED);
	}
	if (major != 13) {
		CU_ASSERT_STRING_EQUAL(ts_text(&ts_direct, "math_mode"), "missing");
		CU_ASSERT_EQUAL(ts_number(&ts_through, "math_mode"), CUSOLVER_STATUS_NOT_SUPPORTED);
	}
	printf("  CUDA %d: %s is cuSOLVER %s; without a device cusolverDnCreate gives %ld, the "
	       "same through the stub\n",
	       major, real, ts_text(&ts_through, "own"), ts_number(&ts_direct, "dn_create_rc"));
}

static void test_13_0(void)
{
	same_cusolver(13);
}

TS_TEST(test_13_0, "13.0: the same answers, CUDA 13");

static void test_12_4(void)
{
	same_cusolver(12);
}

TS_TEST(test_12_4, "12.4: the same answers, CUDA 12; 13.0's math mode not supported");

static void test_11_8(void)
{
	same_cusolver(11);
}

TS_TEST(test_11_8, "11.8: the same answers, CUDA 11; 12.x's calls not supported");

/* A pin, and both fixture releases on the path (first first): the major
 * loaded, and that the other release's file was skipped for the pin. */
static void pinned(int pin, int first, int second)
{
	char a[2 * PATH_MAX], b[2 * PATH_MAX], path[4 * PATH_MAX + 8], pin_var[64];
	char key[32], line[PATH_MAX + 256], skipped[64], asan[1024];
	const char *env[] = {pin_var, ts_env_leaks_unnamed(asan, sizeof asan), NULL};
	const char *other = first == 12 ? "mathlibs-12.4" : "mathlibs-11.8";
	int seen = 0;

	if (!real_cusolver(first, line, sizeof line) || !real_cusolver(second, line, sizeof line))
		return;
	snprintf(path, sizeof path, "%s:%s", ts_release_path(first, a, sizeof a),
		 ts_release_path(second, b, sizeof b));
	snprintf(pin_var, sizeof pin_var, "CUDASTUB_CUSOLVER_MAJOR=%d", pin);
	if (ts_real_run_in("calls", "CSV_LIB", CSV_STUB, path, env, &ts_through))
		return;
	CU_ASSERT_EQUAL(ts_number(&ts_through, "prop_rc.0"), 0);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "state"), CUDASTUB_STATE_LOADED);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "major"), pin);
	snprintf(skipped, sizeof skipped, "but CUDASTUB_CUSOLVER_MAJOR=%d", pin);
	for (long i = 0; i < ts_number(&ts_through, "tried"); i++) {
		snprintf(key, sizeof key, "tried.%ld", i);
		const char *tried = ts_text(&ts_through, key);

		if (strstr(tried, other) && strstr(tried, skipped))
			seen = 1;
	}
	CU_ASSERT_TRUE(seen);
	printf("  pin %d: %s skipped, cuSOLVER %s loaded\n", pin, other,
	       ts_text(&ts_through, "own"));
}

/* libcusolver.so.11 is CUDA 12's and 11's file name: its version decides */
static void test_release_lines(void)
{
	pinned(11, 12, 11);
	pinned(12, 11, 12);
}

TS_TEST(test_release_lines, "libcusolver.so.11: CUDA 12's or 11's by its version");

static void test_no_library(void)
{
	static const char *const env[] = {"CUDASTUB_CUSOLVER_PATH=/nonexistent/cudastub-none",
					  "CSV_CALL_NEWER=deterministic,math_mode", NULL};
	static const char *const not_initialized[] = {
		"prop_rc.0",	"prop_rc.1",	"prop_rc.2",	 "version_rc",
		"dn_create_rc", "sp_create_rc", "rf_create_rc",	 "params_rc",
		"syevj_rc",	"qr_rc",	"deterministic", "math_mode"};
	static const char *const zero[] = {"prop.0", "prop.1", "prop.2", "version", "dn_handle"};

	if (ts_real_run_in("calls", "CSV_LIB", CSV_STUB, "", env, &ts_through))
		return;
	for (size_t i = 0; i < sizeof not_initialized / sizeof *not_initialized; i++)
		CU_ASSERT_EQUAL(ts_number(&ts_through, not_initialized[i]),
				CUSOLVER_STATUS_NOT_INITIALIZED);
	for (size_t i = 0; i < sizeof zero / sizeof *zero; i++)
		CU_ASSERT_EQUAL(ts_number(&ts_through, zero[i]), 0);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "state"), CUDASTUB_STATE_OVERRIDE_FAILED);
}

TS_TEST(test_no_library, "no library: the codes, outputs 0");

TS_REAL_MAIN("cuSOLVER: the real libraries through the stub", calls_child)

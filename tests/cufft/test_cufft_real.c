/*
 * cuFFT through its stub, with NVIDIA's libraries and no GPU: the 13.0
 * toolkit's libcufft.so.12, and the 12.4 and 11.8 fixtures' libcufft.so.11
 * and libcufft.so.10.
 *
 *   versions    cufftGetVersion and cufftGetProperty through the stub
 *               answer what the library answers called directly, and the
 *               stub reports the CUDA release the spec's release lines give
 *               that version (cuFFT 12.0 is CUDA 13, 11.2 CUDA 12, 10.9
 *               CUDA 11);
 *   plans       cufftCreate, cufftPlan1d and cufftEstimate1d return what
 *               the library returns on a machine without a GPU (and with
 *               one, what it returns there), the same through the stub;
 *   gating      what an older library lacks is refused, never called
 *               (CUFFT_NOT_IMPLEMENTED): 11.8 has no plan properties, 12.4
 *               and 11.8 no cufftXtSetJITCallback; where it is there, the
 *               library's own answer (a plan that does not exist:
 *               CUFFT_INVALID_PLAN);
 *   pins        CUDASTUB_CUFFT_MAJOR takes the SONAME of that CUDA major;
 *   no library  every call CUFFT_SETUP_FAILED, the version outputs 0;
 *   other ABIs  the stubs built against the 12.4 and 11.8 headers: the
 *               same versions on every release, 11.x's functions that
 *               12.x dropped refused there, 12.x's refused on 11.8.
 */
#define _GNU_SOURCE
#include <cufft.h>
#include <cufftXt.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cudastub/cudastub.h"
#include "test_support.h"
#include "ts_real.h"

/* From CMake: CF_STUB (the build's stub, 13 ABI), CF_STUB_12 and
 * CF_STUB_11 (the stubs of the 12.4 and 11.8 headers, "" when those
 * headers were not fetched when configuring). */

/* a plan handle no cuFFT has handed out */
#define NO_SUCH_PLAN 12345

/* ---- child: the calls, through CF_OPEN (the stub or a real library) ---- */

static int calls_child(void)
{
	void *lib = ts_real_open("CF_OPEN");
	void *get_version, *get_property;
	cufftResult (*create)(cufftHandle *);
	cufftResult (*plan1d)(cufftHandle *, int, cufftType, int);
	cufftResult (*estimate1d)(int, cufftType, int, size_t *);
	cufftResult (*destroy)(cufftHandle);
	cufftResult (*plan_property)(cufftHandle, cufftProperty, long long *);
	cufftResult (*jit_callback)(cufftHandle, const char *, const void *, size_t,
				    cufftXtCallbackType, void **);
	int rc;
	cufftHandle plan = NO_SUCH_PLAN;
	size_t size = 7;
	long long value = -7;

	if (!lib)
		return 3;
	get_version = ts_real_symbol(lib, "cufftGetVersion");
	get_property = ts_real_symbol(lib, "cufftGetProperty");
	*(void **)&create = ts_real_symbol(lib, "cufftCreate");
	*(void **)&plan1d = ts_real_symbol(lib, "cufftPlan1d");
	*(void **)&estimate1d = ts_real_symbol(lib, "cufftEstimate1d");
	*(void **)&destroy = ts_real_symbol(lib, "cufftDestroy");
	ts_real_print_version(get_version, get_property);
	rc = (int)create(&plan);
	printf("create_rc=%d\ncreate_plan=%d\n", rc, (int)plan);
	if (rc == CUFFT_SUCCESS)
		printf("create_destroy=%d\n", (int)destroy(plan));
	plan = NO_SUCH_PLAN;
	rc = (int)plan1d(&plan, 64, CUFFT_C2C, 1);
	printf("plan1d_rc=%d\nplan1d_plan=%d\n", rc, (int)plan);
	if (rc == CUFFT_SUCCESS)
		printf("plan1d_destroy=%d\n", (int)destroy(plan));
	rc = (int)estimate1d(64, CUFFT_C2C, 1, &size);
	printf("estimate_rc=%d\nestimate_size=%zu\n", rc, size);
	printf("destroy_rc=%d\n", (int)destroy(NO_SUCH_PLAN));

	/* what not every release has: "absent" when the library lacks it */
	*(void **)&plan_property = dlsym(lib, "cufftGetPlanPropertyInt64");
	if (plan_property)
		printf("plan_property_rc=%d\n",
		       (int)plan_property(NO_SUCH_PLAN, NVFFT_PLAN_PROPERTY_INT64_PATIENT_JIT,
					  &value));
	else
		printf("plan_property_rc=absent\n");
	*(void **)&jit_callback = dlsym(lib, "cufftXtSetJITCallback");
	if (jit_callback)
		printf("jit_callback_rc=%d\n", (int)jit_callback(NO_SUCH_PLAN, "callback", "", 0,
								 CUFFT_CB_LD_COMPLEX, NULL));
	else
		printf("jit_callback_rc=absent\n");
	/* 11.x's cufftXt.h only; the stubs of later ABIs have none */
	if (getenv("CF_CALL_DROPPED")) {
		int (*set_distribution)(int, const void *, const void *);

		*(void **)&set_distribution = ts_real_symbol(lib, "cufftXtSetDistribution");
		printf("set_distribution_rc=%d\n", set_distribution(NO_SUCH_PLAN, NULL, NULL));
	}

	ts_real_print_info(lib, "cudastub_cufft_info");
	fflush(stdout);
	return 0;
}

/* ---- parent ---- */

static const struct ts_real_release releases[] = {
	{"13.0", 13, NULL, "libcufft.so.12"},
	{"12.4", 12, "mathlibs-12.4", "libcufft.so.11"},
	{"11.8", 11, "mathlibs-11.8", "libcufft.so.10"},
};
#define RELEASES (sizeof releases / sizeof *releases)

/* The version, plans and release of one stub on every real release. */
static void versions_through(const char *stub, int abi)
{
	static const char *const same[] = {
		"version_rc",  "version",	"property_rc", "property",
		"create_rc",   "create_plan",	"plan1d_rc",   "plan1d_plan",
		"estimate_rc", "estimate_size", "destroy_rc",
	};

	for (size_t i = 0; i < RELEASES; i++) {
		char path[PATH_MAX], own[64];
		const char *real = ts_real_library(&releases[i], path, sizeof path);
		int v[3];

		if (!real ||
		    ts_real_both("calls", "CF_OPEN", "CUDASTUB_CUFFT_PATH", stub, real, NULL))
			continue;
		CU_ASSERT_EQUAL(ts_number(&ts_direct, "version_rc"), CUFFT_SUCCESS);
		CU_ASSERT_EQUAL(ts_number(&ts_direct, "property_rc"), CUFFT_SUCCESS);
		for (size_t k = 0; k < sizeof same / sizeof *same; k++)
			TS_REAL_SAME(same[k]);
		snprintf(own, sizeof own, "%s", ts_value(&ts_direct, "property"));
		/* CUFFT_VERSION's form: major * 1000 + minor * 100 + patch */
		CU_ASSERT_EQUAL_FATAL(sscanf(own, "%d.%d.%d", &v[0], &v[1], &v[2]), 3);
		CU_ASSERT_EQUAL(ts_number(&ts_direct, "version"), v[0] * 1000 + v[1] * 100 + v[2]);
		CU_ASSERT_STRING_EQUAL(ts_value(&ts_through, "own"), own);
		CU_ASSERT_EQUAL(ts_number(&ts_through, "state"), CUDASTUB_STATE_LOADED);
		CU_ASSERT_EQUAL(ts_number(&ts_through, "major"), releases[i].major);
		printf("  %d ABI, %s: cuFFT %s (%ld), CUDA %ld; cufftCreate %ld, cufftPlan1d %ld "
		       "both ways\n",
		       abi, releases[i].name, own, ts_number(&ts_direct, "version"),
		       ts_number(&ts_through, "major"), ts_number(&ts_direct, "create_rc"),
		       ts_number(&ts_direct, "plan1d_rc"));
	}
}

static void test_versions(void)
{
	versions_through(CF_STUB, CF_BUILD_ABI);
}

TS_TEST(test_versions, "versions and plans as directly, the right CUDA release");

/* What the build's stub does with what a release may lack. */
static void test_gating(void)
{
	for (size_t i = 0; i < RELEASES; i++) {
		const struct ts_real_release *r = &releases[i];
		char path[PATH_MAX];
		const char *real = ts_real_library(r, path, sizeof path);

		if (!real ||
		    ts_real_both("calls", "CF_OPEN", "CUDASTUB_CUFFT_PATH", CF_STUB, real, NULL))
			continue;
		/* plan properties: 12.0 and later */
		if (r->major >= 12) {
			CU_ASSERT_EQUAL(ts_number(&ts_direct, "plan_property_rc"),
					CUFFT_INVALID_PLAN);
			TS_REAL_SAME("plan_property_rc");
		} else {
			CU_ASSERT_STRING_EQUAL(ts_value(&ts_direct, "plan_property_rc"), "absent");
			CU_ASSERT_EQUAL(ts_number(&ts_through, "plan_property_rc"),
					CUFFT_NOT_IMPLEMENTED);
		}
		/* cufftXtSetJITCallback: 13.0 (and 12.x from cuFFT 11.3, if exported);
		 * a stub of the 12.4 ABI (a build of that ABI) has none */
		if (CF_BUILD_ABI < 13) {
			CU_ASSERT_STRING_EQUAL(ts_value(&ts_through, "jit_callback_rc"), "absent");
		} else if (r->major >= 13) {
			CU_ASSERT_EQUAL(ts_number(&ts_direct, "jit_callback_rc"),
					CUFFT_INVALID_PLAN);
			TS_REAL_SAME("jit_callback_rc");
		} else {
			CU_ASSERT_STRING_EQUAL(ts_value(&ts_direct, "jit_callback_rc"), "absent");
			CU_ASSERT_EQUAL(ts_number(&ts_through, "jit_callback_rc"),
					CUFFT_NOT_IMPLEMENTED);
		}
	}
}

TS_TEST(test_gating, "what a release lacks is refused, what it has answers");

/* A pin takes the SONAME of its CUDA major: each fixture's folder on the
 * loader's path, the toolkit at the standard prefix. */
static void test_pins(void)
{
	char dirs[2][PATH_MAX / 2], path[PATH_MAX + 32], pin[64], toolkit[PATH_MAX];
	const char *env[] = {path, pin, NULL};

	if (!ts_fixture_libdir("mathlibs-12.4", dirs[0], sizeof dirs[0]) ||
	    !ts_fixture_libdir("mathlibs-11.8", dirs[1], sizeof dirs[1]))
		return;
	snprintf(path, sizeof path, "LD_LIBRARY_PATH=%s:%s", dirs[0], dirs[1]);
	for (size_t i = 0; i < RELEASES; i++) {
		const struct ts_real_release *r = &releases[i];

		if (!r->fixture && !ts_toolkit_file("libcufft.so.12", toolkit, sizeof toolkit))
			continue; /* reported */
		snprintf(pin, sizeof pin, "CUDASTUB_CUFFT_MAJOR=%d", r->major);
		if (ts_real_run("calls", "CF_OPEN", CF_STUB, env, &ts_through))
			continue;
		CU_ASSERT_EQUAL(ts_number(&ts_through, "state"), CUDASTUB_STATE_LOADED);
		CU_ASSERT_EQUAL(ts_number(&ts_through, "major"), r->major);
		CU_ASSERT_PTR_NOT_NULL(strstr(ts_value(&ts_through, "path"), r->soname));
		CU_ASSERT_PTR_NOT_NULL(strstr(ts_value(&ts_through, "path"),
					      r->fixture ? r->fixture : "/usr/local/"));
	}
}

TS_TEST(test_pins, "a pin takes the SONAME of its major");

static void test_no_library(void)
{
	static const char *const refused[] = {"version_rc",	  "property_rc",    "create_rc",
					      "plan1d_rc",	  "estimate_rc",    "destroy_rc",
					      "plan_property_rc", "jit_callback_rc"};
	const char *env[] = {"CUDASTUB_CUFFT_PATH=/nonexistent/cudastub-no-cufft", NULL};

	if (ts_real_run("calls", "CF_OPEN", CF_STUB, env, &ts_through))
		return;
	for (size_t k = 0; k < sizeof refused / sizeof *refused; k++) {
		if (CF_BUILD_ABI < 13 && !strcmp(refused[k], "jit_callback_rc")) {
			/* not exported by a stub of an older ABI */
			CU_ASSERT_STRING_EQUAL(ts_value(&ts_through, refused[k]), "absent");
			continue;
		}
		CU_ASSERT_EQUAL(ts_number(&ts_through, refused[k]), CUFFT_SETUP_FAILED);
	}
	CU_ASSERT_STRING_EQUAL(ts_value(&ts_through, "version"), "0");
	CU_ASSERT_STRING_EQUAL(ts_value(&ts_through, "property"), "0.0.0");
	/* only the probes write their outputs */
	CU_ASSERT_EQUAL(ts_number(&ts_through, "create_plan"), NO_SUCH_PLAN);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "estimate_size"), 7);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "state"), CUDASTUB_STATE_OVERRIDE_FAILED);
	CU_ASSERT_PTR_NOT_NULL(strstr(ts_value(&ts_through, "error"), "CUDASTUB_CUFFT_PATH="));
}

TS_TEST(test_no_library, "no library: CUFFT_SETUP_FAILED, versions 0");

/* The stubs of the 12.4 and 11.8 headers, on every release. */
static void test_other_abis(void)
{
	ts_real_other_abis(CF_STUB_12, CF_STUB_11, versions_through, "the 12.4 and 11.8 headers");
	for (size_t i = 0; i < RELEASES; i++) {
		char path[PATH_MAX];
		const char *real = ts_real_library(&releases[i], path, sizeof path);

		if (!real)
			continue;
		/* 11.x's cufftXtSetDistribution: 12.x and 13.x dropped it */
		if (releases[i].major > 11 &&
		    ts_real_both("calls", "CF_OPEN", "CUDASTUB_CUFFT_PATH", CF_STUB_11, real,
				 "CF_CALL_DROPPED=1") == 0)
			CU_ASSERT_EQUAL(ts_number(&ts_through, "set_distribution_rc"),
					CUFFT_NOT_IMPLEMENTED);
		/* 12.x's plan properties: 11.8 has none */
		if (releases[i].major == 11 &&
		    ts_real_both("calls", "CF_OPEN", "CUDASTUB_CUFFT_PATH", CF_STUB_12, real,
				 NULL) == 0)
			CU_ASSERT_EQUAL(ts_number(&ts_through, "plan_property_rc"),
					CUFFT_NOT_IMPLEMENTED);
	}
}

TS_TEST(test_other_abis, "the 12.4- and 11.8-ABI stubs on every release");

TS_REAL_MAIN("cuFFT through its stub, real libraries", calls_child)

/*
 * The contract of a library its spec describes alone (nvJitLink, cuBLAS,
 * cuFFT, ...), one instance of this suite per library, built from the
 * generated list of libraries (tests/libraries/CMakeLists.txt): adding a
 * library adds no test code here.
 *
 *   exports      the stub exports its generated list and its two entry
 *                points, nothing else, and every function the real library
 *                of its ABI exports;
 *   no library   an override naming nothing: the version query returns the
 *                stub's "no library" code and sets its outputs to 0, and
 *                info says what failed;
 *   real         for each major whose real library is here (the toolkit's,
 *                the fixtures', with their release's folders on the path),
 *                the version through the stub is the version a direct
 *                call gives, and the CUDA major the stub reports is that
 *                library's release;
 *   pin          a pin the stub cannot load is refused by name;
 *   every export with no library, each called once with zero-filled
 *                arguments: none crashes, and the search is not run again.
 * A library with no version query (NVTX: LC_FORM_NONE) has the exports and
 * the sweep here, and its versions in its own suite (tests/nvtoolsext).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cudastub/cudastub.h"
#include "test_support.h"
#include "ts_release.h"
#include "ts_elf.h"
#include "version_forms.h"

/* From CMake: LC_LIB, LC_STUB, LC_ENV (CUDASTUB_<LIB>), LC_SYMBOLS (the
 * generated export list), LC_EXPORTS_REAL (the export list of the real
 * library of the stub's ABI, "" where none is recorded),
 * LC_NO_LIBRARY, LC_VERSION_FN, LC_FORM_PROPERTY, LC_FORM_VALUE, LC_FORM_NUMBER,
 * LC_FORM_STRUCT or neither, LC_FORM (the query's form), LC_VERSION_NODE,
 * LC_SONAME_13, LC_SONAME_12, LC_SONAME_11 ("" for none), LC_ABI, and
 * LC_OFFLINE (1 where the version query answers without a library: the
 * version LC_OFFLINE_V0.V1.V2 of the release the stub's record is from).
 * LC_FORM's values: version_forms.h. */

/* ---- child: the version through a library, the stub or the real one ---- */

/* Calls every export of LC_SYMBOLS in the stub at LC_OPEN once: each
 * argument points to the same zeroed buffer (room for what a fallback
 * writes, or a structure returned in memory); prints called= and the
 * stub's state and search count. */
static int all_calls_child(void)
{
	typedef long (*any_fn)(void *, void *, void *, void *, void *, void *);
	static _Alignas(64) unsigned char zeros[4096];
	const char *path = getenv("LC_OPEN");
	void *lib = path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
	struct ts_names names = {0};
	int called = 0, missing = 0;
	char name[64];

	if (!lib || ts_names_read_list(&names, LC_SYMBOLS) != 0)
		return 3;
	for (size_t i = 0; i < names.count; i++) {
		any_fn fn = (any_fn)dlsym(lib, names.names[i]);

		if (!fn) {
			missing++;
			continue;
		}
		memset(zeros, 0, sizeof zeros);
		(void)fn(zeros, zeros, zeros, zeros, zeros, zeros);
		called++;
	}
	printf("called=%d\nmissing=%d\nlisted=%zu\n", called, missing, names.count);
	snprintf(name, sizeof name, "cudastub_%s_info", LC_LIB);
	const cudastub_library_info *(*info)(void) =
		(const cudastub_library_info *(*)(void))dlsym(lib, name);
	if (info)
		printf("state=%d\nsearches=%lu\n", (int)info()->state, info()->search_runs);
	ts_names_free(&names);
	fflush(stdout);
	return 0;
}

#if !LC_FORM_NONE
/* Calls the version query of the library at path; prints rc= and v0..v2=. */
static int version_child(void)
{
	const char *path = getenv("LC_OPEN");
	void *lib = path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
	int v[3] = {-7, -7, -7}, rc = 0;
	char name[64];

	if (!lib) {
		printf("open_error=%s\n", dlerror());
		return 3;
	}
#if LC_FORM == FORM_PROPERTY
	int (*query)(int, int *) = (int (*)(int, int *))dlsym(lib, LC_VERSION_FN);

	/* every property, even after a failure (without a library each one must
	 * set its output to 0); rc is the first failure's */
	for (int k = 0; query && k < 3; k++) {
		int r = query(k, &v[k]);

		if (rc == 0)
			rc = r;
	}
#elif LC_FORM_VALUE
	int (*query)(unsigned *) = (int (*)(unsigned *))dlsym(lib, LC_VERSION_FN);
	unsigned value = 7;

	/* one value (cuptiGetVersion): the others stay 0 */
	if (query) {
		rc = query(&value);
		v[0] = (int)value;
		v[1] = v[2] = 0;
	}
#elif LC_FORM_NUMBER
	/* FUNCTION(&value), value major * 1000 + minor * 10, returning a
	 * status struct whose first field is the code (cuFileGetVersion) */
	struct status {
		int err, cu_err;
	} (*query)(int *) = (struct status(*)(int *))dlsym(lib, LC_VERSION_FN);
	int number = 0;

	if (query) {
		rc = query(&number).err;
		v[0] = number / 1000;
		v[1] = number % 1000 / 10;
		v[2] = 0;
	} else {
		/* a stub (or an older library) without the function (cuFile
		 * 1.4, the 11.x stub): the stub searches when asked to */
		cudastub_state (*load)(void) =
			(cudastub_state(*)(void))dlsym(lib, "cudastub_" LC_LIB "_load");

		if (load)
			load();
		printf("absent=1\n");
	}
#elif LC_FORM_STRUCT
	/* FUNCTION() returns &{major, minor, build} (nppGetLibVersion): a
	 * version of 0 without a library, which stands for the stub's "no
	 * library" code, the function having no status */
	typedef const struct {
		int major, minor, build;
	} * version_fn(void);
	version_fn *query = (version_fn *)dlsym(lib, LC_VERSION_FN);

	if (query && query()) {
		v[0] = query()->major;
		v[1] = query()->minor;
		v[2] = query()->build;
		rc = v[0] > 0 ? 0 : LC_NO_LIBRARY;
	}
#elif LC_FORM == FORM_MAJOR_MINOR
	int (*query)(int *, int *) = (int (*)(int *, int *))dlsym(lib, LC_VERSION_FN);

	if (query)
		rc = query(&v[0], &v[1]);
#else
	/* a code, major * 10000 + minor * 100 + patch (cuDNN 9, NCCL 2.9 on),
	 * returned (cudnnGetVersion: 0, where a stub answers it without a
	 * library, stands for its "no library" code, the function having no
	 * status) or written (ncclGetVersion) */
	long code = -7;
#if LC_FORM == FORM_RETURNED
	size_t (*query)(void) = (size_t(*)(void))dlsym(lib, LC_VERSION_FN);

	if (query) {
		code = (long)query();
		rc = code > 0 ? 0 : LC_NO_LIBRARY;
	}
#else
	int (*query)(int *) = (int (*)(int *))dlsym(lib, LC_VERSION_FN);
	int c = -7;

	if (query) {
		rc = query(&c);
		code = c;
	}
#endif
	version_from_code(code, v);
#endif
	if (!query && !LC_FORM_NUMBER)
		return 4;
	printf("rc=%d\nv0=%d\nv1=%d\nv2=%d\n", rc, v[0], v[1], v[2]);
	snprintf(name, sizeof name, "cudastub_%s_info", LC_LIB);
	const cudastub_library_info *(*info)(void) =
		(const cudastub_library_info *(*)(void))dlsym(lib, name);
	if (info) {
		const cudastub_library_info *i = info();

		printf("state=%d\nmajor=%d\nown=%s\nerror=%s\n", (int)i->state, i->major,
		       i->own_version ? i->own_version : "", i->error ? i->error : "");
	}
	fflush(stdout);
	return 0;
}
#endif

/* ---- parent ---- */

static struct ts_child child;

/* Runs the scenario on path with env entries (NULL-ended). */
static int run_scenario(const char *scenario, const char *path, const char *const *extra)
{
	char open_var[PATH_MAX + 16];
	const char *env[8] = {open_var, NULL};
	int n = 1;

	snprintf(open_var, sizeof open_var, "LC_OPEN=%s", path);
	for (; extra && *extra && n < 7; extra++)
		env[n++] = *extra;
	env[n] = NULL;
	if (ts_run_child(scenario, env, &child) != 0 || child.exit_code != 0) {
		fprintf(stderr, "%s %s %s: exit %d\n%s%s\n", LC_LIB, scenario, path,
			child.exit_code, child.out, child.err);
		CU_FAIL("the child failed");
		return -1;
	}
	return 0;
}

#define run_version(path, extra) run_scenario("version", path, extra)

static long value(const char *key)
{
	const char *v = ts_value(&child, key);

	return v ? strtol(v, NULL, 10) : -999;
}

static void test_exports(void)
{
	struct ts_names exported = {0}, listed = {0}, real = {0};

	int unversioned = 0;

	/* a library whose symbols carry no version node (NCCL): none in its
	 * stub either */
	CU_ASSERT_EQUAL_FATAL(ts_names_exported(&exported, LC_STUB,
						LC_VERSION_NODE ? LC_SONAME_ABI : NULL,
						&unversioned),
			      0);
	CU_ASSERT_EQUAL_FATAL(ts_names_read_list(&listed, LC_SYMBOLS), 0);
	ts_names_add(&listed, "cudastub_" LC_LIB "_info");
	ts_names_add(&listed, "cudastub_" LC_LIB "_load");
	TS_EXPECT_SAME_NAMES(&listed, &exported, LC_LIB " stub exports");
	/* every symbol carries the real library's version node, if it has one */
	CU_ASSERT_EQUAL(unversioned, 0);
	/* the real library of the stub's ABI: nothing it exports is missing */
	if (*LC_EXPORTS_REAL) {
		CU_ASSERT_EQUAL_FATAL(ts_names_read_list(&real, LC_EXPORTS_REAL), 0);
		CU_ASSERT_TRUE(real.count > 0);
		for (size_t i = 0; i < real.count; i++) {
			char msg[256];

			snprintf(msg, sizeof msg, "the real library exports %s, the stub does not",
				 real.names[i]);
			CU_assertImplementation(ts_names_has(&exported, real.names[i]), __LINE__,
						msg, __FILE__, "", CU_FALSE);
		}
	}
	printf("  %s: %zu exports, the real %d library's %zu all among them\n", LC_LIB,
	       exported.count, LC_ABI, real.count);
	ts_names_free(&exported);
	ts_names_free(&listed);
	ts_names_free(&real);
}

static void test_all_calls(void)
{
	const char *env[] = {LC_ENV "_PATH=/nonexistent/cudastub-no-library", NULL};

	if (run_scenario("all_calls", LC_STUB, env))
		return;
	CU_ASSERT_TRUE(value("called") > 0);
	CU_ASSERT_EQUAL(value("missing"), 0);
	CU_ASSERT_EQUAL(value("called"), value("listed"));
	CU_ASSERT_EQUAL(value("state"), CUDASTUB_STATE_OVERRIDE_FAILED);
	/* one search answered every export */
	CU_ASSERT_EQUAL(value("searches"), 1);
	printf("  %s: %ld exports called with no library\n", LC_LIB, value("called"));
}

#if !LC_FORM_NONE
static void test_no_library(void)
{
	const char *env[] = {LC_ENV "_PATH=/nonexistent/cudastub-no-library", NULL};

	if (run_version(LC_STUB, env))
		return;
	if (value("absent") != 1 && LC_OFFLINE) {
		/* the version of the release its record is from, with success */
		CU_ASSERT_EQUAL(value("rc"), 0);
		CU_ASSERT_EQUAL(value("v0"), LC_OFFLINE_V0);
		CU_ASSERT_EQUAL(value("v1"), LC_OFFLINE_V1);
		CU_ASSERT_EQUAL(value("v2"), LC_OFFLINE_V2);
	} else if (value("absent") != 1) { /* a stub without the version function */
		CU_ASSERT_EQUAL(value("rc"), LC_NO_LIBRARY);
		CU_ASSERT_EQUAL(value("v0"), 0);
		CU_ASSERT_EQUAL(value("v1"), 0);
	}
	CU_ASSERT_EQUAL(value("state"), CUDASTUB_STATE_OVERRIDE_FAILED);
	CU_ASSERT_PTR_NOT_NULL(strstr(ts_value(&child, "error"), LC_ENV "_PATH="));
}

static void test_real(void)
{
	static const struct {
		int major;
		const char *soname;
	} majors[] = {{13, LC_SONAME_13}, {12, LC_SONAME_12}, {11, LC_SONAME_11}};
	int found = 0;

	for (size_t i = 0; i < sizeof majors / sizeof *majors; i++) {
		char path[PATH_MAX], override[PATH_MAX + 32], dirs[2 * PATH_MAX],
			libpath[2 * PATH_MAX + 32], asan[1024];
		const char *real = *majors[i].soname
					   ? ts_release_file(majors[i].major, majors[i].soname,
							     path, sizeof path)
					   : NULL;
		/* 11.8's cuBLAS, cuBLASLt and cuSOLVER close a libnvrtc.so of
		 * their own opening (ts_env_leaks_unnamed) */
		const char *direct_env[] = {libpath, asan, NULL},
			   *env[] = {override, libpath, asan, NULL};
		long direct[3];

		if (!real)
			continue; /* reported, or no such major */
		found++;
		/* as a packager puts a release on the path: a library needing
		 * another of its release (cuSPARSE 12.4 needs libnvJitLink.so.12,
		 * which is not beside it) finds it there */
		snprintf(libpath, sizeof libpath, "LD_LIBRARY_PATH=%s",
			 ts_release_path(majors[i].major, dirs, sizeof dirs));
		ts_env_leaks_unnamed(asan, sizeof asan);
		if (run_version(real, direct_env))
			continue;
		if (value("absent") == 1) {
			/* no version function to compare: the stub loads it, as
			 * that release's */
			snprintf(override, sizeof override, LC_ENV "_PATH=%s", real);
			if (run_version(LC_STUB, env))
				continue;
			CU_ASSERT_EQUAL(value("state"), CUDASTUB_STATE_LOADED);
			CU_ASSERT_EQUAL(value("major"), majors[i].major);
			printf("  %s %d: %s has no %s; loaded as CUDA %ld's\n", LC_LIB,
			       majors[i].major, real, LC_VERSION_FN, value("major"));
			continue;
		}
		CU_ASSERT_EQUAL(value("rc"), 0);
		for (int k = 0; k < 3; k++)
			direct[k] = value(k == 0 ? "v0" : k == 1 ? "v1" : "v2");
		snprintf(override, sizeof override, LC_ENV "_PATH=%s", real);
		if (run_version(LC_STUB, env))
			continue;
		/* a stub whose headers lack the version function (cuFile's
		 * 11.x) has only the release to show */
		if (value("absent") != 1) {
			CU_ASSERT_EQUAL(value("rc"), 0);
			CU_ASSERT_EQUAL(value("v0"), direct[0]);
			CU_ASSERT_EQUAL(value("v1"), direct[1]);
			CU_ASSERT_EQUAL(value("v2"), direct[2]);
		}
		CU_ASSERT_EQUAL(value("state"), CUDASTUB_STATE_LOADED);
		/* the release the real library belongs to */
		CU_ASSERT_EQUAL(value("major"), majors[i].major);
		printf("  %s %d: %s is version %ld.%ld.%ld%s%s\n", LC_LIB, majors[i].major, real,
		       direct[0], direct[1], direct[2], *ts_text(&child, "own") ? ", own " : "",
		       ts_text(&child, "own"));
	}
	/* the toolkit's at least, wherever CI runs; a cross build may have no
	 * library of its architecture (aarch64: no arm64 math libraries) */
	if (!found && ts_toolkit_is_native())
		ts_unavailable("no real " LC_LIB " library: install the CUDA 13 toolkit");
	else if (!found)
		ts_not_applicable("no real " LC_LIB " library for this architecture here");
}

static void test_pin_refused(void)
{
	const char *env[] = {LC_ENV "_MAJOR=99", NULL};

	if (run_version(LC_STUB, env))
		return;
	if (value("absent") != 1)
		CU_ASSERT_EQUAL(value("rc"), LC_OFFLINE ? 0 : LC_NO_LIBRARY);
	CU_ASSERT_EQUAL(value("state"), CUDASTUB_STATE_NOT_FOUND);
	CU_ASSERT_PTR_NOT_NULL(strstr(ts_value(&child, "error"), "\"99\" is refused"));
}

#endif

static void register_suites(void)
{
	CU_pSuite s = CU_add_suite("library contract: " LC_LIB, NULL, NULL);

	CU_add_test(s, "exports: its list, and every real export", test_exports);
	CU_add_test(s, "no library: every export called once, no crash", test_all_calls);
#if !LC_FORM_NONE
	CU_add_test(s, "no library: the code, outputs 0, why", test_no_library);
	CU_add_test(s, "real libraries: the same version, the right release", test_real);
	CU_add_test(s, "a pin it cannot load is refused", test_pin_refused);
#endif
}

int main(int argc, char **argv)
{
	static const struct ts_scenario scenarios[] = {
#if !LC_FORM_NONE
		{"version", version_child},
#endif
		{"all_calls", all_calls_child},
		{NULL, NULL}
	};

	return ts_main(argc, argv, scenarios, register_suites);
}

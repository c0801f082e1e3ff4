/*
 * NVML through its stub, with the driver's real libnvidia-ml.so.1 of the
 * 535 and 550 drivers (Debian's libnvidia-ml1) and no GPU, no kernel module.
 *
 *   exports     each stub exports its generated list and its two entry
 *               points, and every name the real 535 and 550 libraries
 *               export (the 12 record's stubs; the 11 record's lacks what
 *               NVML added since);
 *   real        every call NVML answers without a GPU answers the same
 *               through the stub as directly: the NVML version (before
 *               nvmlInit), the driver and CUDA versions and the device
 *               count (uninitialized), nvmlInit_v2, nvmlInit and
 *               nvmlInitWithFlags (driver not loaded), nvmlShutdown, and
 *               nvmlErrorString of every code and some that are none; the
 *               stub reports the library's own version and NVML's major;
 *   gating      what 535 lacks and 550 has (nvmlDeviceGetNumaNodeId) is
 *               refused on 535 (NVML_ERROR_FUNCTION_NOT_FOUND) and forwarded
 *               on 550; a name whose structs the 11.8 and 12.4 headers spell
 *               apart (nvmlDeviceGetFieldValues) is refused by the 11
 *               record's stub (NVML_ERROR_NOT_SUPPORTED);
 *   search      found where the loader looks (LD_LIBRARY_PATH), not only
 *               through the override; CUDASTUB_NVML_MAJOR=12 takes it,
 *               CUDASTUB_NVML_MAJOR=11 turns it down;
 *   no library  every call NVML_ERROR_LIBRARY_NOT_FOUND, the probes' outputs
 *               0, nvmlErrorString the code's name, and for that code what
 *               was searched and which variable to set; nothing crashes.
 * For each stub: the build's own (where NVML is built), and those of the
 * 12.4 and 11.8 headers (tests/nvml/CMakeLists.txt).
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
#include "ts_real.h"
#include "ts_elf.h"

/* From CMake: NV_STUB (the build's, "" when NVML is not built) and
 * NV_STUB_ABI (the record it is built from), NV_STUB_12
 * and NV_STUB_11 (the stubs of the 12.4 and 11.8 headers, "" when those
 * were not fetched), NV_SYMBOLS_12 and NV_SYMBOLS_11 (their generated
 * lists), NV_EXPORTS_535 and NV_EXPORTS_550 (the real libraries'). */

/* nvmlReturn_t codes the suite names (nvml.h) */
enum {
	NV_SUCCESS = 0,
	NV_UNINITIALIZED = 1,
	NV_NOT_SUPPORTED = 3,
	NV_DRIVER_NOT_LOADED = 9,
	NV_LIBRARY_NOT_FOUND = 12,
	NV_FUNCTION_NOT_FOUND = 13,
};
/* the codes whose strings are compared: every code 535 and 550 know, and
 * around them, and far from them */
static const int error_codes[] = {-2, -1, 999, 1000, 12345};
#define FIRST_CODE 0
#define LAST_CODE  40

/* ---- child: the calls, through NV_OPEN (a stub or a real library) ---- */

static int calls_child(void)
{
	void *lib = ts_real_open("NV_OPEN");
	int (*nvml_version)(char *, unsigned), (*driver_version)(char *, unsigned);
	int (*cuda_version)(int *), (*cuda_version2)(int *), (*count)(unsigned *);
	int (*init_v2)(void), (*init)(void), (*init_flags)(unsigned), (*shutdown)(void);
	const char *(*error_string)(int);
	int (*numa)(void *, unsigned *), (*field_values)(void *, int, void *);
	const cudastub_library_info *(*info)(void);
	char text[96];
	int v, rc;
	unsigned n;

	if (!lib)
		return 3;
	*(void **)&nvml_version = ts_real_symbol(lib, "nvmlSystemGetNVMLVersion");
	*(void **)&driver_version = ts_real_symbol(lib, "nvmlSystemGetDriverVersion");
	*(void **)&cuda_version = ts_real_symbol(lib, "nvmlSystemGetCudaDriverVersion");
	*(void **)&cuda_version2 = ts_real_symbol(lib, "nvmlSystemGetCudaDriverVersion_v2");
	*(void **)&count = ts_real_symbol(lib, "nvmlDeviceGetCount_v2");
	*(void **)&init_v2 = ts_real_symbol(lib, "nvmlInit_v2");
	*(void **)&init = ts_real_symbol(lib, "nvmlInit");
	*(void **)&init_flags = ts_real_symbol(lib, "nvmlInitWithFlags");
	*(void **)&shutdown = ts_real_symbol(lib, "nvmlShutdown");
	*(void **)&error_string = ts_real_symbol(lib, "nvmlErrorString");

	/* before nvmlInit: what a program asks first */
	strcpy(text, "untouched");
	rc = nvml_version(text, sizeof text);
	printf("nvml_version_rc=%d\nnvml_version=%s\n", rc, text);
	strcpy(text, "untouched");
	rc = driver_version(text, sizeof text);
	printf("driver_version_rc=%d\ndriver_version=%s\n", rc, text);
	v = -7;
	rc = cuda_version(&v);
	printf("cuda_version_rc=%d\ncuda_version=%d\n", rc, v);
	v = -7;
	rc = cuda_version2(&v);
	printf("cuda_version2_rc=%d\ncuda_version2=%d\n", rc, v);
	n = 77;
	rc = count(&n);
	printf("count_rc=%d\ncount=%u\n", rc, n);
	printf("shutdown_before_rc=%d\n", shutdown());
	/* the probes */
	printf("init_v2_rc=%d\n", init_v2());
	printf("init_rc=%d\n", init());
	printf("init_flags_rc=%d\n", init_flags(0));
	n = 77;
	rc = count(&n);
	printf("count_after_rc=%d\ncount_after=%u\n", rc, n);
	printf("shutdown_rc=%d\n", shutdown());
	/* gating: 550 has nvmlDeviceGetNumaNodeId, 535 has not; the 11.8 and
	 * 12.4 headers spell nvmlDeviceGetFieldValues's structs apart. Asked
	 * uninitialized, of no device: NVML answers before looking at it. */
	*(void **)&numa = dlsym(lib, "nvmlDeviceGetNumaNodeId");
	if (numa)
		printf("numa_rc=%d\n", numa(NULL, &n));
	else
		printf("numa_rc=absent\n");
	*(void **)&field_values = ts_real_symbol(lib, "nvmlDeviceGetFieldValues");
	printf("field_values_rc=%d\n", field_values(NULL, 0, NULL));
	for (int code = FIRST_CODE; code <= LAST_CODE; code++)
		ts_real_print_string("es", code, error_string(code));
	for (size_t i = 0; i < sizeof error_codes / sizeof *error_codes; i++)
		ts_real_print_string("es", error_codes[i], error_string(error_codes[i]));

	*(void **)&info = dlsym(lib, "cudastub_nvml_info");
	if (info) {
		const cudastub_library_info *i = info();

		printf("state=%d\nmajor=%d\nown=%s\npath=%s\nsource=%d\nerror=%s\n", (int)i->state,
		       i->major, i->own_version ? i->own_version : "", i->path ? i->path : "",
		       (int)i->source, i->error ? i->error : "");
	}
	fflush(stdout);
	return 0;
}

/* ---- parent ---- */

struct driver {
	const char *fixture; /* nvml-535 */
	const char *version; /* what nvmlSystemGetNVMLVersion says */
	const char *own;     /* the stub's own_version of it */
};

static const struct driver drivers[] = {
	{"nvml-535", "12.535.261.03", "12.535.261"},
	{"nvml-550", "12.550.163.01", "12.550.163"},
};
#define DRIVERS (sizeof drivers / sizeof *drivers)

struct stub {
	const char *path; /* "" when not built */
	int abi;	  /* the record it is built from */
	const char *what;
};

static const struct stub stubs[] = {
	{NV_STUB, NV_STUB_ABI, "the build's stub"},
	{NV_STUB_12, 12, "the 12.4 headers' stub"},
	{NV_STUB_11, 11, "the 11.8 headers' stub"},
};
#define STUBS (sizeof stubs / sizeof *stubs)

/* The folder of a driver's libnvidia-ml.so.1, or NULL (reported). */
static const char *driver_dir(const struct driver *d, char *buf, size_t size)
{
	char dir[PATH_MAX / 2];

	if (!ts_fixture_libdir(d->fixture, dir, sizeof dir))
		return NULL;
	snprintf(buf, size, "%s/nvidia/current", dir);
	return buf;
}

/* A stub that is not here: the build's is optional (NVML needs nvml.h),
 * the fixtures' headers' are not. */
static int stub_missing(const struct stub *s)
{
	char why[256];

	if (*s->path)
		return 0;
	if (s != &stubs[0]) {
		snprintf(why, sizeof why,
			 "no NVML stub of the %d record: tests/fixtures/fetch.sh fetches "
			 "nvml-headers-%s before configuring",
			 s->abi, s->abi == 12 ? "12.4" : "11.8");
		ts_unavailable(why);
	}
	return 1;
}

static void expect_every_string_same(void)
{
	char key[32];

	for (int code = FIRST_CODE; code <= LAST_CODE; code++) {
		snprintf(key, sizeof key, "es_%d", code);
		TS_REAL_SAME(key);
	}
	for (size_t i = 0; i < sizeof error_codes / sizeof *error_codes; i++) {
		snprintf(key, sizeof key, "es_%d", error_codes[i]);
		TS_REAL_SAME(key);
	}
}

/* What a driver or a record lacks is refused, never called. */
static void expect_gated(const struct stub *s, size_t driver)
{
	if (driver == 0) {
		/* 535: no nvmlDeviceGetNumaNodeId; the stubs of 12 have it */
		CU_ASSERT_STRING_EQUAL(ts_text(&ts_direct, "numa_rc"), "absent");
		if (s->abi != 11)
			CU_ASSERT_EQUAL(ts_number(&ts_through, "numa_rc"), NV_FUNCTION_NOT_FOUND);
	} else if (s->abi != 11) {
		CU_ASSERT_STRING_NOT_EQUAL(ts_text(&ts_direct, "numa_rc"), "absent");
		TS_REAL_SAME("numa_rc");
	}
	/* 11.8's headers have no nvmlDeviceGetNumaNodeId */
	if (s->abi == 11)
		CU_ASSERT_STRING_EQUAL(ts_text(&ts_through, "numa_rc"), "absent");
	/* the 11 record's nvmlFieldValue_t is not 12's (nvml.notes) */
	if (s->abi == 11) {
		CU_ASSERT_EQUAL(ts_number(&ts_through, "field_values_rc"), NV_NOT_SUPPORTED);
	} else {
		TS_REAL_SAME("field_values_rc");
	}
}

static void test_exports(void)
{
	static const char *const symbols[] = {NV_SYMBOLS_12, NV_SYMBOLS_11};
	static const char *const real[] = {NV_EXPORTS_535, NV_EXPORTS_550};

	for (size_t s = 1; s < STUBS; s++) {
		struct ts_names exported = {0}, listed = {0}, want = {0};
		int unversioned = 0;
		size_t missing = 0;

		if (stub_missing(&stubs[s]))
			continue;
		CU_ASSERT_EQUAL_FATAL(ts_names_exported(&exported, stubs[s].path, "", &unversioned),
				      0);
		CU_ASSERT_EQUAL_FATAL(ts_names_read_list(&listed, symbols[s - 1]), 0);
		ts_names_add(&listed, "cudastub_nvml_info");
		ts_names_add(&listed, "cudastub_nvml_load");
		TS_EXPECT_SAME_NAMES(&listed, &exported, "nvml stub exports");
		/* NVML has no symbol versions: neither has its stub */
		CU_ASSERT_EQUAL(unversioned, (int)exported.count);
		for (size_t r = 0; r < 2; r++) {
			CU_ASSERT_EQUAL_FATAL(ts_names_read_list(&want, real[r]), 0);
			CU_ASSERT_TRUE(want.count > 300);
			for (size_t i = 0; i < want.count; i++) {
				char msg[256];

				if (ts_names_has(&exported, want.names[i]))
					continue;
				missing++;
				/* the 12 record's stub has every one */
				snprintf(msg, sizeof msg, "%s exports %s, the %s does not",
					 r ? "550" : "535", want.names[i], stubs[s].what);
				if (stubs[s].abi == 12)
					CU_assertImplementation(0, __LINE__, msg, __FILE__, "",
								CU_FALSE);
			}
			ts_names_free(&want);
		}
		printf("  %s: %zu exports; of the 535 and 550 libraries' names, %zu missing\n",
		       stubs[s].what, exported.count, missing);
		ts_names_free(&exported);
		ts_names_free(&listed);
	}
}

TS_TEST(test_exports, "exports: the list, every real export");

/* Every call through each stub on each driver, against the direct calls. */
static void test_real(void)
{
	static const char *const same[] = {
		"nvml_version_rc", "nvml_version",  "driver_version_rc",  "driver_version",
		"cuda_version_rc", "cuda_version",  "cuda_version2_rc",	  "cuda_version2",
		"count_rc",	   "count",	    "shutdown_before_rc", "init_v2_rc",
		"init_rc",	   "init_flags_rc", "count_after_rc",	  "count_after",
		"shutdown_rc",
	};

	for (size_t d = 0; d < DRIVERS; d++) {
		char dir[PATH_MAX], real[PATH_MAX + 32], override[PATH_MAX + 64];
		const char *env[] = {override, NULL};

		if (!driver_dir(&drivers[d], dir, sizeof dir))
			continue;
		snprintf(real, sizeof real, "%s/libnvidia-ml.so.1", dir);
		if (ts_real_run("calls", "NV_OPEN", real, NULL, &ts_direct))
			continue;
		/* what NVML answers on a machine without a GPU or kernel module */
		CU_ASSERT_EQUAL(ts_number(&ts_direct, "nvml_version_rc"), NV_SUCCESS);
		CU_ASSERT_STRING_EQUAL(ts_text(&ts_direct, "nvml_version"), drivers[d].version);
		CU_ASSERT_EQUAL(ts_number(&ts_direct, "count_rc"), NV_UNINITIALIZED);
		CU_ASSERT_EQUAL(ts_number(&ts_direct, "init_v2_rc"), NV_DRIVER_NOT_LOADED);
		CU_ASSERT_STRING_EQUAL(ts_text(&ts_direct, "es_12"),
				       "NVML Shared Library Not Found");
		for (size_t s = 0; s < STUBS; s++) {
			if (stub_missing(&stubs[s]))
				continue;
			snprintf(override, sizeof override, "CUDASTUB_NVML_PATH=%s", real);
			if (ts_real_run("calls", "NV_OPEN", stubs[s].path, env, &ts_through))
				continue;
			for (size_t k = 0; k < sizeof same / sizeof *same; k++)
				TS_REAL_SAME(same[k]);
			expect_every_string_same();
			expect_gated(&stubs[s], d);
			CU_ASSERT_EQUAL(ts_number(&ts_through, "state"), CUDASTUB_STATE_LOADED);
			CU_ASSERT_EQUAL(ts_number(&ts_through, "major"), 12);
			CU_ASSERT_STRING_EQUAL(ts_text(&ts_through, "own"), drivers[d].own);
			printf("  %s, %s: NVML %s, nvmlInit_v2 %ld, nvmlDeviceGetCount_v2 %ld, "
			       "%d error strings, the same both ways\n",
			       stubs[s].what, drivers[d].fixture,
			       ts_text(&ts_direct, "nvml_version"),
			       ts_number(&ts_direct, "init_v2_rc"),
			       ts_number(&ts_direct, "count_rc"),
			       LAST_CODE - FIRST_CODE + 1 +
				       (int)(sizeof error_codes / sizeof *error_codes));
		}
	}
}

TS_TEST(test_real, "535 and 550: every answer the same through the stub");

/* Found where the loader looks, and pinned by NVML's major. */
static void test_search(void)
{
	char dir[PATH_MAX], path[PATH_MAX + 32];
	const char *plain[] = {path, NULL}, *pin12[] = {path, "CUDASTUB_NVML_MAJOR=12", NULL},
		   *pin11[] = {path, "CUDASTUB_NVML_MAJOR=11", NULL};
	const struct stub *s = &stubs[1];

	if (stub_missing(s) || !driver_dir(&drivers[1], dir, sizeof dir))
		return;
	snprintf(path, sizeof path, "LD_LIBRARY_PATH=%s", dir);
	if (ts_real_run("calls", "NV_OPEN", s->path, plain, &ts_through) == 0) {
		CU_ASSERT_EQUAL(ts_number(&ts_through, "state"), CUDASTUB_STATE_LOADED);
		CU_ASSERT_EQUAL(ts_number(&ts_through, "source"), CUDASTUB_SOURCE_LOADER_SEARCH);
		CU_ASSERT_PTR_NOT_NULL(strstr(ts_text(&ts_through, "path"), "nvml-550"));
		CU_ASSERT_EQUAL(ts_number(&ts_through, "init_v2_rc"), NV_DRIVER_NOT_LOADED);
	}
	if (ts_real_run("calls", "NV_OPEN", s->path, pin12, &ts_through) == 0) {
		CU_ASSERT_EQUAL(ts_number(&ts_through, "state"), CUDASTUB_STATE_LOADED);
		CU_ASSERT_EQUAL(ts_number(&ts_through, "major"), 12);
	}
	/* NVML 12 is no NVML 11: turned down, and said so */
	if (ts_real_run("calls", "NV_OPEN", s->path, pin11, &ts_through) == 0) {
		CU_ASSERT_EQUAL(ts_number(&ts_through, "state"), CUDASTUB_STATE_NOT_FOUND);
		CU_ASSERT_EQUAL(ts_number(&ts_through, "init_v2_rc"), NV_LIBRARY_NOT_FOUND);
	}
}

TS_TEST(test_search, "found on the loader's path, pinned by major");

static void test_no_library(void)
{
	static const char *const refused[] = {
		"nvml_version_rc", "driver_version_rc",	 "cuda_version_rc", "cuda_version2_rc",
		"count_rc",	   "shutdown_before_rc", "init_v2_rc",	    "init_rc",
		"init_flags_rc",   "count_after_rc",	 "shutdown_rc",
	};
	const char *env[] = {"CUDASTUB_NVML_PATH=/nonexistent/cudastub-no-nvml", NULL};

	for (size_t s = 0; s < STUBS; s++) {
		if (stub_missing(&stubs[s]) ||
		    ts_real_run("calls", "NV_OPEN", stubs[s].path, env, &ts_through))
			continue;
		for (size_t k = 0; k < sizeof refused / sizeof *refused; k++)
			CU_ASSERT_EQUAL(ts_number(&ts_through, refused[k]), NV_LIBRARY_NOT_FOUND);
		/* the probes' outputs 0; a text output untouched */
		CU_ASSERT_EQUAL(ts_number(&ts_through, "cuda_version"), 0);
		CU_ASSERT_EQUAL(ts_number(&ts_through, "cuda_version2"), 0);
		CU_ASSERT_EQUAL(ts_number(&ts_through, "count"), 0);
		CU_ASSERT_EQUAL(ts_number(&ts_through, "count_after"), 0);
		CU_ASSERT_STRING_EQUAL(ts_text(&ts_through, "nvml_version"), "untouched");
		/* names from nvmlReturn_t; the stub's own code explained */
		CU_ASSERT_STRING_EQUAL(ts_text(&ts_through, "es_0"), "NVML_SUCCESS");
		CU_ASSERT_STRING_EQUAL(ts_text(&ts_through, "es_9"),
				       "NVML_ERROR_DRIVER_NOT_LOADED");
		CU_ASSERT_STRING_EQUAL(ts_text(&ts_through, "es_13"),
				       "NVML_ERROR_FUNCTION_NOT_FOUND");
		CU_ASSERT_STRING_EQUAL(ts_text(&ts_through, "es_999"), "NVML_ERROR_UNKNOWN");
		CU_ASSERT_PTR_NOT_NULL(strstr(ts_text(&ts_through, "es_12"), "CUDASTUB_NVML_PATH"));
		CU_ASSERT_PTR_NOT_NULL(
			strstr(ts_text(&ts_through, "es_12"), "/nonexistent/cudastub-no-nvml"));
		/* a code that is none still gets a string, never NULL */
		CU_ASSERT_STRING_NOT_EQUAL(ts_text(&ts_through, "es_12345"), "(null)");
		CU_ASSERT_EQUAL(ts_number(&ts_through, "state"), CUDASTUB_STATE_OVERRIDE_FAILED);
		CU_ASSERT_PTR_NOT_NULL(
			strstr(ts_text(&ts_through, "error"), "CUDASTUB_NVML_PATH="));
	}
}

TS_TEST(test_no_library, "no library: the codes, outputs 0, why");

TS_REAL_MAIN("nvml: real libraries", calls_child)

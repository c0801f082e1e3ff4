/*
 * Real cudart 11.8, 12.4 and 13.0 through the one stub. One CUnit suite per
 * selection (each runtime by CUDASTUB_CUDART_PATH and by
 * CUDASTUB_CUDART_MAJOR), the same tests in each:
 *
 *  - the stub loads the very file selected, and says so;
 *  - cudaRuntimeGetVersion, cudaDriverGetVersion, cudaGetDeviceCount (code
 *    and count), cudaMalloc, cudaPeekAtLastError and cudaGetLastError give
 *    what the same library gives called directly, both in the same process
 *    after the stub (RTLD_NOLOAD) and in a process the stub never touched;
 *    the same again when cudaGetLastError is the very first call;
 *  - cudaGetErrorName and cudaGetErrorString agree for every code.
 *
 * Without a driver on the machine, the values themselves are checked too:
 * 11.8 answers cudaRuntimeGetVersion with 35 (insufficient driver), 12.4
 * and 13.0 report their version, and every call that needs the driver
 * fails with 35, which cudaGetLastError then keeps returning.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "real_cudart.h"

static const struct ct_runtime *rt;
static int by_major;
static char label[64];

static int run(const char *scenario, int last_first, struct ts_child *child, char *file,
	       size_t size)
{
	struct ts_env env = {0};
	char dir11[PATH_MAX], dir12[PATH_MAX];
	const char *d11, *d12;

	if (!ct_runtime_file(rt, file, size))
		return 0;
	if (by_major) {
		/* both fixtures on the path: the pin must pick its own */
		d11 = ct_runtime_dir_if_present(&ct_runtimes[0], dir11, sizeof dir11);
		d12 = ct_runtime_dir_if_present(&ct_runtimes[1], dir12, sizeof dir12);
		ts_env_add(&env, "LD_LIBRARY_PATH=%s:%s", d11 ? d11 : "", d12 ? d12 : "");
		ts_env_add(&env, "CUDASTUB_CUDART_MAJOR=%d", rt->major);
	} else {
		ts_env_add(&env, "CUDASTUB_CUDART_PATH=%s", file);
	}
	ts_env_add(&env, RC_FILE_VAR "=%s", file);
	ts_env_add(&env, RC_LAST_FIRST_VAR "=%d", last_first);
	ts_env_add(&env, RC_ABI_VAR "=%s", ct_abi_record(rt->major));
	return ts_run_scenario(label, scenario, &env, child);
}

/* 1: the stub loaded the selected file, by the selected step. */
static void test_load(void)
{
	struct ts_child child;
	char file[PATH_MAX], real[PATH_MAX];
	long source;

	if (!run("calls", 0, &child, file, sizeof file))
		return;
	TS_EXPECT_INT(label, &child, "state_before", CUDASTUB_STATE_NOT_TRIED);
	TS_EXPECT_INT(label, &child, "info_state", CUDASTUB_STATE_LOADED);
	TS_EXPECT(label, &child, "info_version", rt->version);
	TS_EXPECT_INT(label, &child, "info_search_runs", 1);
	TS_EXPECT_INT(label, &child, "direct_already_loaded", 1);
	/* an override or a pin leaves the driver out of the choice */
	TS_EXPECT_INT(label, &child, "info_driver_version", 0);
	TS_EXPECT(label, &child, "info_choice", "(null)");
	source = ts_long(&child, "info_source");
	if (!by_major) {
		TS_EXPECT_INT(label, &child, "info_source", CUDASTUB_SOURCE_OVERRIDE);
		TS_EXPECT(label, &child, "info_path", file);
	} else if (rt->fixture) {
		TS_EXPECT_INT(label, &child, "info_source", CUDASTUB_SOURCE_LOADER_SEARCH);
	} else { /* 13: ld.so.cache, or the standard prefix */
		CU_ASSERT(source == CUDASTUB_SOURCE_LOADER_SEARCH ||
			  source == CUDASTUB_SOURCE_STANDARD_PREFIX);
	}
	CU_ASSERT_PTR_NOT_NULL_FATAL(realpath(file, real));
	TS_EXPECT(label, &child, "info_path_real", real);
}

static const char *const sequence_keys[] = {
	"rv_rc",      "rv",	"dv_rc",  "dv",	    "count_rc", "count", "malloc_rc",
	"malloc_ptr", "peek_1", "peek_2", "last_1", "last_2",	"peek_3"};

/* What a runtime gives without a driver, by the sequence's key. */
static long without_driver(const char *key)
{
	if (!strcmp(key, "rv_rc"))
		return rt->major == 11 ? cudaErrorInsufficientDriver : cudaSuccess;
	if (!strcmp(key, "rv"))
		return rt->major == 11 ? CT_UNTOUCHED : rt->number;
	if (!strcmp(key, "dv_rc") || !strcmp(key, "dv"))
		return 0;
	if (!strcmp(key, "count"))
		return CT_UNTOUCHED;
	return cudaErrorInsufficientDriver;
}

/* stub_<key> == direct_<key> == fresh_<key> for every key; without a
 * driver, also the value itself. */
static void expect_key(const struct ts_child *calls, const struct ts_child *fresh, const char *key,
		       int no_driver)
{
	char stub[64];

	TS_EXPECT_THREE_WAYS(label, calls, fresh, key);
	if (!no_driver)
		return;
	snprintf(stub, sizeof stub, "stub_%s", key);
	if (!strcmp(key, "malloc_ptr"))
		TS_EXPECT(label, calls, stub, "untouched");
	else
		TS_EXPECT_INT(label, calls, stub, without_driver(key));
}

static void check_sequence(int last_first)
{
	struct ts_child calls, fresh;
	char file[PATH_MAX];
	int no_driver = !ts_machine_has_driver();

	if (!run("calls", last_first, &calls, file, sizeof file) ||
	    !run("fresh", last_first, &fresh, file, sizeof file))
		return;
	TS_EXPECT_INT(label, &fresh, "stub_state", CUDASTUB_STATE_NOT_TRIED);
	for (size_t i = 0; i < sizeof sequence_keys / sizeof *sequence_keys; i++)
		expect_key(&calls, &fresh, sequence_keys[i], no_driver);
	if (last_first)
		expect_key(&calls, &fresh, "first_last", 0);
	if (last_first && no_driver)
		TS_EXPECT_INT(label, &calls, "stub_first_last", cudaErrorInsufficientDriver);
}

/* 2: the calls give what the library gives. */
static void test_sequence(void)
{
	check_sequence(0);
}

/* 3: the same when cudaGetLastError is the first call: the stub's load
 * (and its version probe) must not change what the program sees. */
static void test_last_error_first(void)
{
	check_sequence(1);
}

/* 4: cudaGetErrorName and cudaGetErrorString, every code. */
static void test_error_strings(void)
{
	struct ts_child child;
	char file[PATH_MAX];

	if (!run("errors", 0, &child, file, sizeof file))
		return;
	CU_ASSERT(ts_long(&child, "errors_checked") >= 1001 + 5);
	TS_EXPECT_INT(label, &child, "name_mismatches", 0);
	TS_EXPECT_INT(label, &child, "string_mismatches", 0);
	TS_EXPECT(label, &child, "first_mismatch", "none");
	/* the library names exactly the codes its headers' enum lists */
	TS_EXPECT_SAME(label, &child, "named", "enum_codes");
	TS_EXPECT_SAME(label, &child, "enum_named", "enum_codes");
	TS_EXPECT(label, &child, "name_34", "cudaErrorStubLibrary");
	TS_EXPECT(label, &child, "name_35", "cudaErrorInsufficientDriver");
	/* with a runtime loaded, 34 and the stub's own 35 are the runtime's to
	 * explain */
	TS_EXPECT_SAME(label, &child, "string_34", "direct_string_34");
	TS_EXPECT_SAME(label, &child, "string_35", "direct_string_35");
}

static void select_suite(int i)
{
	rt = &ct_runtimes[i / 2];
	by_major = i % 2;
	snprintf(label, sizeof label, "%s by %s", rt->version, by_major ? "major" : "path");
}

static const struct ts_test tests[] = {
	{"loads the selected file", test_load},
	{"versions, device count, cudaMalloc, last error match the library", test_sequence},
	{"the same with cudaGetLastError first", test_last_error_first},
	{"cudaGetErrorName and cudaGetErrorString match for every code", test_error_strings},
	{NULL, NULL},
};

static void suite_name(int i, char *buf, size_t size)
{
	snprintf(buf, size, "real cudart %s by %s", ct_runtimes[i / 2].version,
		 i % 2 ? "major" : "path");
}

static void register_suites(void)
{
	ts_add_selected_suites(2 * CT_RUNTIME_COUNT, suite_name, select_suite, tests);
}

int main(int argc, char **argv)
{
	return ts_main(argc, argv, rc_scenarios, register_suites);
}

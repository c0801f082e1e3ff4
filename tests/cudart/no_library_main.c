/*
 * The runtime stub without a runtime. One CUnit suite per stub ABI (the
 * build's, then the 12- and 11-ABI stubs of tests/abi_stubs.cmake) and per
 * way of finding nothing (CUDASTUB_CUDART_PATH=/nonexistent;
 * CUDASTUB_CUDART_MAJOR=11 on a machine without CUDA 11), the same tests in
 * each:
 *
 *  - every export returns without a crash, with the documented value;
 *  - the three probes set their outputs to 0 and return 35, what NVIDIA's
 *    runtime returns without a driver (CT_NO_RUNTIME);
 *  - cudaGetErrorName/String name every code of the build headers' enum,
 *    as the real runtime of that major does, when it is here to compare;
 *  - cudaGetErrorString(35) says none was found, how many files were tried and what to set, and
 *    cudaGetErrorString(34) is only a name;
 *  - cudaGetLastError and cudaPeekAtLastError keep returning 35;
 *  - under CUDASTUB_DEBUG=1 the log gives the code a function returns, and
 *    for cudaGetErrorString, which returns a text, no code.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "no_library.h"

#define ABSENT_MAJOR 11

static int abi, by_pin, debug;
static char label[64];

/* Runs scenario; 0 after a failure, or a SKIP when the stub or the
 * absent major is missing. */
static int run(const char *scenario, struct ts_child *child)
{
	const struct ct_runtime *rt = ct_runtime_of_major(abi);
	const char *stub = ct_abi_stub(abi);
	struct ts_env env = {0};
	char real[PATH_MAX], why[256];

	if (!stub) {
		snprintf(why, sizeof why,
			 "the %d-ABI runtime stub was not built; run tests/fixtures/fetch.sh "
			 "before configuring",
			 abi);
		ts_unavailable(why);
		return 0;
	}
	ts_env_add(&env, NL_STUB_VAR "=%s", stub);
	ts_env_add(&env, NL_SYMBOLS_VAR "=%s", ct_symbols_file(abi));
	ts_env_add(&env, NL_ABI_VAR "=%s", ct_abi_record(abi));
	if (rt && ct_runtime_file_if_present(rt, real, sizeof real))
		ts_env_add(&env, NL_REAL_VAR "=%s", real);
	if (debug)
		ts_env_add(&env, "CUDASTUB_DEBUG=1");
	if (by_pin)
		ts_env_add(&env, "CUDASTUB_CUDART_MAJOR=%d", ABSENT_MAJOR);
	else
		ts_env_add(&env, "CUDASTUB_CUDART_PATH=/nonexistent");
	if (!ts_run_scenario(label, scenario, &env, child))
		return 0;
	if (by_pin && ts_long(child, "info_state") == CUDASTUB_STATE_LOADED) {
		ts_unavailable("this machine has a CUDA 11 runtime; the pinned no-runtime "
			       "case needs a major it lacks");
		return 0;
	}
	return 1;
}

/* 1: every export, once. */
static void test_every_export(void)
{
	struct ts_child c;
	long exports;

	if (!run("every_export", &c))
		return;
	exports = ts_long(&c, "exports");
	CU_ASSERT(exports > 300);
	if (abi == 13)
		TS_EXPECT_INT(label, &c, "exports", 422);
	TS_EXPECT_INT(label, &c, "missing", 0);
	TS_EXPECT_INT(label, &c, "called", exports);
	TS_EXPECT_INT(label, &c, "wrong", 0);
	TS_EXPECT(label, &c, "first_wrong", "none");
	CU_ASSERT_EQUAL(ts_long(&c, "error_codes") + ts_long(&c, "voids") +
				ts_long(&c, "pointers") + ts_long(&c, "values") +
				ts_long(&c, "opaque"),
			exports);
	if (abi == 13)
		TS_EXPECT_INT(label, &c, "opaque", 3);
}

/* 2: the probes answer 0 and 35; the stub says why. */
static void test_probes(void)
{
	static const char *const keys[] = {"count", "rv", "dv"};
	struct ts_child c;
	char key[32];

	if (!run("probes", &c))
		return;
	for (int i = 0; i < 3; i++) {
		snprintf(key, sizeof key, "%s_rc", keys[i]);
		TS_EXPECT_INT(label, &c, key, CT_NO_RUNTIME);
		TS_EXPECT_INT(label, &c, keys[i], 0);
		snprintf(key, sizeof key, "%s_null_rc", keys[i]);
		TS_EXPECT_INT(label, &c, key, CT_NO_RUNTIME);
	}
	TS_EXPECT_INT(label, &c, "info_state",
		      by_pin ? CUDASTUB_STATE_NOT_FOUND : CUDASTUB_STATE_OVERRIDE_FAILED);
	TS_EXPECT(label, &c, "info_path", "(null)");
	TS_EXPECT_INT(label, &c, "info_search_runs", 1);
	if (!by_pin)
		TS_EXPECT_HAS(label, &c, "info_error", "/nonexistent");
}

/* 3: names from the enum; the same as the real runtime's. */
static void test_error_names(void)
{
	struct ts_child c;

	if (!run("errors", &c))
		return;
	CU_ASSERT(ts_long(&c, "enum_codes") > 100);
	TS_EXPECT_INT(label, &c, "name_wrong", 0);
	TS_EXPECT_INT(label, &c, "string_wrong", 0);
	TS_EXPECT(label, &c, "first_wrong", "none");
	TS_EXPECT_INT(label, &c, "unknown_wrong", 0);
	TS_EXPECT(label, &c, "name_no_runtime", "cudaErrorInsufficientDriver");
	if (ts_long(&c, "real_opened") != 1) {
		printf("SKIP: [%s] no real runtime of this major to compare names with\n", label);
		return;
	}
	CU_ASSERT(ts_long(&c, "real_checked") > 1001);
	TS_EXPECT_INT(label, &c, "real_name_mismatches", 0);
	TS_EXPECT(label, &c, "real_first_mismatch", "none");
}

/* 4: cudaGetErrorString(35) says none was found, how many files were tried and what to set; 34,
 * NVIDIA's link-time stub's code, is only a name. */
static void test_stub_error_string(void)
{
	struct ts_child c;

	if (!run("errors", &c))
		return;
	TS_EXPECT_HAS(label, &c, "string_no_runtime", "CUDASTUB_CUDART_PATH");
	TS_EXPECT_HAS(label, &c, "string_no_runtime", " tried)");
	if (by_pin)
		TS_EXPECT_HAS(label, &c, "string_no_runtime", "(CUDASTUB_CUDART_MAJOR=11)");
	else
		TS_EXPECT_HAS(label, &c, "string_no_runtime", "/nonexistent");
	TS_EXPECT(label, &c, "string_34", "cudaErrorStubLibrary");
}

/* 5: the stub's error is sticky, like the runtime's failed start. */
static void test_sticky(void)
{
	static const char *const keys[] = {"last_1", "last_2",	  "peek_1", "last_3",
					   "peek_2", "malloc_rc", "last_4", "peek_3"};
	struct ts_child c;

	if (!run("sticky", &c))
		return;
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
		TS_EXPECT_INT(label, &c, keys[i], CT_NO_RUNTIME);
	TS_EXPECT(label, &c, "malloc_ptr", "untouched");
}

/* 6: the debug log says what each call answers: a code for a function
 * that returns one, and for a text or a probe's zeroed outputs what they
 * are (its typed fallback's own account), never "returns 35" for a text. */
static void test_debug_log(void)
{
	struct ts_child sticky, errors, probes;
	int ran;

	debug = 1;
	ran = run("sticky", &sticky) && run("errors", &errors) && run("probes", &probes);
	debug = 0;
	if (!ran)
		return;
	CU_ASSERT_PTR_NOT_NULL(strstr(sticky.err, "cudaGetLastError: no library\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(sticky.err, "cudaGetLastError: returns 35\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(errors.err,
				      "cudaGetErrorString: returns the failed search's one "
				      "line for the stub's own code, else the code's name\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(errors.err,
				      "cudaGetErrorName: returns the code's name in "
				      "the stub's record, or \"unrecognized error code\"\n"));
	CU_ASSERT_PTR_NULL(strstr(errors.err, "cudaGetErrorString: returns 3"));
	CU_ASSERT_PTR_NOT_NULL(
		strstr(probes.err, "cudaGetDeviceCount: sets its output to 0 and returns 35\n"));
	CU_ASSERT_PTR_NOT_NULL(
		strstr(probes.err, "cudaDriverGetVersion: sets its output to 0 and returns 35\n"));
	CU_ASSERT_PTR_NULL(strstr(probes.err, "answered by the stub's own fallback"));
}

static const int abis[] = {CT_ABI_MAJOR, 12, 11};
enum { ABIS = sizeof abis / sizeof *abis };

static void select_suite(int i)
{
	abi = abis[i / 2];
	by_pin = i % 2;
	snprintf(label, sizeof label, "%d-ABI stub, %s", abi,
		 by_pin ? "pin 11" : "path /nonexistent");
}

static const struct ts_test tests[] = {
	{"every export returns, with the documented value", test_every_export},
	{"the probes set 0 and return 35", test_probes},
	{"error names for every code of the enum", test_error_names},
	{"cudaGetErrorString(35) says none was found, in one line", test_stub_error_string},
	{"cudaGetLastError and cudaPeekAtLastError stay 35", test_sticky},
	{"the debug log says what each call answers", test_debug_log},
	{NULL, NULL},
};

static void suite_name(int i, char *buf, size_t size)
{
	buf[0] = '\0';
	if (i >= 2 && abis[i / 2] == CT_ABI_MAJOR)
		return; /* a build for 12 or 11: its own ABI is the build's stub */
	/* Under valgrind, where each child takes a second or more, the pin's
	 * way of finding nothing on the build's stub alone: it differs from
	 * the path's only in the search, which is the same code in every ABI's
	 * stub. */
	if (i % 2 && abis[i / 2] != CT_ABI_MAJOR && ts_under_valgrind())
		return;
	snprintf(buf, size, "cudart without a runtime: %d-ABI stub, %s", abis[i / 2],
		 i % 2 ? "pin 11" : "path /nonexistent");
}

static void register_suites(void)
{
	ts_add_selected_suites(2 * ABIS, suite_name, select_suite, tests);
}

int main(int argc, char **argv)
{
	return ts_main(argc, argv, nl_scenarios, register_suites);
}

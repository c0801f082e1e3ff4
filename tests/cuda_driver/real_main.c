/*
 * Debian's real driver 550 through the stub and through the shim, each
 * selected by CUDASTUB_CUDA_PATH and found by LD_LIBRARY_PATH: one CUnit
 * suite per way, the same tests in each:
 *
 *  - the stub loads the fixture's very file, and says so (12.4);
 *  - cuDriverGetVersion gives 12040; cuInit(0) and then cuDeviceGetCount
 *    (code and count) give what the driver gives called directly, both
 *    after the stub in the same process and in a process the stub never
 *    touched (without a GPU: cuInit 100, then cuDeviceGetCount 3 with the
 *    count left alone);
 *  - cuGetErrorName and cuGetErrorString agree for every code;
 *  - cuGetProcAddress and cuGetProcAddress_v2 hand out the driver's own
 *    pointers for a few names and versions;
 *  - the 13.0-only cuCtxCreate_v4 and cuLogsCurrent, and every other name
 *    of cuda.symbols the driver does not export (nm -D), return
 *    CUDA_ERROR_NOT_FOUND (500) when called with zero arguments.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "real_driver.h"

/* The ways to find the driver, in the order of the suites. */
enum { BY_PATH_VAR, BY_LIBRARY_PATH };
static const char *const ways[] = {"CUDASTUB_CUDA_PATH", "LD_LIBRARY_PATH", NULL};
/* the selection's label, for messages */
static const char *const label = cd_selected.label;
static const char *pin; /* CUDASTUB_CUDA_MAJOR for the next run, or NULL */

static int run(const char *scenario, struct ts_child *c, char *file, size_t size)
{
	struct ts_env env = {0};
	char dir[PATH_MAX];

	if (!cd_lib_path(cd_selected.lib) || !cd_driver_file(file, size) ||
	    !ts_driver_dir(dir, sizeof dir))
		return 0;
	if (cd_selected.way == BY_PATH_VAR)
		ts_env_add(&env, "CUDASTUB_CUDA_PATH=%s", file);
	else
		ts_env_add(&env, "LD_LIBRARY_PATH=%s", dir);
	if (pin)
		ts_env_add(&env, "CUDASTUB_CUDA_MAJOR=%s", pin);
	ts_env_add(&env, CD_LIB_VAR "=%s", cd_selected.lib->path);
	ts_env_add(&env, CD_DRIVER_VAR "=%s", file);
	ts_env_add(&env, CD_SYMBOLS_VAR "=%s", cd_symbols_file());
	ts_env_add(&env, CD_ABI_VAR "=%s", cd_abi_record());
	return ts_run_scenario(label, scenario, &env, c);
}

static void test_load(void)
{
	struct ts_child c;
	char file[PATH_MAX], real[PATH_MAX];

	if (!run("calls", &c, file, sizeof file))
		return;
	TS_EXPECT_INT(label, &c, "load", CUDASTUB_STATE_LOADED);
	TS_EXPECT(label, &c, "info_version", "12.4");
	TS_EXPECT_INT(label, &c, "info_search_runs", 1);
	TS_EXPECT_INT(label, &c, "direct_already_loaded", 1);
	TS_EXPECT_INT(label, &c, "info_source",
		      cd_selected.way == BY_PATH_VAR ? CUDASTUB_SOURCE_OVERRIDE
						     : CUDASTUB_SOURCE_LOADER_SEARCH);
	if (cd_selected.way == BY_PATH_VAR)
		TS_EXPECT(label, &c, "info_path", file);
	CU_ASSERT_PTR_NOT_NULL_FATAL(realpath(file, real));
	TS_EXPECT(label, &c, "info_path_real", real);
}

/* The driver's major is the CUDA version it supports (12 for 550): a pin
 * of 12 takes it, one of 13 turns it down by its version, and an empty pin
 * is no pin (nor named in the error text). */
static void test_pin(void)
{
	char file[PATH_MAX], reason[128];
	struct ts_child c;

	pin = "12";
	if (!run("search", &c, file, sizeof file))
		goto done;
	TS_EXPECT_INT(label, &c, "load", CUDASTUB_STATE_LOADED);
	TS_EXPECT(label, &c, "info_version", "12.4");
	pin = "13";
	if (!run("search", &c, file, sizeof file))
		goto done;
	TS_EXPECT_INT(label, &c, "load",
		      cd_selected.way == BY_PATH_VAR ? CUDASTUB_STATE_OVERRIDE_FAILED
						     : CUDASTUB_STATE_NOT_FOUND);
	snprintf(reason, sizeof reason, "skipped: version 12.4, but CUDASTUB_CUDA_MAJOR=13");
	/* the skip is an attempt; the error string, one line, names the pin */
	CU_ASSERT(ts_attempts_with(&c, "", reason) >= 1);
	TS_EXPECT_HAS(label, &c, "stub_library_string", "(CUDASTUB_CUDA_MAJOR=13)");
	CU_ASSERT(strlen(ts_value(&c, "stub_library_string") ? ts_value(&c, "stub_library_string")
							     : "") <= 220);
	pin = "";
	if (!run("search", &c, file, sizeof file))
		goto done;
	TS_EXPECT_INT(label, &c, "load", CUDASTUB_STATE_LOADED);
done:
	pin = NULL;
}

static void test_probes(void)
{
	static const char *const keys[] = {"dv_rc", "dv", "init", "count_rc", "count"};
	struct ts_child calls, fresh;
	char file[PATH_MAX];

	if (!run("calls", &calls, file, sizeof file) || !run("fresh", &fresh, file, sizeof file))
		return;
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
		TS_EXPECT_THREE_WAYS(label, &calls, &fresh, keys[i]);
	TS_EXPECT_INT(label, &calls, "stub_dv_rc", CD_SUCCESS);
	TS_EXPECT_INT(label, &calls, "stub_dv", 12040);
	if (ts_machine_has_driver())
		return; /* the GPU answers, whatever it is */
	TS_EXPECT_INT(label, &calls, "stub_init", CD_NO_DEVICE);
	printf("  [%s] no GPU: cuInit %ld, then cuDeviceGetCount %ld (count %ld)\n", label,
	       ts_long(&calls, "stub_init"), ts_long(&calls, "stub_count_rc"),
	       ts_long(&calls, "stub_count"));
}

static void test_error_strings(void)
{
	struct ts_child c;
	char file[PATH_MAX];

	if (!run("errors", &c, file, sizeof file))
		return;
	CU_ASSERT(ts_long(&c, "errors_checked") >= 1001 + 5 + ts_long(&c, "enum_codes"));
	CU_ASSERT(ts_long(&c, "enum_codes") > 90);
	CU_ASSERT(ts_long(&c, "named") > 90); /* the driver names most of them */
	TS_EXPECT_INT(label, &c, "name_mismatches", 0);
	TS_EXPECT_INT(label, &c, "string_mismatches", 0);
	TS_EXPECT(label, &c, "first_mismatch", "none");
	TS_EXPECT(label, &c, "name_34", "CUDA_ERROR_STUB_LIBRARY");
}

/* The stub's answer is the driver's: code, pointer (never a wrapper of
 * the stub), and for _v2 the query result; found: the driver has it. */
static void expect_get_proc(const struct ts_child *c, const char *symbol, int version, int found)
{
	static const char *const kinds[] = {"gpa", "gpa2"};
	char prefix[128], a[160], b[160];

	for (int k = 0; k < 2; k++) {
		snprintf(prefix, sizeof prefix, "%s_%s_%d", kinds[k], symbol, version);
		snprintf(a, sizeof a, "%s_rc", prefix);
		snprintf(b, sizeof b, "%s_direct_rc", prefix);
		TS_EXPECT_SAME(label, c, a, b);
		snprintf(a, sizeof a, "%s_same", prefix);
		TS_EXPECT_INT(label, c, a, 1);
		snprintf(a, sizeof a, "%s_wrapper", prefix);
		TS_EXPECT_INT(label, c, a, 0);
		snprintf(a, sizeof a, "%s_null", prefix);
		TS_EXPECT_INT(label, c, a, !found);
		if (found) {
			snprintf(a, sizeof a, "%s_rc", prefix);
			TS_EXPECT_INT(label, c, a, CD_SUCCESS);
		}
		if (k == 1) {
			snprintf(a, sizeof a, "%s_status", prefix);
			snprintf(b, sizeof b, "%s_direct_status", prefix);
			TS_EXPECT_SAME(label, c, a, b);
		}
	}
}

static void test_get_proc_address(void)
{
	struct ts_child c;
	char file[PATH_MAX];

	if (!run("calls", &c, file, sizeof file))
		return;
	TS_EXPECT_INT(label, &c, "gpa_asked", 11);
	expect_get_proc(&c, "cuMemAlloc", 3010, 1);
	expect_get_proc(&c, "cuMemAlloc", 11000, 1);
	expect_get_proc(&c, "cuMemAlloc", 12000, 1);
	expect_get_proc(&c, "cuCtxCreate", 11000, 1);
	expect_get_proc(&c, "cuCtxCreate", 12000, 1);
	expect_get_proc(&c, "cuInit", 12000, 1);
	expect_get_proc(&c, "cuGetProcAddress", 12000, 1);
	expect_get_proc(&c, "cuDriverGetVersion", 12040, 1);
	expect_get_proc(&c, "cuCtxCreate", 13000, 1);
	expect_get_proc(&c, "cuLogsCurrent", 12080, 0);
	expect_get_proc(&c, "cuNoSuchFunction", 12000, 0);
}

static void test_13_only(void)
{
	struct ts_child c;
	char file[PATH_MAX];

	if (!run("calls", &c, file, sizeof file))
		return;
	TS_EXPECT_INT(label, &c, "direct_has_cuCtxCreate_v4", 0);
	TS_EXPECT_INT(label, &c, "direct_has_cuLogsCurrent", 0);
#if CD_BUILD_ABI >= 13
	TS_EXPECT_INT(label, &c, "cuCtxCreate_v4_rc", CD_NOT_FOUND);
	TS_EXPECT_INT(label, &c, "cuLogsCurrent_rc", CD_NOT_FOUND);
#else
	/* a stub of an older ABI does not export them (-1: no such export) */
	TS_EXPECT_INT(label, &c, "cuCtxCreate_v4_rc", -1);
	TS_EXPECT_INT(label, &c, "cuLogsCurrent_rc", -1);
#endif
}

static void test_missing_names(void)
{
	static int listed; /* the names once, not in every suite */
	struct ts_child c;
	char file[PATH_MAX];
	const char *names;

	if (!run("missing", &c, file, sizeof file))
		return;
	CU_ASSERT(ts_long(&c, "missing") > 0);
	TS_EXPECT_INT(label, &c, "driver_verdef", 0); /* the driver has no symbol versions */
	TS_EXPECT_INT(label, &c, "missing_not_cuResult", 0);
	TS_EXPECT_INT(label, &c, "missing_found_by_dlsym", 0);
	TS_EXPECT_INT(label, &c, "missing_wrong", 0);
	TS_EXPECT(label, &c, "missing_first_wrong", "none");
	TS_EXPECT_SAME(label, &c, "missing_not_found", "missing");
#if CD_BUILD_ABI >= 13 /* the 13.0-only names, in a stub that has them */
	TS_EXPECT_HAS(label, &c, "missing_names", "cuCtxCreate_v4");
	TS_EXPECT_HAS(label, &c, "missing_names", "cuLogsCurrent");
#endif
	printf("  [%s] %ld of the stub's %ld exported names are not in driver 550 (which "
	       "exports %ld): each returned %ld\n",
	       label, ts_long(&c, "missing"), ts_long(&c, "stub_exports"),
	       ts_long(&c, "driver_exports"), ts_long(&c, "missing_not_found") ? 500L : 0L);
	names = ts_value(&c, "missing_names");
	if (!listed++)
		printf("    %s\n", names ? names : "(none)");
}

static const struct ts_test tests[] = {
	{"loads the fixture's driver 550 (12.4)", test_load},
	{"cuDriverGetVersion, cuInit, cuDeviceGetCount match the driver", test_probes},
	{"cuGetErrorName and cuGetErrorString match for every code", test_error_strings},
	{"cuGetProcAddress and _v2 hand out the driver's own pointers", test_get_proc_address},
	{"13.0-only entry points: CUDA_ERROR_NOT_FOUND", test_13_only},
	{"every name the driver lacks: CUDA_ERROR_NOT_FOUND", test_missing_names},
	{"CUDASTUB_CUDA_MAJOR: 12 takes it, 13 does not, empty is no pin", test_pin},
	{NULL, NULL},
};

int main(int argc, char **argv)
{
	return cd_main(argc, argv, rd_scenarios, "real driver 550", ways, tests);
}

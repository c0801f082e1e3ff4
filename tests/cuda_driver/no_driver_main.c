/*
 * The driver stub without a driver, the stub and the shim each two ways:
 * CUDASTUB_CUDA_PATH=/nonexistent (the override fails, nothing else is
 * tried), and a search that finds nothing (skipped on a machine that has
 * a driver). The contract:
 *
 *  - every export (cuda.symbols), called once with zero arguments, returns
 *    without a crash: CUDA_ERROR_NO_DEVICE (100, what NVIDIA's driver says
 *    with no device: CD_NO_DRIVER), and the two error
 *    functions, whose out-parameter is then NULL, CUDA_ERROR_INVALID_VALUE;
 *  - cuDriverGetVersion and cuDeviceGetCount return 100 and set their
 *    outputs to 0;
 *  - cuGetErrorName and cuGetErrorString answer for every CUresult of the
 *    build headers (the name, as the string too), CUDA_ERROR_INVALID_VALUE
 *    and NULL for unknown codes, and cuGetErrorString(100) says what was
 *    searched and names CUDASTUB_CUDA_PATH.
 */
#define _GNU_SOURCE
#include <stdio.h>

#include "no_driver.h"

/* The ways the driver is missing, in the order of the suites. */
enum { BY_PATH_VAR, BY_SEARCH };
static const char *const ways[] = {"CUDASTUB_CUDA_PATH=/nonexistent", "nothing found", NULL};
/* the selection's label, for messages */
static const char *const label = cd_selected.label;

static int run(const char *scenario, struct ts_child *c)
{
	struct ts_env env = {0};

	if (!cd_lib_path(cd_selected.lib))
		return 0;
	if (cd_selected.way == BY_SEARCH && ts_machine_has_driver()) {
		ts_unavailable("this machine has a driver (libcuda.so.1): a search finds it");
		return 0;
	}
	ts_env_add(&env, CD_LIB_VAR "=%s", cd_selected.lib->path);
	ts_env_add(&env, CD_SYMBOLS_VAR "=%s", cd_symbols_file());
	ts_env_add(&env, CD_ABI_VAR "=%s", cd_abi_record());
	if (cd_selected.way == BY_PATH_VAR)
		ts_env_add(&env, "CUDASTUB_CUDA_PATH=/nonexistent");
	return ts_run_scenario(label, scenario, &env, c);
}

static void test_every_export(void)
{
	struct ts_child c;

	if (!run("every_export", &c))
		return;
	TS_EXPECT_INT(label, &c, "missing", 0);
	TS_EXPECT_INT(label, &c, "not_cuResult", 0);
	TS_EXPECT_SAME(label, &c, "called", "exports");
	CU_ASSERT(ts_long(&c, "called") > 500);
	TS_EXPECT_INT(label, &c, "wrong", 0);
	TS_EXPECT(label, &c, "first_wrong", "none");
}

static void test_probes(void)
{
	struct ts_child c;

	if (!run("probes", &c))
		return;
	TS_EXPECT_INT(label, &c, "dv_rc", CD_NO_DRIVER);
	TS_EXPECT_INT(label, &c, "dv", 0);
	TS_EXPECT_INT(label, &c, "dv_null_rc", CD_NO_DRIVER);
	TS_EXPECT_INT(label, &c, "count_rc", CD_NO_DRIVER);
	TS_EXPECT_INT(label, &c, "count", 0);
	TS_EXPECT_INT(label, &c, "count_null_rc", CD_NO_DRIVER);
	TS_EXPECT_INT(label, &c, "load",
		      cd_selected.way == BY_SEARCH ? CUDASTUB_STATE_NOT_FOUND
						   : CUDASTUB_STATE_OVERRIDE_FAILED);
	TS_EXPECT_INT(label, &c, "info_search_runs", 1);
	TS_EXPECT(label, &c, "info_path", "(null)");
	TS_EXPECT(label, &c, "info_version", "0.0");
	if (cd_selected.way == BY_SEARCH) {
		TS_EXPECT_HAS(label, &c, "info_error", "libcuda");
	} else {
		TS_EXPECT_HAS(label, &c, "info_error", "CUDASTUB_CUDA_PATH=/nonexistent");
		TS_EXPECT_INT(label, &c, "attempt_count", 1);
		TS_EXPECT_HAS(label, &c, "attempt_0", "override /nonexistent: ");
	}
}

static void test_errors(void)
{
	struct ts_child c;

	if (!run("errors", &c))
		return;
	CU_ASSERT(ts_long(&c, "enum_codes") > 90);
	TS_EXPECT_INT(label, &c, "name_wrong", 0);
	TS_EXPECT_INT(label, &c, "string_wrong", 0);
	TS_EXPECT(label, &c, "first_wrong", "none");
	TS_EXPECT_INT(label, &c, "unknown_wrong", 0);
	TS_EXPECT_INT(label, &c, "name_no_driver_rc", CD_SUCCESS);
	TS_EXPECT(label, &c, "name_no_driver", "CUDA_ERROR_NO_DEVICE");
	TS_EXPECT_INT(label, &c, "string_no_driver_rc", CD_SUCCESS);
	TS_EXPECT_INT(label, &c, "string_no_driver_null_rc", CD_INVALID_VALUE);
	/* none found, how many tried, and what to set */
	TS_EXPECT_HAS(label, &c, "string_no_driver", "CUDASTUB_CUDA_PATH");
	TS_EXPECT_HAS(label, &c, "string_no_driver", " tried)");
	TS_EXPECT_HAS(label, &c, "string_no_driver", "`cudastub info cuda`");
	/* the link-time stub's code is only a name */
	TS_EXPECT(label, &c, "string_34", "CUDA_ERROR_STUB_LIBRARY");
}

static const struct ts_test tests[] = {
	{"every export, zero arguments: 100, no crash", test_every_export},
	{"cuDriverGetVersion and cuDeviceGetCount: 100, outputs 0", test_probes},
	{"cuGetErrorName and cuGetErrorString for every code", test_errors},
	{NULL, NULL},
};

int main(int argc, char **argv)
{
	return cd_main(argc, argv, nd_scenarios, "no driver", ways, tests);
}

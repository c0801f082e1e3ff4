/*
 * The driver-aware choice of major, with Debian's real libcuda.so.1 (550,
 * CUDA 12.4) from the driver-550 fixture, the 12.4 runtime fixture and the
 * toolkit's 13.0 runtime.
 *
 * The 13.0 runtime is always findable in step 4 (CUDA_HOME), before the
 * loader's search (step 5) that finds 12.4 on LD_LIBRARY_PATH:
 *  - driver 12.4 on the path: 12.4 is chosen, and info says why (the
 *    driver's version read from its file's name, the driver not loaded);
 *  - no driver, or NVIDIA's link-time stub (or cudastub's driver shim with
 *    no driver behind it) as
 *    libcuda.so.1 (before the real one): 13.0;
 *  - a driver but no runtime it supports: 13.0 all the same (it answers
 *    35, which is more than no runtime at all);
 *  - a pin or an override wins over the driver's preference.
 * The child makes the stub load, then prints its info, and what the
 * runtime answers through the stub.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart_test.h"
#include "ts_files.h"

/* ---- the child ---- */

static int scenario_choice(void)
{
	int count = CT_UNTOUCHED, version = CT_UNTOUCHED;
	cudaError_t rc;

	printf("load=%d\n", (int)cudastub_cudart_load());
	ts_print_info(cudastub_cudart_info());
	rc = cudaRuntimeGetVersion(&version);
	printf("rv_rc=%d\nrv=%d\n", (int)rc, version);
	rc = cudaGetDeviceCount(&count);
	printf("count_rc=%d\n", (int)rc);
	return 0;
}

static const struct ts_scenario scenarios[] = {{"choice", scenario_choice}, {NULL, NULL}};

/* ---- the parent ---- */

/* What a case needs; empty when a fixture is missing (reported). */
struct places {
	char driver[PATH_MAX], rt11[PATH_MAX], rt12[PATH_MAX], rt13[PATH_MAX];
	char toolkit[PATH_MAX]; /* CUDA_HOME for the 13.0 runtime */
	int have11;
};

static int find_places(struct places *p)
{
	char *lib;

	memset(p, 0, sizeof *p);
	if (!ts_driver_dir(p->driver, sizeof p->driver) ||
	    !ct_runtime_dir(&ct_runtimes[1], p->rt12, sizeof p->rt12) ||
	    !ct_runtime_file(&ct_runtimes[2], p->rt13, sizeof p->rt13))
		return 0;
	p->have11 = ct_runtime_dir_if_present(&ct_runtimes[0], p->rt11, sizeof p->rt11) != NULL;
	/* <root>/lib64/libcudart.so.13 -> <root> */
	snprintf(p->toolkit, sizeof p->toolkit, "%s", p->rt13);
	for (int i = 0; i < 2 && (lib = strrchr(p->toolkit, '/')); i++)
		*lib = '\0';
	return 1;
}

static int choose(const char *label, const struct ts_env *env, struct ts_child *child)
{
	if (!ts_run_scenario(label, "choice", env, child))
		return 0;
	TS_EXPECT_INT(label, child, "load", CUDASTUB_STATE_LOADED);
	return 1;
}

static void expect_13(const char *label, const struct ts_child *c, const struct places *p)
{
	char want[PATH_MAX], got[PATH_MAX];
	const char *path;

	TS_EXPECT(label, c, "info_version", "13.0");
	TS_EXPECT_INT(label, c, "rv", 13000);
	path = ts_value(c, "info_path"); /* a static buffer: read it last */
	/* the very file, whichever link to it the step named */
	CU_ASSERT_PTR_NOT_NULL_FATAL(realpath(p->rt13, want));
	CU_ASSERT_STRING_EQUAL(path && realpath(path, got) ? got : "(no path)", want);
}

/* A 12.4 driver, runtimes 11.8 (when fetched), 12.4 and 13.0: 12.4. */
static void test_driver_picks_12(void)
{
	const char *label = "driver 12.4, runtimes 12.4 and 13.0";
	struct ts_env env = {0};
	struct ts_child c;
	struct places p;
	char want[PATH_MAX + 32];

	if (!find_places(&p))
		return;
	ts_env_add(&env, "LD_LIBRARY_PATH=%s:%s:%s", p.driver, p.have11 ? p.rt11 : "", p.rt12);
	ts_env_add(&env, "CUDA_HOME=%s", p.toolkit);
	if (!choose(label, &env, &c))
		return;
	TS_EXPECT(label, &c, "info_version", "12.4");
	TS_EXPECT_INT(label, &c, "info_source", CUDASTUB_SOURCE_LOADER_SEARCH);
	snprintf(want, sizeof want, "%s/libcudart.so.12", p.rt12);
	TS_EXPECT(label, &c, "info_path", want);
	TS_EXPECT_INT(label, &c, "info_driver_version", 12040);
	TS_EXPECT_HAS(label, &c, "info_choice", "12.4");
	/* read from the driver file's name, as every stub reads it: the
	 * runtime loads the driver itself when it needs it */
	TS_EXPECT_HAS(label, &c, "info_choice", "by its file's name, not loaded");
	TS_EXPECT_INT(label, &c, "rv", 12040);
	/* the runtime reached the driver: no device, not "driver too old" */
	if (!ts_machine_has_driver())
		TS_EXPECT_INT(label, &c, "count_rc", cudaErrorNoDevice);
}

/* No driver: the newest runtime, from CUDA_HOME. */
static void test_no_driver_picks_13(void)
{
	const char *label = "no driver, runtimes 12.4 and 13.0";
	struct ts_env env = {0};
	struct ts_child c;
	struct places p;

	if (!find_places(&p))
		return;
	if (ts_machine_has_driver()) {
		ts_unavailable("this machine has a driver (libcuda.so.1); the no-driver case "
			       "needs a machine without one");
		return;
	}
	ts_env_add(&env, "LD_LIBRARY_PATH=%s", p.rt12);
	ts_env_add(&env, "CUDA_HOME=%s", p.toolkit);
	if (!choose(label, &env, &c))
		return;
	expect_13(label, &c, &p);
	TS_EXPECT_INT(label, &c, "info_source", CUDASTUB_SOURCE_CUDA_HOME);
	TS_EXPECT_INT(label, &c, "info_driver_version", 0);
	TS_EXPECT(label, &c, "info_choice", "(null)");
	TS_EXPECT_INT(label, &c, "count_rc", cudaErrorInsufficientDriver);
}

/*
 * The choice with libcuda copied in as libcuda.so.1, in a folder of its
 * own first on the path, then the real driver's folder when driver is
 * given, then the 12.4 runtime's; CUDA_HOME the 13.0 toolkit. 1 when the
 * child ran; the folder is gone by then (the child's output is all the
 * cases read).
 */
static int choose_behind_copy(const char *label, const char *libcuda, const char *driver,
			      const struct places *p, struct ts_child *c)
{
	char tmp[PATH_MAX], copy[PATH_MAX + 32];
	struct ts_env env = {0};
	int ran;

	CU_ASSERT_PTR_NOT_NULL_FATAL(ts_tmpdir("cudart-driver", tmp, sizeof tmp));
	snprintf(copy, sizeof copy, "%s/libcuda.so.1", tmp);
	CU_ASSERT_EQUAL(ts_copy_file(libcuda, copy), 0);
	if (driver)
		ts_env_add(&env, "LD_LIBRARY_PATH=%s:%s:%s", tmp, driver, p->rt12);
	else
		ts_env_add(&env, "LD_LIBRARY_PATH=%s:%s", tmp, p->rt12);
	ts_env_add(&env, "CUDA_HOME=%s", p->toolkit);
	ran = choose(label, &env, c);
	ts_remove_tree(tmp);
	return ran;
}

/* A libcuda.so.1 that is no driver, first on the path: 13.0, no preference. */
static void expect_no_driver(const char *label, const char *libcuda)
{
	struct ts_child c;
	struct places p;

	if (!libcuda || !find_places(&p))
		return;
	/* the real driver behind it changes nothing */
	if (choose_behind_copy(label, libcuda, p.driver, &p, &c)) {
		expect_13(label, &c, &p);
		TS_EXPECT_INT(label, &c, "info_driver_version", 0);
		TS_EXPECT(label, &c, "info_choice", "(null)");
	}
}

#ifdef CT_CUDA_SHIM
/* The driver shim with no driver behind it answers no version: 13.0. */
static void expect_no_driver_behind_shim(const struct places *p)
{
	const char *label = "cudastub driver shim, no driver";
	struct ts_child c;

	if (ts_machine_has_driver())
		return;
	if (choose_behind_copy(label, CT_CUDA_SHIM, NULL, p, &c)) {
		expect_13(label, &c, p);
		TS_EXPECT_INT(label, &c, "info_driver_version", 0);
	}
}
#endif

/* NVIDIA's link-time stub under the driver's name is no driver. */
static void test_link_stub_is_no_driver(void)
{
	expect_no_driver("link-time stub as libcuda.so.1", ts_link_stub_libcuda());
}

/*
 * cudastub's own driver shim first on the path: it answers
 * cuDriverGetVersion from the real driver behind it, so the choice is the
 * driver's (12.4), and the shim itself is never loaded as the driver.
 */
static void test_driver_shim_answers_for_the_driver(void)
{
#ifdef CT_CUDA_SHIM
	const char *label = "cudastub driver shim before the 550 driver";
	struct ts_child c;
	struct places p;

	if (!find_places(&p))
		return;
	if (choose_behind_copy(label, CT_CUDA_SHIM, p.driver, &p, &c)) {
		TS_EXPECT(label, &c, "info_version", "12.4");
		TS_EXPECT_INT(label, &c, "info_driver_version", 12040);
		TS_EXPECT_HAS(label, &c, "info_choice", "12.4");
	}
	/* with no driver behind it, the shim is no driver */
	expect_no_driver_behind_shim(&p);
#else
	printf("SKIP: no driver shim in this build (CUDASTUB_BUILD_SHIMS=OFF)\n");
#endif
}

/* A driver, but only a runtime newer than it: that runtime, not none. */
static void test_driver_without_supported_runtime(void)
{
	const char *label = "driver 12.4, runtime 13.0 only";
	struct ts_env env = {0};
	struct ts_child c;
	struct places p;

	if (!find_places(&p))
		return;
	ts_env_add(&env, "LD_LIBRARY_PATH=%s", p.driver);
	ts_env_add(&env, "CUDA_HOME=%s", p.toolkit);
	if (!choose(label, &env, &c))
		return;
	expect_13(label, &c, &p);
	TS_EXPECT_INT(label, &c, "info_driver_version", 12040);
	TS_EXPECT_HAS(label, &c, "info_choice", "12.4");
	/* 13.0 with a 12.4 driver: insufficient driver, as NVIDIA's says */
	if (!ts_machine_has_driver())
		TS_EXPECT_INT(label, &c, "count_rc", cudaErrorInsufficientDriver);
}

/* CUDASTUB_CUDART_MAJOR=13 wins over the driver's 12. */
static void test_pin_wins(void)
{
	const char *label = "driver 12.4, pin 13";
	struct ts_env env = {0};
	struct ts_child c;
	struct places p;

	if (!find_places(&p))
		return;
	ts_env_add(&env, "LD_LIBRARY_PATH=%s:%s", p.driver, p.rt12);
	ts_env_add(&env, "CUDA_HOME=%s", p.toolkit);
	ts_env_add(&env, "CUDASTUB_CUDART_MAJOR=13");
	if (!choose(label, &env, &c))
		return;
	expect_13(label, &c, &p);
	TS_EXPECT_INT(label, &c, "info_driver_version", 0);
	TS_EXPECT(label, &c, "info_choice", "(null)");
}

/* CUDASTUB_CUDART_PATH wins over the driver's 12. */
static void test_override_wins(void)
{
	const char *label = "driver 12.4, override 13.0";
	struct ts_env env = {0};
	struct ts_child c;
	struct places p;

	if (!find_places(&p))
		return;
	ts_env_add(&env, "LD_LIBRARY_PATH=%s:%s", p.driver, p.rt12);
	ts_env_add(&env, "CUDASTUB_CUDART_PATH=%s", p.rt13);
	if (!choose(label, &env, &c))
		return;
	expect_13(label, &c, &p);
	TS_EXPECT_INT(label, &c, "info_source", CUDASTUB_SOURCE_OVERRIDE);
	TS_EXPECT_INT(label, &c, "info_driver_version", 0);
	TS_EXPECT(label, &c, "info_choice", "(null)");
}

static const struct ts_test tests[] = {
	{"a 12.4 driver gets the 12.4 runtime", test_driver_picks_12},
	{"no driver gets the newest runtime", test_no_driver_picks_13},
	{"NVIDIA's link-time stub counts as no driver", test_link_stub_is_no_driver},
	{"cudastub's driver shim answers for the driver behind it",
	 test_driver_shim_answers_for_the_driver},
	{"a driver with no runtime it supports still gets one",
	 test_driver_without_supported_runtime},
	{"the pin wins over the driver", test_pin_wins},
	{"the override wins over the driver", test_override_wins},
	{NULL, NULL},
};

static const struct ts_suite suite = {"cudart driver-aware choice", NULL, NULL, tests};

int main(int argc, char **argv)
{
	return ts_main_suite(argc, argv, scenarios, &suite);
}

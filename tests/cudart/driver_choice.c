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

/* The folders a case puts on LD_LIBRARY_PATH, in this order (the 11.8
 * runtime's only where it was fetched). */
enum { PATH_DRIVER = 1, PATH_RT11 = 2, PATH_RT12 = 4 };

/* A library copied in as libcuda.so.1, in a folder of its own first on the
 * path. */
enum libcuda_copy { COPY_NONE, COPY_LINK_STUB, COPY_DRIVER_SHIM };

/* Where the case runs: its fixtures decide whether a machine with a
 * driver of its own can run it. */
enum machine { ANY_MACHINE, NO_DRIVER_OR_SKIP, NO_DRIVER_OR_NOTHING };

/* One environment, and what the child must print in it. */
struct choice_case {
	const char *test; /* the CUnit test it is part of */
	const char *label;
	enum machine machine;
	enum libcuda_copy copy;
	unsigned path;		   /* PATH_* */
	int cuda_home;		   /* CUDA_HOME: the 13.0 toolkit */
	const char *pin;	   /* CUDASTUB_CUDART_MAJOR, or NULL */
	int override_13;	   /* CUDASTUB_CUDART_PATH: the 13.0 runtime */
	const char *version;	   /* the runtime chosen: "12.4" or "13.0" */
	int whole_runtime;	   /* also its file and cudaRuntimeGetVersion */
	int source;		   /* info_source, or -1: not checked */
	int driver_version;	   /* info_driver_version */
	const char *choice_is;	   /* info_choice, or NULL: not checked */
	const char *choice_has[2]; /* parts of info_choice (NULL: none) */
	int count_rc;		   /* cudaGetDeviceCount on a machine without a driver, or -1 */
};

static void add_path(struct ts_env *env, const char *copy_dir, unsigned path,
		     const struct places *p)
{
	char list[4 * PATH_MAX + 8] = "";
	const char *parts[] = {copy_dir, path & PATH_DRIVER ? p->driver : NULL,
			       path & PATH_RT11 && p->have11 ? p->rt11 : NULL,
			       path & PATH_RT12 ? p->rt12 : NULL};

	for (size_t i = 0; i < sizeof parts / sizeof *parts; i++)
		if (parts[i])
			snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
				 list[0] ? ":" : "", parts[i]);
	ts_env_add(env, "LD_LIBRARY_PATH=%s", list);
}

/* The library a case copies in as libcuda.so.1; NULL when there is none
 * here (reported where a fixture is missing). */
static const char *copied_libcuda(const char *label, enum libcuda_copy copy)
{
	if (copy == COPY_LINK_STUB)
		return ts_link_stub_libcuda();
#ifdef CT_CUDA_SHIM
	(void)label;
	return CT_CUDA_SHIM;
#else
	printf("SKIP: %s: no driver shim in this build (CUDASTUB_BUILD_SHIMS=OFF)\n", label);
	return NULL;
#endif
}

/*
 * Runs the child in the case's environment. With a copy of libcuda, its
 * folder is gone by the time this returns (the child's output is all the
 * case reads). 1 when the child ran and the stub loaded.
 */
static int choose(const struct choice_case *k, const struct places *p, struct ts_child *c)
{
	char tmp[PATH_MAX] = "", copy[PATH_MAX + 32];
	struct ts_env env = {0};
	int ran;

	if (k->copy != COPY_NONE) {
		const char *libcuda = copied_libcuda(k->label, k->copy);

		if (!libcuda)
			return 0;
		CU_ASSERT_PTR_NOT_NULL_FATAL(ts_tmpdir("cudart-driver", tmp, sizeof tmp));
		snprintf(copy, sizeof copy, "%s/libcuda.so.1", tmp);
		CU_ASSERT_EQUAL(ts_copy_file(libcuda, copy), 0);
	}
	add_path(&env, tmp[0] ? tmp : NULL, k->path, p);
	if (k->cuda_home)
		ts_env_add(&env, "CUDA_HOME=%s", p->toolkit);
	if (k->pin)
		ts_env_add(&env, "CUDASTUB_CUDART_MAJOR=%s", k->pin);
	if (k->override_13)
		ts_env_add(&env, "CUDASTUB_CUDART_PATH=%s", p->rt13);
	ran = ts_run_scenario(k->label, "choice", &env, c);
	if (tmp[0])
		ts_remove_tree(tmp);
	if (ran)
		TS_EXPECT_INT(k->label, c, "load", CUDASTUB_STATE_LOADED);
	return ran;
}

/* The runtime's very file, whichever link to it the step named. */
static void expect_runtime(const struct choice_case *k, const struct ts_child *c,
			   const struct places *p)
{
	char want[PATH_MAX + 32], got[PATH_MAX];
	const char *path;

	TS_EXPECT_INT(k->label, c, "rv", strcmp(k->version, "13.0") ? 12040 : 13000);
	if (strcmp(k->version, "13.0")) {
		snprintf(want, sizeof want, "%s/libcudart.so.12", p->rt12);
		TS_EXPECT(k->label, c, "info_path", want);
		return;
	}
	path = ts_value(c, "info_path"); /* a static buffer: read it last */
	CU_ASSERT_PTR_NOT_NULL_FATAL(realpath(p->rt13, want));
	CU_ASSERT_STRING_EQUAL(path && realpath(path, got) ? got : "(no path)", want);
}

static void run_case(const struct choice_case *k)
{
	struct ts_child c;
	struct places p;

	if (!find_places(&p))
		return;
	if (k->machine != ANY_MACHINE && ts_machine_has_driver()) {
		if (k->machine == NO_DRIVER_OR_SKIP)
			ts_unavailable("this machine has a driver (libcuda.so.1); the no-driver "
				       "case needs a machine without one");
		return;
	}
	if (!choose(k, &p, &c))
		return;
	TS_EXPECT(k->label, &c, "info_version", k->version);
	if (k->whole_runtime)
		expect_runtime(k, &c, &p);
	if (k->source >= 0)
		TS_EXPECT_INT(k->label, &c, "info_source", k->source);
	TS_EXPECT_INT(k->label, &c, "info_driver_version", k->driver_version);
	if (k->choice_is)
		TS_EXPECT(k->label, &c, "info_choice", k->choice_is);
	for (int i = 0; i < 2 && k->choice_has[i]; i++)
		TS_EXPECT_HAS(k->label, &c, "info_choice", k->choice_has[i]);
	if (k->count_rc >= 0 && !ts_machine_has_driver())
		TS_EXPECT_INT(k->label, &c, "count_rc", k->count_rc);
}

/*
 * The cases, in the order of their tests:
 *  - a 12.4 driver, runtimes 11.8 (when fetched), 12.4 and 13.0: 12.4, read
 *    from the driver file's name, as every stub reads it (the runtime loads
 *    the driver itself when it needs it); the runtime reached the driver:
 *    no device, not "driver too old";
 *  - no driver: the newest runtime, from CUDA_HOME;
 *  - NVIDIA's link-time stub under the driver's name, first on the path, is
 *    no driver (the real driver behind it changes nothing): 13.0, no
 *    preference;
 *  - cudastub's own driver shim first on the path answers
 *    cuDriverGetVersion from the real driver behind it, so the choice is
 *    the driver's (12.4), and the shim itself is never loaded as the
 *    driver; with no driver behind it, it answers no version: 13.0;
 *  - a driver, but only a runtime newer than it: that runtime, not none;
 *    13.0 with a 12.4 driver: insufficient driver, as NVIDIA's says;
 *  - CUDASTUB_CUDART_MAJOR=13, and CUDASTUB_CUDART_PATH, win over the
 *    driver's 12.
 */
static const struct choice_case cases[] = {
	{.test = "a 12.4 driver gets the 12.4 runtime",
	 .label = "driver 12.4, runtimes 12.4 and 13.0",
	 .path = PATH_DRIVER | PATH_RT11 | PATH_RT12,
	 .cuda_home = 1,
	 .version = "12.4",
	 .whole_runtime = 1,
	 .source = CUDASTUB_SOURCE_LOADER_SEARCH,
	 .driver_version = 12040,
	 .choice_has = {"12.4", "by its file's name, not loaded"},
	 .count_rc = cudaErrorNoDevice},
	{.test = "no driver gets the newest runtime",
	 .label = "no driver, runtimes 12.4 and 13.0",
	 .machine = NO_DRIVER_OR_SKIP,
	 .path = PATH_RT12,
	 .cuda_home = 1,
	 .version = "13.0",
	 .whole_runtime = 1,
	 .source = CUDASTUB_SOURCE_CUDA_HOME,
	 .choice_is = "(null)",
	 .count_rc = cudaErrorInsufficientDriver},
	{.test = "NVIDIA's link-time stub counts as no driver",
	 .label = "link-time stub as libcuda.so.1",
	 .copy = COPY_LINK_STUB,
	 .path = PATH_DRIVER | PATH_RT12,
	 .cuda_home = 1,
	 .version = "13.0",
	 .whole_runtime = 1,
	 .source = -1,
	 .choice_is = "(null)",
	 .count_rc = -1},
	{.test = "cudastub's driver shim answers for the driver behind it",
	 .label = "cudastub driver shim before the 550 driver",
	 .copy = COPY_DRIVER_SHIM,
	 .path = PATH_DRIVER | PATH_RT12,
	 .cuda_home = 1,
	 .version = "12.4",
	 .source = -1,
	 .driver_version = 12040,
	 .choice_has = {"12.4"},
	 .count_rc = -1},
	{.test = "cudastub's driver shim answers for the driver behind it",
	 .label = "cudastub driver shim, no driver",
	 .machine = NO_DRIVER_OR_NOTHING,
	 .copy = COPY_DRIVER_SHIM,
	 .path = PATH_RT12,
	 .cuda_home = 1,
	 .version = "13.0",
	 .whole_runtime = 1,
	 .source = -1,
	 .count_rc = -1},
	{.test = "a driver with no runtime it supports still gets one",
	 .label = "driver 12.4, runtime 13.0 only",
	 .path = PATH_DRIVER,
	 .cuda_home = 1,
	 .version = "13.0",
	 .whole_runtime = 1,
	 .source = -1,
	 .driver_version = 12040,
	 .choice_has = {"12.4"},
	 .count_rc = cudaErrorInsufficientDriver},
	{.test = "the pin wins over the driver",
	 .label = "driver 12.4, pin 13",
	 .path = PATH_DRIVER | PATH_RT12,
	 .cuda_home = 1,
	 .pin = "13",
	 .version = "13.0",
	 .whole_runtime = 1,
	 .source = -1,
	 .choice_is = "(null)",
	 .count_rc = -1},
	{.test = "the override wins over the driver",
	 .label = "driver 12.4, override 13.0",
	 .path = PATH_DRIVER | PATH_RT12,
	 .override_13 = 1,
	 .version = "13.0",
	 .whole_runtime = 1,
	 .source = CUDASTUB_SOURCE_OVERRIDE,
	 .choice_is = "(null)",
	 .count_rc = -1},
};
enum { CASE_COUNT = sizeof cases / sizeof *cases };

/* Every case of the test CUnit is running: a test takes no argument, so
 * it asks CUnit which test it is. */
static void test_cases(void)
{
	const char *name = CU_get_current_test()->pName;

	for (int i = 0; i < CASE_COUNT; i++)
		if (!strcmp(cases[i].test, name))
			run_case(&cases[i]);
}

int main(int argc, char **argv)
{
	static struct ts_test tests[CASE_COUNT + 1];
	static const struct ts_suite suite = {"cudart driver-aware choice", NULL, NULL, tests};
	int n = 0;

	/* one test per name, in the order of the cases */
	for (int i = 0; i < CASE_COUNT; i++)
		if (!i || strcmp(cases[i].test, cases[i - 1].test))
			tests[n++] = (struct ts_test){cases[i].test, test_cases};
	return ts_main_suite(argc, argv, scenarios, &suite);
}

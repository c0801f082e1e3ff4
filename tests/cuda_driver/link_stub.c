/*
 * NVIDIA's link-time stub (the toolkit's stubs/libcuda.so, SONAME
 * libcuda.so.1, every call CUDA_ERROR_STUB_LIBRARY) copied as libcuda.so.1
 * into a folder of its own, through the stub and through the shim:
 *
 *  - first on LD_LIBRARY_PATH, the driver-550 fixture's folder later: the
 *    real driver is the one used (info names the fixture's file, 12.4,
 *    cuDriverGetVersion 12040), the tried list shows the link-time stub
 *    skipped, and it is not left loaded;
 *  - alone on LD_LIBRARY_PATH (skipped on a machine with a driver): no
 *    driver (not found), cuDriverGetVersion returns the stub's "no driver"
 *    code (100, not the link-time stub's 34) and sets 0, and
 *    cuGetErrorString(100) says the link-time stub was skipped.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_driver_test.h"
#include "ts_files.h"

#define CD_LINK_COPY_VAR "CD_LINK_COPY" /* the copy named libcuda.so.1 */

/* ---- the child ---- */

static int scenario_search(void)
{
	const char *copy = getenv(CD_LINK_COPY_VAR), *s = NULL;
	void *lib = cd_open_lib();
	int (*version)(int *), (*string)(int, const char **);
	int v = 7;

	if (!lib || !copy)
		return 3;
	*(void **)&version = cd_sym(lib, "cuDriverGetVersion");
	*(void **)&string = cd_sym(lib, "cuGetErrorString");
	if (!version || !string)
		return 4;
	printf("dv_rc=%d\n", version(&v));
	printf("dv=%d\n", v);
	if (cd_search(lib) != 0)
		return 5;
	/* a rejected candidate is closed again: it holds no SONAME */
	printf("link_stub_still_loaded=%d\n", dlopen(copy, RTLD_NOW | RTLD_NOLOAD) != NULL);
	printf("string_no_driver_rc=%d\n", string(CD_NO_DRIVER, &s));
	ts_print_line("string_no_driver", s);
	return 0;
}

static const struct ts_scenario scenarios[] = {{"search", scenario_search}, {NULL, NULL}};

/* ---- the parent ---- */

static const struct cd_lib *lib;

/* The link-time stub as <tmp>/libcuda.so.1 (copy), and its folder. */
static int lay_out(char *dir, size_t dir_size, char *copy, size_t copy_size)
{
	const char *link_stub = ts_link_stub_libcuda();

	if (!link_stub)
		return 0;
	CU_ASSERT_PTR_NOT_NULL_FATAL(ts_tmpdir("linkstub", dir, dir_size));
	snprintf(copy, copy_size, "%s/libcuda.so.1", dir);
	CU_ASSERT_EQUAL_FATAL(ts_copy_file(link_stub, copy), 0);
	return 1;
}

static void test_link_stub_first(void)
{
	const char *label = "link-time stub first, driver 550 later";
	char tmp[PATH_MAX], copy[PATH_MAX + 16], driver[PATH_MAX], file[PATH_MAX + 16];
	char want[PATH_MAX], got[PATH_MAX];
	struct ts_env env = {0};
	struct ts_child c;
	const char *path;
	int ran;

	if (!cd_lib_path(lib) || !ts_driver_dir(driver, sizeof driver) ||
	    !lay_out(tmp, sizeof tmp, copy, sizeof copy))
		return;
	ts_env_add(&env, "LD_LIBRARY_PATH=%s:%s", tmp, driver);
	ts_env_add(&env, CD_LIB_VAR "=%s", lib->path);
	ts_env_add(&env, CD_LINK_COPY_VAR "=%s", copy);
	ran = ts_run_scenario(label, "search", &env, &c);
	ts_remove_tree(tmp);
	if (!ran)
		return;
	TS_EXPECT_INT(label, &c, "load", CUDASTUB_STATE_LOADED);
	TS_EXPECT(label, &c, "info_version", "12.4");
	TS_EXPECT_INT(label, &c, "info_source", CUDASTUB_SOURCE_LOADER_SEARCH);
	TS_EXPECT_INT(label, &c, "dv_rc", CD_SUCCESS);
	TS_EXPECT_INT(label, &c, "dv", 12040);
	TS_EXPECT_INT(label, &c, "link_stub_still_loaded", 0);
	/* the tried list: the copy, skipped as the link-time stub */
	CU_ASSERT(ts_attempts_with(&c, copy, "skipped: NVIDIA's link-time stub") >= 1);
	/* the fixture's very file, whichever link to it the walk named */
	snprintf(file, sizeof file, "%s/libcuda.so.1", driver);
	CU_ASSERT_PTR_NOT_NULL_FATAL(realpath(file, want));
	path = ts_value(&c, "info_path");
	CU_ASSERT_STRING_EQUAL(path && realpath(path, got) ? got : "(no path)", want);
}

static void test_link_stub_alone(void)
{
	const char *label = "link-time stub alone";
	char tmp[PATH_MAX], copy[PATH_MAX + 16];
	struct ts_env env = {0};
	struct ts_child c;
	int ran;

	if (!cd_lib_path(lib))
		return;
	if (ts_machine_has_driver()) {
		ts_unavailable("this machine has a driver (libcuda.so.1): a search finds it");
		return;
	}
	if (!lay_out(tmp, sizeof tmp, copy, sizeof copy))
		return;
	ts_env_add(&env, "LD_LIBRARY_PATH=%s", tmp);
	ts_env_add(&env, CD_LIB_VAR "=%s", lib->path);
	ts_env_add(&env, CD_LINK_COPY_VAR "=%s", copy);
	ran = ts_run_scenario(label, "search", &env, &c);
	ts_remove_tree(tmp);
	if (!ran)
		return;
	TS_EXPECT_INT(label, &c, "load", CUDASTUB_STATE_NOT_FOUND);
	TS_EXPECT(label, &c, "info_path", "(null)");
	TS_EXPECT_INT(label, &c, "dv_rc", CD_NO_DRIVER);
	TS_EXPECT_INT(label, &c, "dv", 0);
	TS_EXPECT_INT(label, &c, "link_stub_still_loaded", 0);
	CU_ASSERT(ts_attempts_with(&c, copy, "skipped: NVIDIA's link-time stub") >= 1);
	TS_EXPECT_INT(label, &c, "string_no_driver_rc", CD_SUCCESS);
	TS_EXPECT_HAS(label, &c, "string_no_driver", " tried)");
	TS_EXPECT_HAS(label, &c, "string_no_driver", "CUDASTUB_CUDA_PATH");
}

static int select_stub(void)
{
	lib = &cd_libs()[0];
	return 0;
}

static int select_shim(void)
{
	lib = &cd_libs()[1];
	return 0;
}

static void register_suites(void)
{
	static const struct {
		const char *name;
		int (*select)(void);
	} suites[] = {{"NVIDIA's link-time stub: stub", select_stub},
		      {"NVIDIA's link-time stub: shim", select_shim}};

	for (size_t i = 0; i < sizeof suites / sizeof *suites; i++) {
		CU_pSuite s = CU_add_suite(suites[i].name, suites[i].select, NULL);

		CU_add_test(s, "first on LD_LIBRARY_PATH: skipped, the real driver is used",
			    test_link_stub_first);
		CU_add_test(s, "alone: not found, cuDriverGetVersion 100 and 0",
			    test_link_stub_alone);
	}
}

int main(int argc, char **argv)
{
	return ts_main(argc, argv, scenarios, register_suites);
}

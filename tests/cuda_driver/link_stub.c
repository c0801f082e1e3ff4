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

/*
 * Runs the search with the link-time stub as libcuda.so.1 (its path in
 * copy, for the tried list) in a folder of its own, first on the path,
 * then driver's folder (NULL: none). 1 when the child ran; the folder is
 * gone by then.
 */
static int search_behind_link_stub(const char *label, const char *driver, char *copy,
				   size_t copy_size, struct ts_child *c)
{
	const char *link_stub = ts_link_stub_libcuda();
	char tmp[PATH_MAX];
	struct ts_env env = {0};
	int ran;

	if (!link_stub)
		return 0;
	CU_ASSERT_PTR_NOT_NULL_FATAL(ts_tmpdir("linkstub", tmp, sizeof tmp));
	snprintf(copy, copy_size, "%s/libcuda.so.1", tmp);
	CU_ASSERT_EQUAL_FATAL(ts_copy_file(link_stub, copy), 0);
	if (driver)
		ts_env_add(&env, "LD_LIBRARY_PATH=%s:%s", tmp, driver);
	else
		ts_env_add(&env, "LD_LIBRARY_PATH=%s", tmp);
	ts_env_add(&env, CD_LIB_VAR "=%s", cd_selected.lib->path);
	ts_env_add(&env, CD_LINK_COPY_VAR "=%s", copy);
	ran = ts_run_scenario(label, "search", &env, c);
	ts_remove_tree(tmp);
	return ran;
}

static void test_link_stub_first(void)
{
	const char *label = "link-time stub first, driver 550 later";
	char copy[PATH_MAX + 16], driver[PATH_MAX], file[PATH_MAX + 16];
	char want[PATH_MAX], got[PATH_MAX];
	struct ts_child c;
	const char *path;

	if (!cd_lib_path(cd_selected.lib) || !ts_driver_dir(driver, sizeof driver) ||
	    !search_behind_link_stub(label, driver, copy, sizeof copy, &c))
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
	char copy[PATH_MAX + 16];
	struct ts_child c;

	if (!cd_lib_path(cd_selected.lib))
		return;
	if (ts_machine_has_driver()) {
		ts_unavailable("this machine has a driver (libcuda.so.1): a search finds it");
		return;
	}
	if (!search_behind_link_stub(label, NULL, copy, sizeof copy, &c))
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

static const struct ts_test tests[] = {
	{"first on LD_LIBRARY_PATH: skipped, the real driver is used", test_link_stub_first},
	{"alone: not found, cuDriverGetVersion 100 and 0", test_link_stub_alone},
	{NULL, NULL},
};

int main(int argc, char **argv)
{
	return cd_main(argc, argv, scenarios, "NVIDIA's link-time stub", NULL, tests);
}

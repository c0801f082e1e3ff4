/*
 * The CUDA version a driver's file name says (stubs/loader/search/loader_driver_name.c),
 * compiled in: a table of names, each branch boundary and each malformed
 * kind, and Debian's real 550 driver, whose name must say what the driver
 * itself answers when asked.
 */
#define _GNU_SOURCE
#include <CUnit/CUnit.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "loader.h"
#include "test_support.h"
#include "ts_driver.h"
#include "loader_versions.h"

struct name_case {
	const char *name;
	int version, at_least;
};

static const struct name_case cases[] = {
	{"libcuda.so.550.163.01", 12040, 0}, /* Debian's 550 */
	{"libcuda.so.550.54.14", 12040, 0},
	{"libcuda.so.535.183.01", 12020, 0},
	{"libcuda.so.545.23.06", 12030, 0},
	{"libcuda.so.549.99.99", 12030, 0}, /* between branches: the one below */
	{"libcuda.so.525.60.13", 12000, 0},
	{"libcuda.so.520.61.05", 11080, 0},
	{"libcuda.so.470.256.02", 11040, 0},
	{"libcuda.so.455.23", 11010, 0}, /* two parts, as 455's were */
	{"libcuda.so.580.65.06", 13000, 0},
	{"libcuda.so.590.44.01", 13010, 0},
	{"libcuda.so.610.1.1", 13010, 1}, /* newer than the table: at least */
	{"libcuda.so.999.1", 13010, 1},
	{"libcuda.so.410.48", 10000, 0},
	{"libcuda.so.409.1.1", 0, 0}, /* older than the table */
	{"libcuda.so.1", 0, 0},	      /* the link itself: says nothing */
	{"libcuda.so.550", 0, 0},     /* one part */
	{"libcuda.so.550.1.2.3", 0, 0},
	{"libcuda.so.550..1", 0, 0},
	{"libcuda.so.550.1.", 0, 0},
	{"libcuda.so..550.1", 0, 0},
	{"libcuda.so.5500.1", 0, 0},
	{"libcuda.so.55.1", 0, 0},
	{"libcuda.so.550.12345.1", 0, 0},
	{"libcuda.so.550.163.01x", 0, 0},
	{"libcuda.so.550.163.01 ", 0, 0},
	{"libcuda.so.-550.1", 0, 0},
	{"libcudart.so.550.163.01", 0, 0},
	{"libcuda.so", 0, 0},
	{"", 0, 0},
};

static void test_names(void)
{
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		int at_least = -1;
		int version = cudastub_driver_version_of_name(cases[i].name, &at_least);

		CU_ASSERT_EQUAL(version, cases[i].version);
		CU_ASSERT_EQUAL(at_least, cases[i].at_least);
		if (version != cases[i].version || at_least != cases[i].at_least)
			fprintf(stderr, "  \"%s\": %d (at least %d), expected %d (%d)\n",
				cases[i].name, version, at_least, cases[i].version,
				cases[i].at_least);
	}
}

TS_TEST(test_names, "names: each branch boundary, each malformed kind");

/* Debian's libcuda.so.1 -> libcuda.so.550.163.01: the name, through the
 * link, says what the driver answers when loaded and asked. */
static void test_real_driver_agrees(void)
{
	typedef int (*get_version_fn)(int *);
	char dir[PATH_MAX], path[PATH_MAX + 16], driver[32] = "";
	int at_least = -1, named, asked = 0;
	get_version_fn get_version;
	void *handle;

	if (!ts_driver_dir(dir, sizeof dir))
		return;
	snprintf(path, sizeof path, "%s/libcuda.so.1", dir);
	named = cudastub_driver_version_from_file(path, driver, sizeof driver, &at_least);
	CU_ASSERT_EQUAL(named, 12040);
	CU_ASSERT_EQUAL(at_least, 0);
	CU_ASSERT_STRING_EQUAL(driver, "550.163.01");
	handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(handle);
	get_version = (get_version_fn)dlsym(handle, "cuDriverGetVersion");
	CU_ASSERT_PTR_NOT_NULL_FATAL(get_version);
	CU_ASSERT_EQUAL(get_version(&asked), 0);
	CU_ASSERT_EQUAL(asked, named);
	printf("  %s: by name %d, asked %d\n", driver, named, asked);
	dlclose(handle);
}

TS_TEST(test_real_driver_agrees, "Debian's 550 driver: its name says what it answers");

static void test_missing_file(void)
{
	int at_least = -1;

	CU_ASSERT_EQUAL(cudastub_driver_version_from_file("/nonexistent/libcuda.so.550.54.14", NULL,
							  0, &at_least),
			0);
	CU_ASSERT_EQUAL(at_least, 0);
}

TS_TEST(test_missing_file, "a file that is not there says nothing");

TS_MAIN_SUITE("loader: the driver's version from its file's name", NULL, NULL, NULL)

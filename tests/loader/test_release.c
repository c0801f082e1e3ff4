/*
 * One CUDA release per process (stubs/loader/search/loader_release.c): without a
 * pin or an override, a stub searches first the major of the CUDA
 * libraries already in the process, else the majors the driver supports,
 * and only then the others.
 *
 *   T/all/      libnvrtc.so.13 and .so.12 (the fakes), on LD_LIBRARY_PATH
 *   T/driver/   the fake driver (tests/cuda_driver/fakes: CUDA 12.4)
 *   T/named/    the fake driver again, as NVIDIA installs a driver:
 *               libcuda.so.1 -> libcuda.so.535.183.01 (a copy), a name that says
 *               CUDA 12.2 where the fake itself would answer 12.4
 * The runtime "already in the process" is the fake libcudart.so.12
 * (tests/cudart/fakes), dlopen()ed before the stub; a cudastub shim under
 * that name is no evidence of a release.
 */
#define _GNU_SOURCE
#include "ts_driver.h"
#include "ts_files.h"
#include "loader_test.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <unistd.h>

static char tree[1024];

static const char *in_tree(const char *rel)
{
	return ld_fmt("%s/%s", tree, rel);
}

static int suite_init(void)
{
	static const char *const variants[] = {"nvrtc-13", "nvrtc-12"};

	if (!ld_tmpdir(tree, sizeof tree) || ld_mkdirs(in_tree("all")) != 0 ||
	    ld_mkdirs(in_tree("driver")) != 0)
		return -1;
	for (size_t i = 0; i < sizeof variants / sizeof *variants; i++)
		if (ld_link(ld_fake(variants[i]),
			    ld_fmt("%s/%s", in_tree("all"), ld_fake_file_name(variants[i]))) != 0)
			return -1;
	if (ld_mkdirs(in_tree("named")) != 0 ||
	    ts_copy_file(RELEASE_FAKE_DRIVER,
			 ld_fmt("%s/libcuda.so.535.183.01", in_tree("named"))) != 0 ||
	    symlink("libcuda.so.535.183.01", ld_fmt("%s/libcuda.so.1", in_tree("named"))) != 0)
		return -1;
	return ld_link(RELEASE_FAKE_DRIVER, ld_fmt("%s/libcuda.so.1", in_tree("driver")));
}

static int suite_clean(void)
{
	ts_remove_tree(tree);
	return 0;
}

/* Runs the probe with LD_LIBRARY_PATH=paths and, when set, preload. */
static int probe(const char *paths, const char *preload, struct ts_child *c)
{
	const char *env[] = {ld_fmt("LD_LIBRARY_PATH=%s", paths),
			     ld_fmt("TEST_PRELOAD=%s", preload ? preload : ""), NULL};

	return ld_run_probe(env, c);
}

static void test_no_release_no_driver(void)
{
	struct ts_child c;

	if (probe(in_tree("all"), NULL, &c))
		return;
	LD_EXPECT_FAKE(&c, CUDASTUB_SOURCE_LOADER_SEARCH, 13, 0, "fake-nvrtc-13");
	CU_ASSERT_TRUE(ld_is(&c, "driver_version", "0"));
}

TS_TEST(test_no_release_no_driver, "no release in the process, no driver: newest first");

static void test_driver_supports_12(void)
{
	struct ts_child c;

	if (probe(ld_fmt("%s:%s", in_tree("driver"), in_tree("all")), NULL, &c))
		return;
	LD_EXPECT_FAKE(&c, CUDASTUB_SOURCE_LOADER_SEARCH, 12, 4, "fake-nvrtc-12");
	CU_ASSERT_TRUE(ld_is(&c, "driver_version", "12040"));
	CU_ASSERT_TRUE(ld_has(&c, "choice", "driver supports CUDA 12.4: up to CUDA 12"));
	/* a name that does not say: the driver was asked, and stays loaded */
	CU_ASSERT_TRUE(ld_is(&c, "driver_mapped", "1"));
}

TS_TEST(test_driver_supports_12, "a driver for CUDA 12.4: 12 first");

/* The driver's file's name says its version: NVRTC reads it and loads
 * nothing (the fake, asked, would have said 12.4). */
static void test_driver_by_its_name(void)
{
	struct ts_child c;

	if (probe(ld_fmt("%s:%s", in_tree("named"), in_tree("all")), NULL, &c))
		return;
	LD_EXPECT_FAKE(&c, CUDASTUB_SOURCE_LOADER_SEARCH, 12, 4, "fake-nvrtc-12");
	CU_ASSERT_TRUE(ld_is(&c, "driver_version", "12020"));
	CU_ASSERT_TRUE(ld_has(&c, "choice", "driver 535.183.01 ("));
	CU_ASSERT_TRUE(ld_has(&c, "choice", "up to CUDA 12 searched first"));
	CU_ASSERT_TRUE(ld_has(&c, "choice", "by its file's name, not loaded) supports CUDA 12.2"));
	CU_ASSERT_TRUE(ld_is(&c, "driver_mapped", "0"));
}

TS_TEST(test_driver_by_its_name, "a driver whose file's name says 535: 12 first, nothing loaded");

/* Debian's real 550 driver (the driver-550 fixture): named, not loaded. */
static void test_real_driver_not_loaded(void)
{
	struct ts_child c;
	char dir[1024];

	if (!ts_driver_dir(dir, sizeof dir))
		return;
	if (probe(ld_fmt("%s:%s", dir, in_tree("all")), NULL, &c))
		return;
	LD_EXPECT_FAKE(&c, CUDASTUB_SOURCE_LOADER_SEARCH, 12, 4, "fake-nvrtc-12");
	CU_ASSERT_TRUE(ld_is(&c, "driver_version", "12040"));
	CU_ASSERT_TRUE(ld_has(&c, "choice", "driver 550.163.01 ("));
	CU_ASSERT_TRUE(ld_is(&c, "driver_mapped", "0"));
}

TS_TEST(test_real_driver_not_loaded,
	"Debian's 550 driver on the path: 12 first, the driver not loaded");

static void test_runtime_in_process(void)
{
	struct ts_child c;

	/* no driver at all: the runtime already loaded decides */
	if (!ts_present(RELEASE_FAKE_CUDART_12, "the fake 12 runtime is built from the 12.4 "
						"headers: tests/fixtures/fetch.sh, then cmake"))
		return;
	if (probe(in_tree("all"), RELEASE_FAKE_CUDART_12, &c))
		return;
	CU_ASSERT_TRUE(ld_is(&c, "preload", "ok"));
	LD_EXPECT_FAKE(&c, CUDASTUB_SOURCE_LOADER_SEARCH, 12, 4, "fake-nvrtc-12");
	CU_ASSERT_TRUE(ld_has(&c, "choice", "libcudart.so.12 is loaded in this process"));
}

TS_TEST(test_runtime_in_process, "a 12 runtime already loaded: 12 first");

static void test_pin_wins(void)
{
	struct ts_child c;
	const char *env[] = {ld_fmt("LD_LIBRARY_PATH=%s:%s", in_tree("driver"), in_tree("all")),
			     "CUDASTUB_NVRTC_MAJOR=13", NULL};

	if (ld_run_probe(env, &c))
		return;
	LD_EXPECT_FAKE(&c, CUDASTUB_SOURCE_LOADER_SEARCH, 13, 0, "fake-nvrtc-13");
	CU_ASSERT_TRUE(ld_is(&c, "choice", ""));
}

TS_TEST(test_pin_wins, "a pin wins over the release");

/* A release the driver cannot run is still better than none. */
static void test_other_release_after(void)
{
	struct ts_child c;
	const char *only13 = in_tree("only13");

	CU_ASSERT_EQUAL_FATAL(ld_mkdirs(only13), 0);
	CU_ASSERT_EQUAL_FATAL(ld_link(ld_fake("nvrtc-13"), ld_fmt("%s/libnvrtc.so.13", only13)), 0);
	if (probe(ld_fmt("%s:%s", in_tree("driver"), only13), NULL, &c))
		return;
	LD_EXPECT_FAKE(&c, CUDASTUB_SOURCE_LOADER_SEARCH, 13, 0, "fake-nvrtc-13");
}

TS_TEST(test_other_release_after, "a release the driver cannot run, when nothing else is there");

static const struct ts_scenario scenarios[] = {LD_PROBE_SCENARIO, {NULL, NULL}};

TS_MAIN_SUITE("release: one CUDA release per process", suite_init, suite_clean, scenarios)

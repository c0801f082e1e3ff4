/*
 * The search steps, in order: each test offers a fake in the step under
 * test and different fakes in later steps, and checks which one answered
 * (its version, its nvrtcGetPTX tag) and which step the stub says found it.
 *
 * The temporary tree, made once for the suite:
 *   T/home12/lib64/libnvrtc.so.12     CUDA_HOME-style root with fake 12
 *   T/home13/lib64/libnvrtc.so.13     ... with fake 13
 *   T/path11/lib/libnvrtc.so.11.2     CUDA_PATH-style root with fake 11
 *   T/empty/                          a root with nothing in it
 *   T/wheel13/site-packages/pkg/lib/libnvrtc_stub.so     a copy of the stub
 *   T/wheel13/site-packages/nvidia/cu13/lib/libnvrtc.so.13
 *   T/wheel12/site-packages/pkg/lib/libnvrtc_stub.so
 *   T/wheel12/site-packages/nvidia/cuda_nvrtc/lib/libnvrtc.so.12
 *   T/renamed/libnvrtc-renamed.so     a copy of fake 12 (SONAME libnvrtc.so.12)
 */
#define _GNU_SOURCE
#include "loader_test.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

static char tree[1024];

static const char *in_tree(const char *rel)
{
	return ld_fmt("%s/%s", tree, rel);
}

static int place(const char *rel_dir, const char *variant)
{
	char dir[4096];

	snprintf(dir, sizeof dir, "%s/%s", tree, rel_dir);
	if (ld_mkdirs(dir) != 0)
		return -1;
	return ld_link(ld_fake(variant), ld_fmt("%s/%s", dir, ld_fake_file_name(variant)));
}

static int place_stub(const char *rel_dir)
{
	char dir[4096];

	snprintf(dir, sizeof dir, "%s/%s", tree, rel_dir);
	if (ld_mkdirs(dir) != 0)
		return -1;
	return ts_copy_file(ld_stub(), ld_fmt("%s/libnvrtc_stub.so", dir));
}

static int suite_init(void)
{
	if (!ld_tmpdir(tree, sizeof tree))
		return -1;
	if (ld_mkdirs(in_tree("empty")) != 0)
		return -1;
	return place("home12/lib64", "nvrtc-12") || place("home13/lib64", "nvrtc-13") ||
	       place("path11/lib", "nvrtc-11") || place_stub("wheel13/site-packages/pkg/lib") ||
	       place("wheel13/site-packages/nvidia/cu13/lib", "nvrtc-13") ||
	       place_stub("wheel12/site-packages/pkg/lib") ||
	       place("wheel12/site-packages/nvidia/cuda_nvrtc/lib", "nvrtc-12") ||
	       ld_mkdirs(in_tree("renamed")) ||
	       ts_copy_file(ld_fake("nvrtc-12"), in_tree("renamed/libnvrtc-renamed.so"));
}

static int suite_clean(void)
{
	ts_remove_tree(tree);
	return 0;
}

/* An override file beats an already-loaded copy, CUDA_HOME and the loader. */
static void test_override_file_beats_everything(void)
{
	struct ts_child c;
	const char *env[] = {ld_fmt("CUDASTUB_NVRTC_PATH=%s", ld_fake("nvrtc-12")),
			     ld_fmt("TEST_PRELOAD=%s", ld_fake("nvrtc-11")),
			     ld_fmt("CUDA_HOME=%s", in_tree("home13")),
			     ld_fmt("LD_LIBRARY_PATH=%s", ld_fake_dir("nvrtc-13")), NULL};

	if (ld_run_probe(env, &c))
		return;
	CU_ASSERT_TRUE(ld_is(&c, "preload", "ok"));
	LD_EXPECT_FAKE(&c, CUDASTUB_SOURCE_OVERRIDE, 12, 4, "fake-nvrtc-12");
	CU_ASSERT_TRUE(ld_is(&c, "path", ld_fake("nvrtc-12")));
	CU_ASSERT_EQUAL(ld_long(&c, "attempts"), 1);
	CU_ASSERT_EQUAL(ld_long(&c, "dlopen_calls"), 1);
}

/* An override folder is searched newest major first, and nothing else is. */
static void test_override_dir_beats_everything(void)
{
	struct ts_child c;
	const char *env[] = {ld_fmt("CUDASTUB_NVRTC_PATH=%s", ld_fake_dir("nvrtc-11")),
			     ld_fmt("TEST_PRELOAD=%s", ld_fake("nvrtc-12")),
			     ld_fmt("CUDA_HOME=%s", in_tree("home13")),
			     ld_fmt("LD_LIBRARY_PATH=%s", ld_fake_dir("nvrtc-13")), NULL};

	if (ld_run_probe(env, &c))
		return;
	LD_EXPECT_FAKE(&c, CUDASTUB_SOURCE_OVERRIDE, 11, 8, "fake-nvrtc-11");
	CU_ASSERT_TRUE(ld_has(&c, "path", "nvrtc-11/libnvrtc.so.11.2"));
	CU_ASSERT_TRUE(ld_attempt(&c, "nvrtc-11/libnvrtc.so.13", "absent"));
	CU_ASSERT_TRUE(ld_attempt(&c, "nvrtc-11/libnvrtc.so.12", "absent"));
	CU_ASSERT_EQUAL(ld_long(&c, "attempts"), 3);
}

/* A copy the process already loaded beats pip wheels, CUDA_HOME, loader. */
static void test_already_loaded(void)
{
	struct ts_child c;
	const char *env[] = {ld_fmt("TEST_STUB=%s", in_tree("wheel13/site-packages/pkg/lib/"
							    "libnvrtc_stub.so")),
			     ld_fmt("TEST_PRELOAD=%s", ld_fake("nvrtc-12")),
			     ld_fmt("CUDA_HOME=%s", in_tree("home13")),
			     ld_fmt("LD_LIBRARY_PATH=%s", ld_fake_dir("nvrtc-13")), NULL};

	if (ld_run_probe(env, &c))
		return;
	CU_ASSERT_TRUE(ld_is(&c, "preload", "ok"));
	LD_EXPECT_FAKE(&c, CUDASTUB_SOURCE_ALREADY_LOADED, 12, 4, "fake-nvrtc-12");
	CU_ASSERT_TRUE(ld_is(&c, "path", ld_fake("nvrtc-12")));
	/* the fake's constructor ran once: the stub reused it, did not reload */
	CU_ASSERT_EQUAL(ld_long(&c, "fake_loads"), 1);
}

/* Already loaded is by SONAME too: a copy loaded under a file name of its
 * own (a packager's renamed library) is the one the stub takes, not the
 * 13 on LD_LIBRARY_PATH. */
static void test_already_loaded_renamed(void)
{
	struct ts_child c;
	const char *env[] = {ld_fmt("TEST_PRELOAD=%s", in_tree("renamed/libnvrtc-renamed.so")),
			     ld_fmt("LD_LIBRARY_PATH=%s", ld_fake_dir("nvrtc-13")), NULL};

	if (ld_run_probe(env, &c))
		return;
	CU_ASSERT_TRUE(ld_is(&c, "preload", "ok"));
	LD_EXPECT_FAKE(&c, CUDASTUB_SOURCE_ALREADY_LOADED, 12, 4, "fake-nvrtc-12");
	CU_ASSERT_TRUE(ld_has(&c, "path", "renamed/libnvrtc-renamed.so"));
	CU_ASSERT_EQUAL(ld_long(&c, "fake_loads"), 1);
}

/* pip's CUDA 13 layout: site-packages/nvidia/cu13/lib beside the stub. */
static void test_pip_wheel_cu13(void)
{
	struct ts_child c;
	const char *env[] = {ld_fmt("TEST_STUB=%s", in_tree("wheel13/site-packages/pkg/lib/"
							    "libnvrtc_stub.so")),
			     ld_fmt("CUDA_HOME=%s", in_tree("home12")),
			     ld_fmt("LD_LIBRARY_PATH=%s", ld_fake_dir("nvrtc-12")), NULL};

	if (ld_run_probe(env, &c))
		return;
	LD_EXPECT_FAKE(&c, CUDASTUB_SOURCE_PIP_WHEEL, 13, 0, "fake-nvrtc-13");
	CU_ASSERT_TRUE(ld_is(&c, "path",
			     in_tree("wheel13/site-packages/nvidia/cu13/lib/"
				     "libnvrtc.so.13")));
}

/* pip's CUDA 12 layout wins over a newer major in a later step. */
static void test_pip_wheel_cuda_nvrtc_12(void)
{
	struct ts_child c;
	const char *env[] = {ld_fmt("TEST_STUB=%s", in_tree("wheel12/site-packages/pkg/lib/"
							    "libnvrtc_stub.so")),
			     ld_fmt("CUDA_HOME=%s", in_tree("home13")),
			     ld_fmt("LD_LIBRARY_PATH=%s", ld_fake_dir("nvrtc-13")), NULL};

	if (ld_run_probe(env, &c))
		return;
	LD_EXPECT_FAKE(&c, CUDASTUB_SOURCE_PIP_WHEEL, 12, 4, "fake-nvrtc-12");
	CU_ASSERT_TRUE(ld_is(&c, "path",
			     in_tree("wheel12/site-packages/nvidia/cuda_nvrtc/lib/"
				     "libnvrtc.so.12")));
}

static void test_cuda_home_beats_ld_library_path(void)
{
	struct ts_child c;
	const char *env[] = {ld_fmt("CUDA_HOME=%s", in_tree("home12")),
			     ld_fmt("LD_LIBRARY_PATH=%s", ld_fake_dir("nvrtc-13")), NULL};

	if (ld_run_probe(env, &c))
		return;
	LD_EXPECT_FAKE(&c, CUDASTUB_SOURCE_CUDA_HOME, 12, 4, "fake-nvrtc-12");
	CU_ASSERT_TRUE(ld_is(&c, "path", in_tree("home12/lib64/libnvrtc.so.12")));
}

static void test_cuda_path_when_cuda_home_unset(void)
{
	struct ts_child c;
	const char *env[] = {ld_fmt("CUDA_PATH=%s", in_tree("path11")),
			     ld_fmt("LD_LIBRARY_PATH=%s", ld_fake_dir("nvrtc-13")), NULL};

	if (ld_run_probe(env, &c))
		return;
	LD_EXPECT_FAKE(&c, CUDASTUB_SOURCE_CUDA_HOME, 11, 8, "fake-nvrtc-11");
	CU_ASSERT_TRUE(ld_is(&c, "path", in_tree("path11/lib/libnvrtc.so.11.2")));
}

static void test_cuda_home_before_cuda_path(void)
{
	struct ts_child c;
	const char *env[] = {ld_fmt("CUDA_HOME=%s", in_tree("home12")),
			     ld_fmt("CUDA_PATH=%s", in_tree("home13")), NULL};

	if (ld_run_probe(env, &c))
		return;
	LD_EXPECT_FAKE(&c, CUDASTUB_SOURCE_CUDA_HOME, 12, 4, "fake-nvrtc-12");
}

/* A CUDA_HOME with nothing in it falls through to CUDA_PATH. */
static void test_empty_cuda_home_falls_through(void)
{
	struct ts_child c;
	const char *env[] = {ld_fmt("CUDA_HOME=%s", in_tree("empty")),
			     ld_fmt("CUDA_PATH=%s", in_tree("path11")), NULL};

	if (ld_run_probe(env, &c))
		return;
	LD_EXPECT_FAKE(&c, CUDASTUB_SOURCE_CUDA_HOME, 11, 8, "fake-nvrtc-11");
	CU_ASSERT_TRUE(ld_attempt(&c, in_tree("empty/lib64/libnvrtc.so.13"), "absent"));
}

/* Nothing earlier: the loader's search finds the fake in LD_LIBRARY_PATH
 * (before ld.so.cache, which holds this machine's real libnvrtc.so.13). */
static void test_ld_library_path(void)
{
	struct ts_child c;
	const char *env[] = {ld_fmt("LD_LIBRARY_PATH=%s", ld_fake_dir("nvrtc-13")), NULL};

	if (ld_run_probe(env, &c))
		return;
	LD_EXPECT_FAKE(&c, CUDASTUB_SOURCE_LOADER_SEARCH, 13, 0, "fake-nvrtc-13");
	CU_ASSERT_TRUE(ld_is(&c, "path", ld_fake("nvrtc-13")));
}

static void test_ld_library_path_pinned_12(void)
{
	struct ts_child c;
	const char *env[] = {ld_fmt("LD_LIBRARY_PATH=%s", ld_fake_dir("nvrtc-12")),
			     "CUDASTUB_NVRTC_MAJOR=12", NULL};

	if (ld_run_probe(env, &c))
		return;
	LD_EXPECT_FAKE(&c, CUDASTUB_SOURCE_LOADER_SEARCH, 12, 4, "fake-nvrtc-12");
}

static const struct ts_test tests[] = {
	{"override file beats everything", test_override_file_beats_everything},
	{"override folder beats everything", test_override_dir_beats_everything},
	{"already loaded", test_already_loaded},
	{"already loaded under another file name", test_already_loaded_renamed},
	{"pip wheel nvidia/cu13", test_pip_wheel_cu13},
	{"pip wheel nvidia/cuda_nvrtc (12)", test_pip_wheel_cuda_nvrtc_12},
	{"CUDA_HOME beats LD_LIBRARY_PATH", test_cuda_home_beats_ld_library_path},
	{"CUDA_PATH when CUDA_HOME unset", test_cuda_path_when_cuda_home_unset},
	{"CUDA_HOME before CUDA_PATH", test_cuda_home_before_cuda_path},
	{"empty CUDA_HOME falls through", test_empty_cuda_home_falls_through},
	{"LD_LIBRARY_PATH", test_ld_library_path},
	{"LD_LIBRARY_PATH, pinned to 12", test_ld_library_path_pinned_12},
	{NULL, NULL},
};

static const struct ts_suite suite = {"search_order", suite_init, suite_clean, tests};

int main(int argc, char **argv)
{
	static const struct ts_scenario scenarios[] = {LD_PROBE_SCENARIO, {NULL, NULL}};

	return ts_main_suite(argc, argv, scenarios, &suite);
}

/*
 * Newest major first within a step, and CUDASTUB_NVRTC_MAJOR pins.
 *
 *   T/all/                 libnvrtc.so.13, .so.12 and .so.11.2 (the fakes)
 *   T/home/lib64/          the same three, as a CUDA_HOME root
 */
#define _GNU_SOURCE
#include "loader_test.h"

#include <CUnit/CUnit.h>
#include <stdio.h>

static char tree[1024];

static const char *in_tree(const char *rel)
{
	return ld_fmt("%s/%s", tree, rel);
}

static int place_all(const char *rel_dir)
{
	static const char *const variants[] = {"nvrtc-13", "nvrtc-12", "nvrtc-11"};
	char dir[2048];
	size_t i;

	snprintf(dir, sizeof dir, "%s/%s", tree, rel_dir);
	if (ld_mkdirs(dir) != 0)
		return -1;
	for (i = 0; i < sizeof variants / sizeof *variants; i++)
		if (ld_link(ld_fake(variants[i]),
			    ld_fmt("%s/%s", dir, ld_fake_file_name(variants[i]))) != 0)
			return -1;
	return 0;
}

static int suite_init(void)
{
	if (!ld_tmpdir(tree, sizeof tree))
		return -1;
	return place_all("all") || place_all("home/lib64");
}

static int suite_clean(void)
{
	ts_remove_tree(tree);
	return 0;
}

static void test_newest_first_in_override_folder(void)
{
	struct ts_child c;
	const char *env[] = {ld_fmt("CUDASTUB_NVRTC_PATH=%s", in_tree("all")), NULL};

	if (ld_run_probe(env, &c))
		return;
	LD_EXPECT_FAKE(&c, CUDASTUB_SOURCE_OVERRIDE, 13, 0, "fake-nvrtc-13");
	CU_ASSERT_EQUAL(ld_long(&c, "attempts"), 1);
}

static void test_newest_first_in_cuda_home(void)
{
	struct ts_child c;
	const char *env[] = {ld_fmt("CUDA_HOME=%s", in_tree("home")), NULL};

	if (ld_run_probe(env, &c))
		return;
	LD_EXPECT_FAKE(&c, CUDASTUB_SOURCE_CUDA_HOME, 13, 0, "fake-nvrtc-13");
	CU_ASSERT_TRUE(ld_is(&c, "path", in_tree("home/lib64/libnvrtc.so.13")));
}

static void test_pin_12(void)
{
	struct ts_child c;
	const char *env[] = {ld_fmt("CUDASTUB_NVRTC_PATH=%s", in_tree("all")),
			     "CUDASTUB_NVRTC_MAJOR=12", NULL};

	if (ld_run_probe(env, &c))
		return;
	LD_EXPECT_FAKE(&c, CUDASTUB_SOURCE_OVERRIDE, 12, 4, "fake-nvrtc-12");
	/* the pin skips 13 without opening it */
	CU_ASSERT_FALSE(ld_attempt(&c, "libnvrtc.so.13", ""));
	CU_ASSERT_EQUAL(ld_long(&c, "dlopen_calls"), 1);
}

static void test_pin_11(void)
{
	struct ts_child c;
	const char *env[] = {ld_fmt("CUDASTUB_NVRTC_PATH=%s", in_tree("all")),
			     "CUDASTUB_NVRTC_MAJOR=11", NULL};

	if (ld_run_probe(env, &c))
		return;
	LD_EXPECT_FAKE(&c, CUDASTUB_SOURCE_OVERRIDE, 11, 8, "fake-nvrtc-11");
	CU_ASSERT_TRUE(ld_has(&c, "path", "libnvrtc.so.11.2"));
}

/* A pin applies to every step, not only the override. */
static void test_pin_12_in_cuda_home(void)
{
	struct ts_child c;
	const char *env[] = {ld_fmt("CUDA_HOME=%s", in_tree("home")),
			     ld_fmt("LD_LIBRARY_PATH=%s", ld_fake_dir("nvrtc-13")),
			     "CUDASTUB_NVRTC_MAJOR=12", NULL};

	if (ld_run_probe(env, &c))
		return;
	LD_EXPECT_FAKE(&c, CUDASTUB_SOURCE_CUDA_HOME, 12, 4, "fake-nvrtc-12");
}

static void check_bad_pin(const char *pin)
{
	struct ts_child c;
	const char *env[] = {ld_fmt("CUDASTUB_NVRTC_PATH=%s", in_tree("all")),
			     ld_fmt("CUDASTUB_NVRTC_MAJOR=%s", pin), NULL};

	if (ld_run_probe(env, &c))
		return;
	LD_EXPECT_NOT_FOUND(&c);
	CU_ASSERT_TRUE(ld_has(&c, "error", "CUDASTUB_NVRTC_MAJOR"));
	CU_ASSERT_TRUE(ld_has(&c, "error", pin));
	CU_ASSERT_TRUE(ld_has(&c, "errstr.1034", "CUDASTUB_NVRTC_MAJOR"));
	CU_ASSERT_EQUAL(ld_long(&c, "dlopen_calls"), 0);
}

static void test_bad_pin_14(void)
{
	check_bad_pin("14");
}

static void test_bad_pin_abc(void)
{
	check_bad_pin("abc");
}

static void test_bad_pin_trailing_junk(void)
{
	check_bad_pin("12x");
}

/* The override names a 13, the pin says 12: an error, no fallback. */
static void test_pin_against_override_file(void)
{
	struct ts_child c;
	const char *env[] = {ld_fmt("CUDASTUB_NVRTC_PATH=%s", ld_fake("nvrtc-13")),
			     ld_fmt("CUDA_HOME=%s", in_tree("home")), "CUDASTUB_NVRTC_MAJOR=12",
			     NULL};

	if (ld_run_probe(env, &c))
		return;
	CU_ASSERT_EQUAL(ld_long(&c, "version_rc"), CUDASTUB_NVRTC_ERROR_STUB_LIBRARY);
	CU_ASSERT_EQUAL(ld_long(&c, "state"), CUDASTUB_STATE_OVERRIDE_FAILED);
	CU_ASSERT_TRUE(ld_attempt(&c, ld_fake("nvrtc-13"), "CUDASTUB_NVRTC_MAJOR=12"));
	CU_ASSERT_TRUE(ld_has(&c, "error", "CUDASTUB_NVRTC_PATH"));
	CU_ASSERT_EQUAL(ld_long(&c, "attempts"), 1);
}

static const struct ts_test tests[] = {
	{"newest first in an override folder", test_newest_first_in_override_folder},
	{"newest first in CUDA_HOME", test_newest_first_in_cuda_home},
	{"CUDASTUB_NVRTC_MAJOR=12", test_pin_12},
	{"CUDASTUB_NVRTC_MAJOR=11", test_pin_11},
	{"pin applies to CUDA_HOME", test_pin_12_in_cuda_home},
	{"invalid pin 14", test_bad_pin_14},
	{"invalid pin abc", test_bad_pin_abc},
	{"invalid pin 12x", test_bad_pin_trailing_junk},
	{"pin against an override file", test_pin_against_override_file},
	{NULL, NULL},
};

static const struct ts_suite suite = {"major_order", suite_init, suite_clean, tests};

int main(int argc, char **argv)
{
	static const struct ts_scenario scenarios[] = {LD_PROBE_SCENARIO, {NULL, NULL}};

	return ts_main_suite(argc, argv, scenarios, &suite);
}

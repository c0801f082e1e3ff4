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

/* A pin the stub refuses: no search, and the error names the variable
 * (each case checks that it names the pin too). */
static const struct ld_check bad_pin_refused[] = {
	{LD_HAS, "error", "CUDASTUB_NVRTC_MAJOR"},
	{LD_HAS, "errstr.1034", "CUDASTUB_NVRTC_MAJOR"},
	{LD_IS, "dlopen_calls", "0"},
	{0},
};

static const struct ld_probe_case cases[] = {
	{.name = "newest first in an override folder",
	 .env = {"CUDASTUB_NVRTC_PATH={tree}/all"},
	 .outcome = LD_LOADS(13, 0, CUDASTUB_SOURCE_OVERRIDE),
	 .checks = {{LD_IS, "attempts", "1"}}},
	{.name = "newest first in CUDA_HOME",
	 .env = {"CUDA_HOME={tree}/home"},
	 .outcome = LD_LOADS(13, 0, CUDASTUB_SOURCE_CUDA_HOME),
	 .checks = {{LD_IS, "path", "{tree}/home/lib64/libnvrtc.so.13"}}},
	/* the pin skips 13 without opening it */
	{.name = "CUDASTUB_NVRTC_MAJOR=12",
	 .env = {"CUDASTUB_NVRTC_PATH={tree}/all", "CUDASTUB_NVRTC_MAJOR=12"},
	 .outcome = LD_LOADS(12, 4, CUDASTUB_SOURCE_OVERRIDE),
	 .checks = {{LD_NO_ATTEMPT, "libnvrtc.so.13", ""}, {LD_IS, "dlopen_calls", "1"}}},
	{.name = "CUDASTUB_NVRTC_MAJOR=11",
	 .env = {"CUDASTUB_NVRTC_PATH={tree}/all", "CUDASTUB_NVRTC_MAJOR=11"},
	 .outcome = LD_LOADS(11, 8, CUDASTUB_SOURCE_OVERRIDE),
	 .checks = {{LD_HAS, "path", "libnvrtc.so.11.2"}}},
	/* A pin applies to every step, not only the override. */
	{.name = "pin applies to CUDA_HOME",
	 .env = {"CUDA_HOME={tree}/home", "LD_LIBRARY_PATH={fakedir nvrtc-13}",
		 "CUDASTUB_NVRTC_MAJOR=12"},
	 .outcome = LD_LOADS(12, 4, CUDASTUB_SOURCE_CUDA_HOME)},
	{.name = "invalid pin 14",
	 .env = {"CUDASTUB_NVRTC_PATH={tree}/all", "CUDASTUB_NVRTC_MAJOR=14"},
	 .outcome = LD_ENDS(CUDASTUB_STATE_NOT_FOUND),
	 .checks = {{LD_HAS, "error", "14"}},
	 .shared = bad_pin_refused},
	{.name = "invalid pin abc",
	 .env = {"CUDASTUB_NVRTC_PATH={tree}/all", "CUDASTUB_NVRTC_MAJOR=abc"},
	 .outcome = LD_ENDS(CUDASTUB_STATE_NOT_FOUND),
	 .checks = {{LD_HAS, "error", "abc"}},
	 .shared = bad_pin_refused},
	{.name = "invalid pin 12x",
	 .env = {"CUDASTUB_NVRTC_PATH={tree}/all", "CUDASTUB_NVRTC_MAJOR=12x"},
	 .outcome = LD_ENDS(CUDASTUB_STATE_NOT_FOUND),
	 .checks = {{LD_HAS, "error", "12x"}},
	 .shared = bad_pin_refused},
	/* The override names a 13, the pin says 12: an error, no fallback. */
	{.name = "pin against an override file",
	 .env = {"CUDASTUB_NVRTC_PATH={fake nvrtc-13}", "CUDA_HOME={tree}/home",
		 "CUDASTUB_NVRTC_MAJOR=12"},
	 .outcome = LD_ENDS(CUDASTUB_STATE_OVERRIDE_FAILED),
	 .checks = {{LD_ATTEMPT, "{fake nvrtc-13}", "CUDASTUB_NVRTC_MAJOR=12"},
		    {LD_HAS, "error", "CUDASTUB_NVRTC_PATH"},
		    {LD_IS, "attempts", "1"}}},
	{.name = NULL},
};

static void run_case(const void *row)
{
	ld_run_probe_case(row, tree);
}

static const struct ts_suite suite = {"major_order", suite_init, suite_clean, NULL};

int main(int argc, char **argv)
{
	static const struct ts_scenario scenarios[] = {LD_PROBE_SCENARIO, {NULL, NULL}};

	return ld_main_rows(argc, argv, scenarios, &suite, cases, sizeof *cases, run_case);
}

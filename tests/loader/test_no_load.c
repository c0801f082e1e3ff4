/*
 * Loading the stub loads nothing NVIDIA: this binary links libnvrtc_stub.so
 * as a program would, and /proc/self/maps shows no libnvrtc until the first
 * call. Asking the stub for its info does not load either.
 */
#define _GNU_SOURCE
#include "loader_test.h"

#include <CUnit/CUnit.h>
#include <nvrtc.h>
#include <stdio.h>
#include <string.h>

/* 1 if a mapping's path contains part. */
static int mapped(const char *part)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];
	int found = 0;

	if (!f)
		return -1;
	while (!found && fgets(line, sizeof line, f))
		found = strstr(line, part) != NULL;
	fclose(f);
	return found;
}

/* Any NVIDIA NVRTC file, real or fake: libnvrtc.so.N or libnvrtc-builtins. */
static int nvrtc_mapped(void)
{
	return mapped("/libnvrtc.so") || mapped("/libnvrtc-builtins");
}

static int linked(void)
{
	const cudastub_library_info *info;
	int major = -1, minor = -1;

	printf("stub_mapped=%d\n", mapped("/libnvrtc_stub_cu"));
	printf("nvrtc_at_start=%d\n", nvrtc_mapped());
	info = cudastub_nvrtc_info();
	printf("state_before=%d\n", (int)info->state);
	printf("dlopen_calls_before=%lu\nsearch_runs_before=%lu\n", info->dlopen_calls,
	       info->search_runs);
	printf("unified_nvrtc=%d\n", cudastub_info(CUDASTUB_LIB_NVRTC) == info);
	printf("unified_cudart=%d\n", cudastub_info(CUDASTUB_LIB_CUDART) != NULL);
	printf("nvrtc_after_info=%d\n", nvrtc_mapped());
	printf("version_rc=%d\n", (int)nvrtcVersion(&major, &minor));
	printf("major=%d\nminor=%d\n", major, minor);
	printf("nvrtc_after_call=%d\n", nvrtc_mapped());
	printf("fake_after_call=%d\n", mapped("/tests/nvrtc/fakes/nvrtc-13/libnvrtc.so.13"));
	fflush(stdout);
	return 0;
}

static void test_nothing_loaded_until_first_call(void)
{
	const char *env[] = {ld_fmt("CUDASTUB_NVRTC_PATH=%s", ld_fake("nvrtc-13")), NULL};
	struct ts_child c;

	CU_ASSERT_EQUAL_FATAL(ts_run_child("linked", env, &c), 0);
	CU_ASSERT_EQUAL(c.exit_code, 0);
	CU_ASSERT_EQUAL(ld_long(&c, "stub_mapped"), 1);
	CU_ASSERT_EQUAL(ld_long(&c, "nvrtc_at_start"), 0);
	CU_ASSERT_EQUAL(ld_long(&c, "state_before"), CUDASTUB_STATE_NOT_TRIED);
	CU_ASSERT_EQUAL(ld_long(&c, "dlopen_calls_before"), 0);
	CU_ASSERT_EQUAL(ld_long(&c, "search_runs_before"), 0);
	CU_ASSERT_EQUAL(ld_long(&c, "unified_nvrtc"), 1);
	CU_ASSERT_EQUAL(ld_long(&c, "unified_cudart"), 0);
	CU_ASSERT_EQUAL(ld_long(&c, "nvrtc_after_info"), 0);
	CU_ASSERT_EQUAL(ld_long(&c, "version_rc"), 0);
	CU_ASSERT_EQUAL(ld_long(&c, "major"), 13);
	CU_ASSERT_EQUAL(ld_long(&c, "nvrtc_after_call"), 1);
	CU_ASSERT_EQUAL(ld_long(&c, "fake_after_call"), 1);
}

TS_TEST(test_nothing_loaded_until_first_call, "nothing loaded until the first call");

static const struct ts_scenario scenarios[] = {{"linked", linked}, {NULL, NULL}};

TS_MAIN_SUITE("no_load", NULL, NULL, scenarios)

/*
 * A present library that lacks one function (the nvrtc-13-noptx fake):
 * that function returns CUDASTUB_NVRTC_ERROR_NOT_FOUND and touches
 * nothing; its neighbours still forward; the error string explains.
 */
#define _GNU_SOURCE
#include "loader_test.h"

#include <CUnit/CUnit.h>

static void test_lacking_function_returns_not_found(void)
{
	struct ts_child c;
	const char *env[] = {ld_fmt("CUDASTUB_NVRTC_PATH=%s", ld_fake("nvrtc-13-noptx")), NULL};

	if (ld_run_probe(env, &c))
		return;
	LD_EXPECT_FAKE(&c, CUDASTUB_SOURCE_OVERRIDE, 13, 0, "untouched");
	CU_ASSERT_EQUAL(ld_long(&c, "ptx_rc"), CUDASTUB_NVRTC_ERROR_NOT_FOUND);
	/* nvrtcGetPTXSize is exported: forwarded, the fake's tag size */
	CU_ASSERT_EQUAL(ld_long(&c, "ptx_size_rc"), 0);
	CU_ASSERT_EQUAL(ld_long(&c, "ptx_size"), (long)sizeof "fake-nvrtc-13-noptx");
}

TS_TEST(test_lacking_function_returns_not_found, "lacking nvrtcGetPTX returns 1500");

static void test_error_strings_with_library(void)
{
	struct ts_child c;
	const char *env[] = {ld_fmt("CUDASTUB_NVRTC_PATH=%s", ld_fake("nvrtc-13-noptx")), NULL};

	if (ld_run_probe(env, &c))
		return;
	CU_ASSERT_TRUE(ld_has(&c, "errstr.1500", "cudastub"));
	CU_ASSERT_TRUE(ld_has(&c, "errstr.1500", "does not export"));
	CU_ASSERT_TRUE(ld_has(&c, "errstr.1801", "cudastub"));
	CU_ASSERT_TRUE(ld_has(&c, "errstr.1801", "ABI"));
	/* NVRTC's own codes are the loaded library's answer */
	CU_ASSERT_TRUE(ld_is(&c, "errstr.5", "FAKE_ERROR"));
}

TS_TEST(test_error_strings_with_library, "error strings with a library loaded");

static const struct ts_scenario scenarios[] = {LD_PROBE_SCENARIO, {NULL, NULL}};

TS_MAIN_SUITE("missing_symbol", NULL, NULL, scenarios)

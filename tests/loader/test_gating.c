/*
 * Version gating. Every fake exports nvrtcGetPCHHeapSize, which writes
 * major*1000+minor. The cases run the 13-ABI stub in every build (a build
 * of an older ABI makes one). Its gating row says: same ABI in 13, may
 * appear in a later 12.x, absent from every 11.x. So it forwards to 13 and
 * to 12 (the fake 12 has it), and never calls the 11: the output keeps
 * its sentinel, which the fake would have overwritten with 11008.
 */
#define _GNU_SOURCE
#include "loader_test.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <unistd.h>

/* The 13-ABI stub: the build's own, or the one a build of an older ABI
 * makes (tests/abi_stubs.cmake). */
static const char *stub_13(void)
{
	return LD_ABI_MAJOR == 13 ? LD_STUB_PATH
				  : ld_fmt("%s/tests/abi-13/libnvrtc_stub.so", ts_build_dir());
}

static void check_pch(const char *variant, int major, int minor, long want_rc, long want_pch)
{
	struct ts_child c;
	const char *env[] = {ld_fmt("CUDASTUB_NVRTC_PATH=%s", ld_fake(variant)),
			     ld_fmt("TEST_STUB=%s", stub_13()), NULL};

	if (ld_run_probe(env, &c))
		return;
	LD_EXPECT_FAKE(&c, CUDASTUB_SOURCE_OVERRIDE, major, minor, ld_fmt("fake-%s", variant));
	CU_ASSERT_EQUAL(ld_long(&c, "pch_rc"), want_rc);
	CU_ASSERT_EQUAL(ld_long(&c, "pch"), want_pch);
}

static void test_pch_forwards_to_13(void)
{
	check_pch("nvrtc-13", 13, 0, 0, 13000);
}

static void test_pch_forwards_to_12_if_present(void)
{
	check_pch("nvrtc-12", 12, 4, 0, 12004);
}

static void test_pch_never_called_in_11(void)
{
	check_pch("nvrtc-11", 11, 8, CUDASTUB_NVRTC_ERROR_NOT_FOUND, LD_PCH_SENTINEL);
}

static void register_suites(void)
{
	CU_pSuite s = CU_add_suite("gating", NULL, NULL);

	if (access(stub_13(), R_OK) != 0) {
		ts_unavailable(ld_fmt(
			"%s was not built (no CUDA 13 headers: tests/abi_stubs.cmake)", stub_13()));
		return;
	}
	CU_add_test(s, "nvrtcGetPCHHeapSize forwards to 13", test_pch_forwards_to_13);
	CU_add_test(s, "nvrtcGetPCHHeapSize forwards to 12", test_pch_forwards_to_12_if_present);
	CU_add_test(s, "nvrtcGetPCHHeapSize never calls 11", test_pch_never_called_in_11);
}

int main(int argc, char **argv)
{
	static const struct ts_scenario scenarios[] = {LD_PROBE_SCENARIO, {NULL, NULL}};

	return ts_main(argc, argv, scenarios, register_suites);
}

/*
 * The real NVRTC suite: one CUnit suite per selection (11.8, 12.4, 13.0,
 * each by CUDASTUB_NVRTC_PATH and by CUDASTUB_NVRTC_MAJOR), the same six
 * tests in each. A suite's init function picks its selection.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "real_nvrtc.h"

static const struct rn_selection *sel;

#define RUN(scenario)                                                                              \
	struct ts_child child;                                                                     \
	char file[PATH_MAX];                                                                       \
	if (!rn_run(sel, scenario, &child, file, sizeof file))                                     \
	return

/* 1: the version through the stub, and what the stub says it loaded. */
static void test_version(void)
{
	char real[PATH_MAX];

	RUN("version");
	RN_EXPECT_INT(sel, &child, "state_before", CUDASTUB_STATE_NOT_TRIED);
	RN_EXPECT_INT(sel, &child, "version_rc", NVRTC_SUCCESS);
	RN_EXPECT(sel, &child, "version", sel->version);
	RN_EXPECT(sel, &child, "direct_version", sel->version);
	RN_EXPECT_INT(sel, &child, "info_state", CUDASTUB_STATE_LOADED);
	RN_EXPECT(sel, &child, "info_version", sel->version);
	RN_EXPECT_INT(sel, &child, "info_source",
		      sel->by_major ? CUDASTUB_SOURCE_LOADER_SEARCH : CUDASTUB_SOURCE_OVERRIDE);
	RN_EXPECT_INT(sel, &child, "search_runs", 1);
	RN_EXPECT_INT(sel, &child, "direct_already_loaded", 1);
	/* The builtins wait for NVRTC's first compile where NVRTC finds them
	 * itself (LD_LIBRARY_PATH names the fixtures' folders); the fixtures'
	 * by path are on no path NVRTC searches, and are loaded at once. The
	 * toolkit's may be in ld.so.cache: then either is right. */
	if (sel->by_major) {
		RN_EXPECT_INT(sel, &child, "builtins_loaded", 0);
	} else if (sel->major != 13) {
		RN_EXPECT_INT(sel, &child, "builtins_loaded", 1);
		RN_EXPECT_INT(sel, &child, "builtins_beside_library", 1);
	} else if (ts_value(&child, "builtins_loaded") &&
		   strcmp(ts_value(&child, "builtins_loaded"), "0")) {
		RN_EXPECT_INT(sel, &child, "builtins_beside_library", 1);
	}
	if (!sel->by_major)
		RN_EXPECT(sel, &child, "info_path", file);
	CU_ASSERT_PTR_NOT_NULL_FATAL(realpath(file, real));
	RN_EXPECT(sel, &child, "info_path_real", real);
}

/* 2: PTX through the stub is byte for byte what the library gives. */
static void test_ptx(void)
{
	RUN("ptx");
	RN_EXPECT_INT(sel, &child, "stub_create", NVRTC_SUCCESS);
	RN_EXPECT_INT(sel, &child, "stub_compile", NVRTC_SUCCESS);
	RN_EXPECT_INT(sel, &child, "stub_get", NVRTC_SUCCESS);
	RN_EXPECT_INT(sel, &child, "direct_compile", NVRTC_SUCCESS);
	RN_EXPECT_INT(sel, &child, "direct_repeat_identical", 1);
	RN_EXPECT_SAME(sel, &child, "stub_size", "direct_size");
	RN_EXPECT_SAME(sel, &child, "stub_fnv", "direct_fnv");
	RN_EXPECT_INT(sel, &child, "ptx_identical", 1);
	RN_EXPECT_INT(sel, &child, "ptx_has_entry", 1);
	RN_EXPECT(sel, &child, "ptx_target", "sm_75");
	RN_EXPECT(sel, &child, "ptx_release", sel->version);
	/* whoever loaded them, the compile used the library's own */
	RN_EXPECT_INT(sel, &child, "builtins_loaded", 1);
	RN_EXPECT_INT(sel, &child, "builtins_beside_library", 1);
}

/* 3a: a syntax error gives the same code and log both ways. */
static void test_compile_error(void)
{
	RUN("log");
	RN_EXPECT_INT(sel, &child, "stub_compile", NVRTC_ERROR_COMPILATION);
	RN_EXPECT_INT(sel, &child, "direct_compile", NVRTC_ERROR_COMPILATION);
	RN_EXPECT_SAME(sel, &child, "stub_log_size", "direct_log_size");
	RN_EXPECT_SAME(sel, &child, "stub_log_fnv", "direct_log_fnv");
	RN_EXPECT_INT(sel, &child, "log_identical", 1);
	RN_EXPECT_INT(sel, &child, "log_names_error", 1);
}

/* 3b: nvrtcGetErrorString(0..20) as the library says it. */
static void test_error_strings(void)
{
	RUN("error_strings");
	RN_EXPECT(sel, &child, "errstr_0", "NVRTC_SUCCESS");
	RN_EXPECT(sel, &child, "errstr_6", "NVRTC_ERROR_COMPILATION");
	RN_EXPECT_INT(sel, &child, "errstr_mismatches", 0);
	RN_EXPECT_INT(sel, &child, "errstr_1034_same", 1);
	RN_EXPECT_INT(sel, &child, "errstr_first_mismatch", -1);
	RN_EXPECT_INT(sel, &child, "errstr_named", sel->named_errors);
}

/* 4: a CUBIN for sm_75, deterministic, the same bytes both ways. */
static void test_cubin(void)
{
	RUN("cubin");
	RN_EXPECT_INT(sel, &child, "stub_compile", NVRTC_SUCCESS);
	RN_EXPECT_INT(sel, &child, "stub_get", NVRTC_SUCCESS);
	RN_EXPECT_INT(sel, &child, "cubin_is_elf", 1);
	RN_EXPECT_INT(sel, &child, "direct_repeat_identical", 1);
	RN_EXPECT_SAME(sel, &child, "stub_size", "direct_size");
	RN_EXPECT_SAME(sel, &child, "stub_fnv", "direct_fnv");
	RN_EXPECT_INT(sel, &child, "cubin_identical", 1);
}

/* 5: LTO-IR (12.0+) and the PCH heap (12.8+) by the loaded major. */
static void test_gated(void)
{
	RUN("gated");
	RN_EXPECT_INT(sel, &child, "stub_compile", NVRTC_SUCCESS);
	if (sel->major == 11) {
		RN_EXPECT_INT(sel, &child, "ltoir_stub_rc", CUDASTUB_NVRTC_ERROR_NOT_FOUND);
		RN_EXPECT(sel, &child, "ltoir_direct", "absent");
	} else {
		RN_EXPECT_SAME(sel, &child, "ltoir_stub_rc", "ltoir_direct_rc");
		RN_EXPECT_SAME(sel, &child, "ltoir_stub_size", "ltoir_direct_size");
	}
	if (cudastub_nvrtc_info()->abi_major * 100 + cudastub_nvrtc_info()->abi_minor < 1208) {
		/* headers before 12.8 declare no PCH heap: the stub has none */
		RN_EXPECT(sel, &child, "pch_stub", "absent");
	} else if (sel->major < 13) {
		RN_EXPECT_INT(sel, &child, "pch_stub_rc", CUDASTUB_NVRTC_ERROR_NOT_FOUND);
		RN_EXPECT(sel, &child, "pch_direct", "absent");
	} else {
		RN_EXPECT_INT(sel, &child, "pch_direct_rc", NVRTC_SUCCESS);
		RN_EXPECT_SAME(sel, &child, "pch_stub_rc", "pch_direct_rc");
		RN_EXPECT_SAME(sel, &child, "pch_stub_value", "pch_direct_value");
	}
	RN_EXPECT_INT(sel, &child, "stub_exports_ltoir", 1);
	if (cudastub_nvrtc_info()->abi_major >= 13)
		RN_EXPECT_INT(sel, &child, "stub_exports_nvvm", 0);
	RN_EXPECT_INT(sel, &child, "errstr_not_found_is_stub", 1);
}

static void select_suite(int i)
{
	sel = &rn_selections[i];
}

static const struct ts_test tests[] = {
	{"nvrtcVersion and cudastub_nvrtc_info", test_version},
	{"PTX for compute_75 matches the library's", test_ptx},
	{"a syntax error: same code and log", test_compile_error},
	{"nvrtcGetErrorString 0..20 matches", test_error_strings},
	{"CUBIN for sm_75 matches the library's", test_cubin},
	{"LTO-IR and PCH heap gated by major", test_gated},
	{NULL, NULL},
};

static void suite_name(int i, char *buf, size_t size)
{
	snprintf(buf, size, "real nvrtc %s", rn_selections[i].name);
}

static void register_suites(void)
{
	ts_add_selected_suites(RN_SELECTION_COUNT, suite_name, select_suite, tests);
}

int main(int argc, char **argv)
{
	return ts_main(argc, argv, rn_scenarios, register_suites);
}

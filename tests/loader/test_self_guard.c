/*
 * The stub never loads itself, nor another cudastub build.
 *
 *   T/copy13/libnvrtc.so.13    a copy of libnvrtc_stub.so under the real
 *                              name, for LD_LIBRARY_PATH to find first
 *   T/stubcopy/libnvrtc_stub.so  a plain copy, as an override
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

static int suite_init(void)
{
	if (!ld_tmpdir(tree, sizeof tree))
		return -1;
	if (ld_mkdirs(in_tree("copy13")) || ld_mkdirs(in_tree("stubcopy")))
		return -1;
	return ts_copy_file(ld_stub(), in_tree("copy13/libnvrtc.so.13")) ||
	       ts_copy_file(ld_stub(), in_tree("stubcopy/libnvrtc_stub.so"));
}

static int suite_clean(void)
{
	ts_remove_tree(tree);
	return 0;
}

/* How ldconfig -p marks a library of this process's architecture. */
#if defined(__aarch64__)
#define LDCONFIG_ARCH "libc6,AArch64"
#else
#define LDCONFIG_ARCH "libc6,x86-64"
#endif

/* True when ld.so.cache lists a real libnvrtc.so.13 of this architecture
 * (this machine's toolkit registers one for x86-64; under qemu-user the
 * aarch64 stub reads the same cache and skips that one). */
static int ldcache_has_nvrtc13(void)
{
	FILE *p = popen("ldconfig -p 2>/dev/null | grep -qF 'libnvrtc.so.13 (" LDCONFIG_ARCH "'",
			"r");

	return p && pclose(p) == 0;
}

/* The loader's search hands back a stub copy under the newest name. The
 * stub walks past it by hand, ld.so.cache included, so a real 13 the cache
 * knows beats the fake 12 that LD_LIBRARY_PATH offers. */
static void test_copy_under_real_name_is_skipped(void)
{
	struct ts_child c;
	const char *env[] = {
		ld_fmt("LD_LIBRARY_PATH=%s:%s", in_tree("copy13"), ld_fake_dir("nvrtc-12")), NULL};

	if (ld_run_probe(env, &c))
		return;
	CU_ASSERT_TRUE(ld_attempt(&c, "libnvrtc.so.13", "skipped"));
	CU_ASSERT_TRUE(ld_attempt(&c, "libnvrtc.so.13", in_tree("copy13/libnvrtc.so.13")));
	CU_ASSERT_FALSE(ld_has(&c, "path", in_tree("copy13")));
	if (ldcache_has_nvrtc13()) {
		CU_ASSERT_TRUE(ld_is(&c, "source", ld_fmt("%d", CUDASTUB_SOURCE_LOADER_SEARCH)));
		CU_ASSERT_TRUE(ld_is(&c, "info_major", "13"));
		CU_ASSERT_FALSE(ld_has(&c, "path", ld_fake_dir("nvrtc-12")));
	} else {
		LD_EXPECT_FAKE(&c, CUDASTUB_SOURCE_LOADER_SEARCH, 12, 4, "fake-nvrtc-12");
		CU_ASSERT_TRUE(ld_is(&c, "path", ld_fake("nvrtc-12")));
	}
}

/* Same, with the real name's fake further along LD_LIBRARY_PATH: the stub
 * walks the loader's folders by hand to look past its copy. */
static void test_walk_past_copy(void)
{
	struct ts_child c;
	const char *env[] = {
		ld_fmt("LD_LIBRARY_PATH=%s:%s", in_tree("copy13"), ld_fake_dir("nvrtc-13")), NULL};

	if (ld_run_probe(env, &c))
		return;
	CU_ASSERT_TRUE(ld_attempt(&c, in_tree("copy13/libnvrtc.so.13"), "skipped"));
	LD_EXPECT_FAKE(&c, CUDASTUB_SOURCE_LOADER_SEARCH, 13, 0, "fake-nvrtc-13");
	CU_ASSERT_TRUE(ld_is(&c, "path", ld_fake("nvrtc-13")));
}

/* The shim (real SONAME) finds itself already loaded and in the first
 * LD_LIBRARY_PATH folder, skips both, and loads the fake from the second. */
static void test_shim_skips_itself(void)
{
	struct ts_child c;
	/* a shim of an older ABI than 13 would take the newer toolkit's NVRTC
	 * first (newest first), from ld.so.cache: pinned to its own major */
	const char *env[] = {
		ld_fmt("TEST_STUB=%s", ld_shim()),
		ld_fmt("LD_LIBRARY_PATH=%s:%s", ld_shim_dir(),
		       ld_fake_dir(LD_ABI_MAJOR == 11	? "nvrtc-11"
				   : LD_ABI_MAJOR == 12 ? "nvrtc-12"
							: "nvrtc-13")),
		LD_ABI_MAJOR == 13 ? NULL : ld_fmt("CUDASTUB_NVRTC_MAJOR=%d", LD_ABI_MAJOR), NULL};

	if (ld_run_probe(env, &c))
		return;
	CU_ASSERT_TRUE(ld_attempt(&c, "libnvrtc.so", "skipped: resolves to this stub itself"));
	CU_ASSERT_TRUE(ld_attempt(&c, ld_shim(), "skipped: this stub's own file"));
	CU_ASSERT_EQUAL(ld_long(&c, "state"), CUDASTUB_STATE_LOADED);
	CU_ASSERT_EQUAL(ld_long(&c, "source"), CUDASTUB_SOURCE_LOADER_SEARCH);
	CU_ASSERT_EQUAL(ld_long(&c, "major"), LD_ABI_MAJOR);
	CU_ASSERT_EQUAL(ld_long(&c, "fake"), 1);
	CU_ASSERT_TRUE(ld_has(&c, "path", "/tests/nvrtc/fakes/"));
}

static void check_override_refused(const char *override, const char *stub, const char *outcome)
{
	struct ts_child c;
	const char *env[] = {ld_fmt("CUDASTUB_NVRTC_PATH=%s", override),
			     ld_fmt("TEST_STUB=%s", stub), NULL};

	if (ld_run_probe(env, &c))
		return;
	CU_ASSERT_EQUAL(ld_long(&c, "version_rc"), CUDASTUB_NVRTC_ERROR_STUB_LIBRARY);
	CU_ASSERT_EQUAL(ld_long(&c, "state"), CUDASTUB_STATE_OVERRIDE_FAILED);
	CU_ASSERT_EQUAL(ld_long(&c, "search_runs"), 1);
	CU_ASSERT_TRUE(ld_attempt(&c, "", outcome));
	CU_ASSERT_TRUE(ld_has(&c, "errstr.1034", "CUDASTUB_NVRTC_PATH"));
}

static void test_override_is_own_file(void)
{
	check_override_refused(ld_stub(), ld_stub(), "skipped: this stub's own file");
}

static void test_override_is_stub_copy(void)
{
	check_override_refused(in_tree("stubcopy/libnvrtc_stub.so"), ld_stub(),
			       "is a cudastub build");
}

static void test_override_folder_holds_shim_itself(void)
{
	check_override_refused(ld_shim_dir(), ld_shim(), "skipped: this stub's own file");
}

static void register_suites(void)
{
	CU_pSuite s = CU_add_suite("self_guard", suite_init, suite_clean);

	if (LD_ABI_MAJOR == 13) {
		CU_add_test(s, "stub copy as libnvrtc.so.13 is skipped",
			    test_copy_under_real_name_is_skipped);
		CU_add_test(s, "walk past a stub copy", test_walk_past_copy);
	}
	CU_add_test(s, "override names the stub itself", test_override_is_own_file);
	CU_add_test(s, "override names a stub copy", test_override_is_stub_copy);
	if (ld_shim()) {
		CU_add_test(s, "shim skips itself", test_shim_skips_itself);
		CU_add_test(s, "override folder holds the shim itself",
			    test_override_folder_holds_shim_itself);
	}
}

int main(int argc, char **argv)
{
	static const struct ts_scenario scenarios[] = {LD_PROBE_SCENARIO, {NULL, NULL}};

	return ts_main(argc, argv, scenarios, register_suites);
}

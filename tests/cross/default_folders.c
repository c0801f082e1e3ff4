/*
 * On aarch64 the loader's own default folders are aarch64's: step 5 walks
 * the folders the dynamic loader reports for the stub (RTLD_DI_SERINFO),
 * which for an aarch64 process include /usr/lib/aarch64-linux-gnu, where
 * Debian's arm64 packages put libnvrtc, libcudart and libcuda; when none of
 * them holds a file of the name, it asks the loader by name.
 *
 *  - the folders: dlinfo(RTLD_DI_SERINFO) of the stub lists that folder;
 *  - the search, under qemu-user with a root of the test's own (-L T),
 *    which qemu consults first for the paths the process opens:
 *      T/lib -> the cross libc (/usr/aarch64-linux-gnu/lib)
 *      T/usr/lib/aarch64-linux-gnu/libnvrtc.so.12    the fake NVRTC 12
 *    With no variable set, the stub loads the fake as
 *    /usr/lib/aarch64-linux-gnu/libnvrtc.so.12 by the loader's search,
 *    after skipping this host's x86-64 libnvrtc.so.13, when its
 *    ld.so.cache lists one, by its machine. (qemu 7.2 maps open and stat into the root but not
 *    faccessat, so the walk finds no file there and the stub's last resort,
 *    dlopen by name, is what loads it; on an aarch64 machine the walk does.)
 */
#define _GNU_SOURCE
#include "loader_test.h"

#include <CUnit/CUnit.h>
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FOLDER "/usr/lib/aarch64-linux-gnu"

static char tree[1024];

static int suite_init(void)
{
	const char *lib;

	if (!ld_tmpdir(tree, sizeof tree))
		return -1;
	lib = ld_fmt("%s" FOLDER, tree);
	return ld_mkdirs(lib) || ld_link("/usr/aarch64-linux-gnu/lib", ld_fmt("%s/lib", tree)) ||
	       ts_copy_file(ld_fake("nvrtc-12"), ld_fmt("%s/libnvrtc.so.12", lib));
}

static int suite_clean(void)
{
	ts_remove_tree(tree);
	return 0;
}

/* True when this host's ld.so.cache lists an x86-64 libnvrtc.so.13 (the
 * toolkit's), which the aarch64 stub reads too and must skip. */
static int host_cache_has_nvrtc13(void)
{
	FILE *p = popen("ldconfig -p 2>/dev/null | grep -qF 'libnvrtc.so.13 (libc6,x86-64)'", "r");

	return p && pclose(p) == 0;
}

static void test_default_folder(void)
{
	char emulator[256],
		*argv[] = {emulator, "-L", tree, (char *)ts_self(), "--child", "probe", NULL};
	const char *env[] = {ld_fmt("TEST_STUB=%s", ld_stub()), NULL};
	struct ts_child c;

	/* the emulator the suite runs under, with our root instead of its own */
	snprintf(emulator, sizeof emulator, "%.*s", (int)strcspn(ts_emulator(), " "),
		 ts_emulator());
	if (!emulator[0]) {
		ts_not_applicable("not under an emulator: nothing to put a root of our own under");
		return;
	}
	CU_ASSERT_EQUAL_FATAL(ts_run_program(argv, env, NULL, &c), 0);
	CU_ASSERT_EQUAL(c.exit_code, 0);
	if (c.exit_code != 0 || getenv("CUDASTUB_TEST_VERBOSE"))
		fprintf(stderr, "%s\n%s\n", c.out, c.err);
	LD_EXPECT_FAKE(&c, CUDASTUB_SOURCE_LOADER_SEARCH, 12, 4, "fake-nvrtc-12");
	CU_ASSERT_TRUE(ld_is(&c, "path", FOLDER "/libnvrtc.so.12"));
	if (host_cache_has_nvrtc13())
		CU_ASSERT_TRUE(ld_attempt(&c, "libnvrtc.so.13", "wrong architecture: x86-64"));
}

/* The folders cudastub_loader_walk visits for the stub, as it asks. */
static void test_walked_folders(void)
{
	void *stub = dlopen(ld_stub(), RTLD_NOW | RTLD_LOCAL);
	Dl_serinfo size, *info = NULL;
	int found = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(stub);
	CU_ASSERT_EQUAL_FATAL(dlinfo(stub, RTLD_DI_SERINFOSIZE, &size), 0);
	info = malloc(size.dls_size);
	CU_ASSERT_PTR_NOT_NULL_FATAL(info);
	*info = size;
	CU_ASSERT_EQUAL(dlinfo(stub, RTLD_DI_SERINFO, info), 0);
	for (unsigned i = 0; i < info->dls_cnt; i++)
		found |= !strcmp(info->dls_serpath[i].dls_name, FOLDER);
	CU_ASSERT_TRUE(found);
	free(info);
}

static const struct ts_test tests[] = {
	{"the folders step 5 walks include " FOLDER, test_walked_folders},
	{"the loader's search loads from " FOLDER, test_default_folder},
	{NULL, NULL},
};

static const struct ts_suite suite = {"aarch64 default folders", suite_init, suite_clean, tests};

static const struct ts_scenario scenarios[] = {LD_PROBE_SCENARIO, {NULL, NULL}};

int main(int argc, char **argv)
{
	return ts_main_suite(argc, argv, scenarios, &suite);
}

/*
 * A cross build exports what the native build exports: every stub, shim
 * and other-ABI stub the x86-64 build of the same sources made
 * (CUDASTUB_NATIVE_BUILD) against the same file of this (aarch64) build,
 * symbol by symbol, with its kind and version node as nm -D shows them. (A build
 * without assembly forwarders would lose the runtime's exports that no
 * header declares; tests/cudart's wrapper-shape suite counts them.)
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "test_support.h"
#include "ts_elf.h"

#ifndef CROSS_NATIVE_BUILD
#define CROSS_NATIVE_BUILD ""
#endif

/* Every stub and shim the native build made, relative to its folder
 * (lib*_stub.so anywhere, every library under a shim folder), in names;
 * not those of the suites only a native build has (tests/CMakeLists.txt:
 * the real programs' 11.8 set, the GPU suite's copies), nor the builds
 * that e2e_doc_blocks and e2e_no_cuda_build make in their copies of the
 * checkout. */
static int native_stubs(struct ts_names *names)
{
	char cmd[PATH_MAX + 128], line[PATH_MAX];
	FILE *p;

	snprintf(cmd, sizeof cmd,
		 "cd '%s' && find . \\( -path ./tests/real_programs -o -path ./tests/gpu -o -path "
		 "./cudastub-doc-blocks -o -path ./cudastub-no-cuda \\) -prune "
		 "-o \\( -name 'lib*_stub.so' -o -path '*/shim/*' \\) -type f -name '*.so*' -print "
		 "| sort",
		 CROSS_NATIVE_BUILD);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof line, p)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "./", 2))
			ts_names_add(names, line + 2);
	}
	return pclose(p) == 0 ? 0 : -1;
}

static void test_same_exports(void)
{
	struct ts_names files = {0};
	int compared = 0, total = 0;

	if (!CROSS_NATIVE_BUILD[0]) {
		ts_unavailable("no native build to compare with; configure with "
			       "-DCUDASTUB_NATIVE_BUILD=<an x86-64 build folder of these sources>");
		return;
	}
	CU_ASSERT_EQUAL_FATAL(native_stubs(&files), 0);
	/* the three stubs, their shims and their 11.8- and 12.4-ABI builds */
	CU_ASSERT(files.count >= 18);
	for (size_t i = 0; i < files.count; i++) {
		char here[PATH_MAX], there[PATH_MAX], label[PATH_MAX + 32];
		struct ts_names mine = {0}, native = {0};

		snprintf(here, sizeof here, "%s/%s", ts_build_dir(), files.names[i]);
		snprintf(there, sizeof there, "%s/%s", CROSS_NATIVE_BUILD, files.names[i]);
		if (access(here, F_OK) != 0 || access(there, F_OK) != 0) {
			char why[2 * PATH_MAX + 64];

			snprintf(why, sizeof why, "%s or %s missing: build both first", here,
				 there);
			ts_unavailable(why);
			continue;
		}
		CU_ASSERT_EQUAL(ts_names_dynamic_symbols(&mine, here), 0);
		CU_ASSERT_EQUAL(ts_names_dynamic_symbols(&native, there), 0);
		snprintf(label, sizeof label, "%s, this build against the native one",
			 files.names[i]);
		TS_EXPECT_SAME_NAMES(&native, &mine, label);
		CU_ASSERT(mine.count > 10);
		printf("\n  %-40s %4zu exported here, %4zu in the native build", files.names[i],
		       mine.count, native.count);
		compared++;
		total += (int)mine.count;
		ts_names_free(&mine);
		ts_names_free(&native);
	}
	printf("\n  %d files, %d exports, the same in both builds\n", compared, total);
	ts_names_free(&files);
}

TS_TEST(test_same_exports, "every stub exports what the native build's exports");

TS_MAIN_SUITE("cross build exports", NULL, NULL, NULL)

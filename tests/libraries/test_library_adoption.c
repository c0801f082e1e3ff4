/*
 * A library its spec describes alone, adopted the ways the first three
 * are, one instance a library (tests/libraries/CMakeLists.txt): a program
 * linked against NVIDIA's library (the CUDA 13 toolkit's) and
 *   patched   by `cudastub patch`: its DT_NEEDED becomes the stub, the stub
 *             is copied beside it; with no library it prints the stub's
 *             code, with the real one what it printed before;
 *   shimmed   run unchanged with the shim folder first on LD_LIBRARY_PATH:
 *             the shim stands in under NVIDIA's SONAME and finds the real
 *             library behind it, so the program prints what it printed.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_support.h"
#include "ts_elf.h"
#include "ts_files.h"

static struct ts_child out;

/* Runs program with env; its one line of output, or NULL. */
static const char *run(const char *program, const char *const *env)
{
	char *argv[] = {(char *)program, NULL};

	if (ts_run_program(argv, env, NULL, &out) != 0 || out.exit_code != 0) {
		fprintf(stderr, "%s: exit %d\n%s%s\n", program, out.exit_code, out.out, out.err);
		return NULL;
	}
	return out.out;
}

static void test_patched(void)
{
	char dir[PATH_MAX / 2], copy[PATH_MAX], stub[PATH_MAX], no_lib[PATH_MAX + 32];
	char expected[256];
	char *argv[] = {LA_CLI, "patch", copy, NULL};
	const char *env_none[] = {no_lib, NULL}, *line;
	struct ts_names needed = {0};

	if (!ts_tmpdir("library-patch", dir, sizeof dir)) {
		CU_FAIL("no temporary folder");
		return;
	}
	snprintf(copy, sizeof copy, "%s/program", dir);
	CU_ASSERT_EQUAL_FATAL(ts_copy_file(LA_PROGRAM, copy), 0);
	/* what NVIDIA's library answers, before */
	line = run(copy, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(line);
	snprintf(expected, sizeof expected, "%s", line);
	CU_ASSERT_PTR_NOT_NULL(strstr(expected, "rc=0 "));

	CU_ASSERT_EQUAL_FATAL(ts_run_program(argv, NULL, NULL, &out), 0);
	CU_ASSERT_EQUAL(out.exit_code, 0);
	CU_ASSERT_EQUAL(ts_names_dynamic(&needed, copy, "NEEDED"), 0);
	CU_ASSERT_TRUE(ts_names_has(&needed, LA_STUB_NAME));
	CU_ASSERT_FALSE(ts_names_has(&needed, LA_SONAME));
	snprintf(stub, sizeof stub, "%s/%s", dir, LA_STUB_NAME);
	CU_ASSERT_EQUAL(access(stub, F_OK), 0);

	/* no library: the stub's code, outputs 0; or, where its spec says so,
	 * the version of the release its record is from */
	snprintf(no_lib, sizeof no_lib, "%s_PATH=/nonexistent/cudastub-none", LA_ENV);
	line = run(copy, env_none);
	CU_ASSERT_PTR_NOT_NULL(line);
	if (line) {
		char want[64];

		if (*LA_OFFLINE_VERSION)
			snprintf(want, sizeof want, "rc=0 version=%s\n", LA_OFFLINE_VERSION);
		else
			snprintf(want, sizeof want, "rc=%d version=0.0.", LA_NO_LIBRARY);
		CU_ASSERT_PTR_NOT_NULL(strstr(line, want));
	}
	/* the real library, found by the stub's own search: as before */
	line = run(copy, NULL);
	CU_ASSERT_PTR_NOT_NULL(line);
	if (line)
		CU_ASSERT_STRING_EQUAL(line, expected);
	ts_names_free(&needed);
	ts_remove_tree(dir);
}

TS_TEST(test_patched, "cudastub patch: the stub in NVIDIA's place");

static void test_shimmed(void)
{
	char path[PATH_MAX + 32], expected[256];
	const char *env[] = {path, NULL}, *line;

	line = run(LA_PROGRAM, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(line);
	snprintf(expected, sizeof expected, "%s", line);
	snprintf(path, sizeof path, "LD_LIBRARY_PATH=%s", LA_SHIM_DIR);
	line = run(LA_PROGRAM, env);
	CU_ASSERT_PTR_NOT_NULL(line);
	if (line)
		CU_ASSERT_STRING_EQUAL(line, expected);
}

TS_TEST(test_shimmed, "the shim folder first on the path: what NVIDIA's prints");

TS_MAIN_SUITE("library adoption: " LA_LIB, NULL, NULL, NULL)

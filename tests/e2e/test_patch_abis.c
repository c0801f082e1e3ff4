/*
 * One `cudastub patch` over a tree that mixes CUDA releases: a program
 * built for 11.8, one for 12.4 and one for 13.0 (programs/runtime_calls.c,
 * each against its release's headers and linked to its libcudart). Each
 * gets the stub of its own ABI, in one run and one stub folder; each runs
 * with no CUDA at all, answering the documented codes; and through each
 * real runtime, printing what the program as built prints with its own
 * release's runtime, byte for byte, and the same answers on the others.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "ts_child.h"
#include "ts_files.h"
#include "ts_release.h"

static const struct release {
	int major;
	const char *program, *soname, *stub;
} releases[] = {
	{11, PA_PROGRAM_11, "libcudart.so.11.0", "libcudart_stub_cu11-"},
	{12, PA_PROGRAM_12, "libcudart.so.12", "libcudart_stub_cu12-"},
	{13, PA_PROGRAM_13, "libcudart.so.13", "libcudart_stub_cu13-"},
};
enum { RELEASES = sizeof releases / sizeof *releases };

static char tree[PATH_MAX];

/* Runs program with the one variable var (or none); its stdout, in a
 * static buffer of its own, or NULL when it did not exit 0. */
static const char *run(const char *program, const char *var, int which)
{
	static char out[3][sizeof((struct ts_child *)0)->out];
	const char *env[] = {var, NULL};
	char *argv[] = {(char *)program, NULL};
	struct ts_child c;

	if (ts_run_program(argv, var ? env : NULL, NULL, &c) != 0 || c.exit_code != 0) {
		fprintf(stderr, "%s (%s): exit %d\n%.4000s%.4000s\n", program, var ? var : "",
			c.exit_code, c.out, c.err);
		return NULL;
	}
	snprintf(out[which], sizeof out[which], "%s", c.out);
	return out[which];
}

static int sh(const char *cmd)
{
	int rc = system(cmd);

	if (rc != 0)
		fprintf(stderr, "failed (%d): %s\n", rc, cmd);
	return rc == 0;
}

static void test_one_run_every_abi(void)
{
	char cmd[8 * PATH_MAX], copy[RELEASES][PATH_MAX + 32], runtime[RELEASES][PATH_MAX];
	static char want[RELEASES][256];
	char *argv[] = {PA_CLI, "patch", "--strict", tree, NULL};
	char *check[] = {PA_CLI, "patch", "--strict", "--check", tree, NULL};
	struct ts_child c;

	for (int i = 0; i < RELEASES; i++)
		if (!*releases[i].program) {
			ts_unavailable(
				"the programs of each CUDA release (tests/fixtures/fetch.sh: "
				"headers-11.8, headers-12.4, cuda-11.8, cuda-12.4; the CUDA "
				"13 toolkit)");
			return;
		}
	for (int i = 0; i < RELEASES; i++)
		if (!ts_release_file(releases[i].major, releases[i].soname, runtime[i],
				     sizeof runtime[i]))
			return;
	CU_ASSERT_PTR_NOT_NULL_FATAL(ts_tmpdir("patch-abis", tree, sizeof tree));
	snprintf(cmd, sizeof cmd, "mkdir -p '%s/bin'", tree);
	CU_ASSERT_FATAL(sh(cmd));
	for (int i = 0; i < RELEASES; i++) {
		snprintf(copy[i], sizeof copy[i], "%s/bin/calls%d", tree, releases[i].major);
		CU_ASSERT_EQUAL_FATAL(ts_copy_file(releases[i].program, copy[i]), 0);
	}

	/* one run: each file its own ABI's stub, nothing left needing NVIDIA */
	CU_ASSERT_EQUAL_FATAL(ts_run_program(argv, NULL, NULL, &c), 0);
	CU_ASSERT_EQUAL(c.exit_code, 0);
	for (int i = 0; i < RELEASES; i++) {
		snprintf(want[i], sizeof want[i], "/bin/calls%d: %s -> %s", releases[i].major,
			 releases[i].soname, releases[i].stub);
		if (!strstr(c.out, want[i]))
			fprintf(stderr, "no \"%s\" in:\n%.4000s%.4000s\n", want[i], c.out, c.err);
		CU_ASSERT_PTR_NOT_NULL(strstr(c.out, want[i]));
	}
	CU_ASSERT_PTR_NULL(strstr(c.out, "still needs"));
	CU_ASSERT_EQUAL_FATAL(ts_run_program(check, NULL, NULL, &c), 0);
	CU_ASSERT_EQUAL(c.exit_code, 0);

	for (int i = 0; i < RELEASES; i++) {
		char none[64] = "CUDASTUB_CUDART_PATH=/nonexistent/cudastub-none";
		const char *got = run(copy[i], none, 0);

		/* no CUDA: what NVIDIA's runtime answers without a driver, and 0s */
		CU_ASSERT_PTR_NOT_NULL(got);
		CU_ASSERT_PTR_NOT_NULL(got ? strstr(got, "runtime 35 0\n") : NULL);
		CU_ASSERT_PTR_NOT_NULL(got ? strstr(got, "devices 35 0\n") : NULL);
		for (int r = 0; r < RELEASES; r++) {
			char var[PATH_MAX + 32], dir[PATH_MAX], *slash;
			const char *stubbed, *direct;

			snprintf(var, sizeof var, "CUDASTUB_CUDART_PATH=%.4000s", runtime[r]);
			stubbed = run(copy[i], var, 1);
			CU_ASSERT_PTR_NOT_NULL(stubbed);
			if (!stubbed || r != i)
				continue;
			/* the program as built, with its own runtime beside it */
			snprintf(dir, sizeof dir, "%.4000s", runtime[r]);
			if ((slash = strrchr(dir, '/')))
				*slash = '\0';
			snprintf(var, sizeof var, "LD_LIBRARY_PATH=%s", dir);
			direct = run(releases[i].program, var, 2);
			CU_ASSERT_PTR_NOT_NULL(direct);
			if (direct && strcmp(stubbed, direct))
				fprintf(stderr,
					"calls%d on %s:\nthrough the stub:\n%sas built:\n%s",
					releases[i].major, releases[r].soname, stubbed, direct);
			CU_ASSERT_STRING_EQUAL(stubbed, direct ? direct : "");
		}
	}
	ts_remove_tree(tree);
}

TS_TEST(test_one_run_every_abi, "11.8, 12.4 and 13.0 programs: each its ABI's stub, each runs");

TS_MAIN_SUITE("e2e: one patch run over every CUDA ABI", NULL, NULL, NULL)

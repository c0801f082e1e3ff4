/*
 * The parent's half: the six selections, the environment of their
 * children, and expectations that name the selection when they fail.
 *
 * A PATH selection sets CUDASTUB_NVRTC_PATH to the file and nothing else:
 * no LD_LIBRARY_PATH, so Debian's libnvrtc (no RUNPATH) compiles only
 * because the stub loads its libnvrtc-builtins.so.X.Y from the same
 * folder. Without the override the search would take the toolkit's 13.0
 * from ld.so.cache, so loading 11.8 or 12.4 shows the override at work.
 * A MAJOR selection gets LD_LIBRARY_PATH with the 11.8 and 12.4 fixture
 * folders (those present); 13 comes from ld.so.cache.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "real_nvrtc.h"

#ifndef RN_TOOLKIT_NVRTC13
#define RN_TOOLKIT_NVRTC13 "/usr/local/cuda/lib64/libnvrtc.so.13"
#endif

const struct rn_selection rn_selections[RN_SELECTION_COUNT] = {
	{"11.8 by path", "11.8", 11, "cuda-11.8", "libnvrtc.so.11.2", 0, 12},
	{"11.8 by major", "11.8", 11, "cuda-11.8", "libnvrtc.so.11.2", 1, 12},
	{"12.4 by path", "12.4", 12, "cuda-12.4", "libnvrtc.so.12", 0, 13},
	{"12.4 by major", "12.4", 12, "cuda-12.4", "libnvrtc.so.12", 1, 13},
	{"13.0 by path", "13.0", 13, NULL, RN_TOOLKIT_NVRTC13, 0, 18},
	{"13.0 by major", "13.0", 13, NULL, RN_TOOLKIT_NVRTC13, 1, 18},
};

/* A fixture's library folder without reporting a miss (ts_fixture would). */
static int quiet_libdir(const char *fixture, char *buf, size_t size)
{
	const char *root = getenv("CUDASTUB_FIXTURES");
	char stamp[PATH_MAX];

	if (!root || !*root)
		root = CUDASTUB_TEST_FIXTURES;
	fixture = ts_library_fixture(fixture);
	snprintf(stamp, sizeof stamp, "%s/%s/.stamp", root, fixture);
	if (access(stamp, F_OK) != 0)
		return 0;
	snprintf(buf, size, "%s/%s/usr/lib/" TS_MULTIARCH, root, fixture);
	return 1;
}

/* The library file; 0 after reporting SKIP (or failing in CI). */
static int locate(const struct rn_selection *sel, char *file, size_t size)
{
	char dir[PATH_MAX];

	if (sel->fixture) {
		if (!ts_fixture_libdir(sel->fixture, dir, sizeof dir))
			return 0;
		snprintf(file, size, "%s/%s", dir, sel->file);
		return 1;
	}
	if (!sel->file[0]) {
		ts_not_applicable("no CUDA 13.0 libnvrtc for this architecture here (Debian ships "
				  "none for arm64); configure with -DCUDASTUB_REAL_NVRTC13=<file>");
		return 0;
	}
	snprintf(file, size, "%s", sel->file);
	if (access(file, F_OK) == 0)
		return 1;
	char why[PATH_MAX + 64];

	snprintf(why, sizeof why, "%s missing; install the CUDA 13 toolkit", file);
	ts_unavailable(why);
	return 0;
}

int rn_run(const struct rn_selection *sel, const char *scenario, struct ts_child *child, char *file,
	   size_t file_size)
{
	char ld[2 * PATH_MAX + 32], pick[PATH_MAX + 32], expect[PATH_MAX + 32];
	char dir11[PATH_MAX], dir12[PATH_MAX];
	const char *env[4];
	int n = 0, have11, have12;

	if (!locate(sel, file, file_size))
		return 0;
	have11 = quiet_libdir("cuda-11.8", dir11, sizeof dir11);
	have12 = quiet_libdir("cuda-12.4", dir12, sizeof dir12);
	snprintf(ld, sizeof ld, "LD_LIBRARY_PATH=%s%s%s", have11 ? dir11 : "",
		 have11 && have12 ? ":" : "", have12 ? dir12 : "");
	if (sel->by_major)
		snprintf(pick, sizeof pick, "CUDASTUB_NVRTC_MAJOR=%d", sel->major);
	else
		snprintf(pick, sizeof pick, "CUDASTUB_NVRTC_PATH=%s", file);
	snprintf(expect, sizeof expect, RN_FILE_VAR "=%s", file);
	if (sel->by_major && (have11 || have12))
		env[n++] = ld;
	env[n++] = pick;
	env[n++] = expect;
	env[n] = NULL;
	if (ts_run_child(scenario, env, child) != 0) {
		CU_FAIL("could not start the child");
		return 0;
	}
	if (child->exit_code != 0) {
		char msg[512];

		snprintf(msg, sizeof msg, "[%s] child %s exited %d", sel->name, scenario,
			 child->exit_code);
		CU_assertImplementation(CU_FALSE, __LINE__, msg, __FILE__, __func__, CU_FALSE);
		fprintf(stderr, "%s\nstdout:\n%s\nstderr:\n%s\n", msg, child->out, child->err);
		return 0;
	}
	return 1;
}

void rn_expect_at(struct rn_where at, const struct rn_selection *sel, const struct ts_child *child,
		  const char *key, const char *want)
{
	const char *got = ts_value(child, key);
	char msg[1024];

	snprintf(msg, sizeof msg, "[%s] %s=%s, expected %s", sel->name, key,
		 got ? got : "(missing)", want);
	CU_assertImplementation(got && !strcmp(got, want), at.line, msg, at.file, at.fn, CU_FALSE);
}

void rn_expect_int_at(struct rn_where at, const struct rn_selection *sel,
		      const struct ts_child *child, const char *key, long want)
{
	char text[32];

	snprintf(text, sizeof text, "%ld", want);
	rn_expect_at(at, sel, child, key, text);
}

void rn_expect_same_at(struct rn_where at, const struct rn_selection *sel,
		       const struct ts_child *child, const char *key_a, const char *key_b)
{
	const char *got = ts_value(child, key_a);
	char a[512], msg[1280];

	snprintf(a, sizeof a, "%s", got ? got : "(missing)");
	got = ts_value(child, key_b);
	snprintf(msg, sizeof msg, "[%s] %s=%s but %s=%s", sel->name, key_a, a, key_b,
		 got ? got : "(missing)");
	CU_assertImplementation(got && strcmp(a, "(missing)") && !strcmp(a, got), at.line, msg,
				at.file, at.fn, CU_FALSE);
}

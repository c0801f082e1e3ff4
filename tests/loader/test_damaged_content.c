/*
 * Damaged content: NVIDIA's libcudart with sound headers and the 4 KiB block
 * that holds cudaRuntimeGetVersion (the runtime stub's version probe)
 * zeroed, as a power loss or a preallocating downloader leaves it, in
 * CUDA_HOME; a healthy copy of the same release on LD_LIBRARY_PATH, further
 * down the search. The stub must not crash: it skips the damaged copy with
 * its reason (stubs/loader/search/loader_probe.c) and loads the healthy one. The
 * same with the block punched out as a hole, and `cudastub info` on either
 * ends normally. For 12.4 (fixture cuda-12.4) and 13.0 (the toolkit).
 *
 * Each child runs under an alarm and reports key=value lines; one that dies
 * on a signal is a failure that names the case.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_support.h"
#include "ts_files.h"
#include "ts_release.h"
#include "ts_symbol_offset.h"
#include "loader_test.h"

enum { CHILD_ALARM = 120, BLOCK = 4096 };

#define PROBE "cudaRuntimeGetVersion"

/* ---- child: the runtime stub's first call ---- */

static int first_call_child(void)
{
	alarm(CHILD_ALARM);
	return ld_report_first_call(LD_CUDART_STUB, "cudart");
}

/* `cudastub info`: the alarm survives execve. (A cross build has no
 * command of its architecture to run: LD_CLI is the native build's.) */
static int cli_child(void)
{
#ifdef LD_CLI
	char *argv[] = {LD_CLI, "info", NULL};

	alarm(CHILD_ALARM);
	execv(argv[0], argv);
#endif
	return 5;
}

/* ---- parent ---- */

/* How a block is lost. */
enum damage { ZEROED, PUNCHED };

/* Damages the 4 KiB block of path that holds offset; 0, -1, or
 * EOPNOTSUPP when the file system cannot punch a hole. */
static int damage_block(const char *path, long offset, enum damage how)
{
	static const char zeros[BLOCK];
	off_t block = (off_t)(offset & ~(long)(BLOCK - 1));
	int fd = open(path, O_WRONLY), rc = 0;

	if (fd < 0)
		return -1;
	if (how == ZEROED)
		rc = pwrite(fd, zeros, BLOCK, block) == BLOCK ? 0 : -1;
	else if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, block, BLOCK) != 0)
		rc = errno == EOPNOTSUPP ? EOPNOTSUPP : -1;
	close(fd);
	return rc;
}

static int ran(const char *scenario, const char *what, const char *const *env, struct ts_child *c)
{
	char msg[512];

	if (ts_run_child(scenario, env, c) == 0 && c->exit_code == 0)
		return 1;
	snprintf(msg, sizeof msg, "%s: the child %s (exit %d)", what,
		 c->exit_code < 0 ? "died on a signal" : "failed", c->exit_code);
	CU_assertImplementation(CU_FALSE, __LINE__, msg, __FILE__, "", CU_FALSE);
	fprintf(stderr, "%s\n%s%s\n", msg, c->out, c->err);
	return 0;
}

static void damaged_release(int major, enum damage how)
{
	char soname[32], real[PATH_MAX], healthy_dir[PATH_MAX], dir[PATH_MAX], copy[PATH_MAX + 64];
	char leaks[256], what[128], *slash;
	struct ts_child c;
	long offset;
	int rc;

	snprintf(soname, sizeof soname, "libcudart.so.%d", major);
	if (!ts_release_file(major, soname, real, sizeof real))
		return; /* reported as missing (SKIP, or N/A on aarch64 for 13) */
	snprintf(healthy_dir, sizeof healthy_dir, "%s", real);
	slash = strrchr(healthy_dir, '/');
	CU_ASSERT_PTR_NOT_NULL_FATAL(slash);
	*slash = '\0';
	offset = ts_symbol_offset(real, PROBE);
	CU_ASSERT_FATAL(offset > 0);
	if (!ts_tmpdir("damaged", dir, sizeof dir)) {
		CU_FAIL("no temporary folder");
		return;
	}
	snprintf(copy, sizeof copy, "%s/home/lib64/%s", dir, soname);
	CU_ASSERT_EQUAL_FATAL(ld_mkdirs(ld_fmt("%s/home/lib64", dir)), 0);
	CU_ASSERT_EQUAL_FATAL(ts_copy_file(real, copy), 0);
	rc = damage_block(copy, offset, how);
	if (rc == EOPNOTSUPP) {
		ts_remove_tree(dir);
		ts_unavailable("this file system cannot punch holes (fallocate)");
		return;
	}
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	snprintf(what, sizeof what, "CUDA %d, the block of " PROBE " %s", major,
		 how == ZEROED ? "zeroed" : "punched out");

	const char *env[] = {ld_fmt("CUDA_HOME=%s/home", dir),
			     ld_fmt("LD_LIBRARY_PATH=%s", healthy_dir),
			     ld_fmt("CUDASTUB_CUDART_MAJOR=%d", major),
			     ts_env_leaks_unnamed(leaks, sizeof leaks), NULL};

	if (ran("first_call", what, env, &c)) {
		CU_ASSERT_EQUAL(ld_long(&c, "finished"), 1);
		CU_ASSERT_EQUAL(ld_long(&c, "rc"), 0);
		CU_ASSERT_EQUAL(ld_long(&c, "value") / 1000, major);
		CU_ASSERT_EQUAL(ld_long(&c, "state"), CUDASTUB_STATE_LOADED);
		CU_ASSERT_TRUE(ld_attempted(&c, copy, "skipped: damaged: "));
		CU_ASSERT_TRUE(ld_attempted(&c, copy, PROBE));
		CU_ASSERT_TRUE(ld_has(&c, "path", healthy_dir));
		if (!ld_attempted(&c, copy, "skipped: damaged: ") ||
		    !ld_has(&c, "path", healthy_dir))
			fprintf(stderr, "%s:\n%s\n", what, c.out);
	}
#ifdef LD_CLI
	if (ran("cli", what, env, &c)) {
		CU_ASSERT_PTR_NOT_NULL(strstr(c.out, "damaged: "));
		CU_ASSERT_PTR_NOT_NULL(strstr(c.out, PROBE));
	}
#endif
	ts_remove_tree(dir);
}

static void test_zeroed_12(void)
{
	damaged_release(12, ZEROED);
}

TS_TEST(test_zeroed_12, "12.4, the block zeroed");

static void test_zeroed_13(void)
{
	damaged_release(13, ZEROED);
}

TS_TEST(test_zeroed_13, "13.0, the block zeroed");

static void test_punched_12(void)
{
	damaged_release(12, PUNCHED);
}

TS_TEST(test_punched_12, "12.4, the block punched out (a hole)");

static void test_punched_13(void)
{
	damaged_release(13, PUNCHED);
}

TS_TEST(test_punched_13, "13.0, the block punched out (a hole)");

static const struct ts_scenario scenarios[] = {
	{"first_call", first_call_child}, {"cli", cli_child}, {NULL, NULL}};

TS_MAIN_SUITE("damaged content: the version probe's block of zeros", NULL, NULL, scenarios)

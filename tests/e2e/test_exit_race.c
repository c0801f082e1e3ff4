/*
 * exit() while another thread makes its first call:
 * the main thread starts a worker whose first call loads NVIDIA's library,
 * waits until the worker has started, waits a little more, and calls
 * exit(42). Every run must end with status 42: no crash, and no hang (each
 * child arms alarm(), so a hang ends as SIGALRM, never as a stuck suite).
 *
 * The exit is spread over the first call's whole length, measured first in
 * a child of each case (run i of n waits i/n of 1.2 times it), so that the
 * runs land in the search, in dlopen's mapping, in NVIDIA's constructors,
 * in the runtime's replay and after. 300 runs in all, split across five
 * cases, the real libraries each: NVRTC 13 (the toolkit's), the runtime
 * 13 with no driver, the runtime 12.4 beside driver 550, the driver stub
 * on driver 550, and an nvcc-built program (programs/exit_race.cu, a
 * kernel registered before main) on the runtime 13.
 */
#define _GNU_SOURCE
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <limits.h>
#include <nvrtc.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_support.h"
#include "ts_child.h"
#include "ts_driver.h"
#include "ts_files.h"
#include "ts_release.h"
#include "e2e_tools.h"

enum { RUNS_PER_CASE = 60, EXIT_STATUS = 42, HANG_BOUND_S = 5 };

/* ---- the child side ---- */

static atomic_int worker_started;

static void *nvrtc_first_call(void *arg)
{
	int major, minor;

	(void)arg;
	atomic_store(&worker_started, 1);
	nvrtcVersion(&major, &minor);
	return NULL;
}

static void *cudart_first_call(void *arg)
{
	int count;

	(void)arg;
	atomic_store(&worker_started, 1);
	cudaGetDeviceCount(&count);
	return NULL;
}

static void *driver_first_call(void *arg)
{
	(void)arg;
	atomic_store(&worker_started, 1);
	cuInit(0);
	return NULL;
}

static long env_long(const char *name, long otherwise)
{
	const char *s = getenv(name);

	return s ? atol(s) : otherwise;
}

/* The race itself: exit() EXIT_STATUS_us after the worker started. */
static int exit_during(void *(*first_call)(void *))
{
	long us = env_long("EXIT_RACE_DELAY_US", 0);
	struct timespec delay = {us / 1000000, (us % 1000000) * 1000};
	pthread_t worker;

	alarm((unsigned)HANG_BOUND_S);
	/* detached: ThreadSanitizer reports a thread never joined */
	if (pthread_create(&worker, NULL, first_call, NULL) != 0 || pthread_detach(worker) != 0)
		return 3;
	while (!atomic_load(&worker_started))
		sched_yield();
	nanosleep(&delay, NULL);
	exit(EXIT_STATUS);
}

/* How long the first call takes, in microseconds, as us=N. */
static int time_first_call(void *(*first_call)(void *))
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	first_call(NULL);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("us=%ld\n", (long)(b.tv_sec - a.tv_sec) * 1000000 + (b.tv_nsec - a.tv_nsec) / 1000);
	return 0;
}

static int race_nvrtc(void)
{
	return exit_during(nvrtc_first_call);
}
static int race_cudart(void)
{
	return exit_during(cudart_first_call);
}
static int race_driver(void)
{
	return exit_during(driver_first_call);
}
static int time_nvrtc(void)
{
	return time_first_call(nvrtc_first_call);
}
static int time_cudart(void)
{
	return time_first_call(cudart_first_call);
}
static int time_driver(void)
{
	return time_first_call(driver_first_call);
}

static const struct ts_scenario scenarios[] = {
	{"race_nvrtc", race_nvrtc},
	{"race_cudart", race_cudart},
	{"race_driver", race_driver},
	{"time_nvrtc", time_nvrtc},
	{"time_cudart", time_cudart},
	{"time_driver", time_driver},
	{NULL, NULL},
};

/* ---- the parent side ---- */

static char programs[PATH_MAX];
static int nvcc_built;
/* Under ThreadSanitizer, the children's TSAN_OPTIONS (see nvidia_races) */
static char tsan_options[2 * PATH_MAX + 1024];

/* How the children ended. */
struct tally {
	int runs, exited_right, crashes, hangs, wrong_status;
	int first_signal, first_status;
	char first_report[2048]; /* the end of the first crashed run's stderr */
};

/* The last size-1 bytes of path in buf ("" when unreadable). */
static void read_tail(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	long end;
	size_t n = 0;

	*buf = '\0';
	if (!f)
		return;
	if (fseek(f, 0, SEEK_END) == 0 && (end = ftell(f)) > 0)
		fseek(f, end > (long)size - 1 ? end - (long)size + 1 : 0, SEEK_SET);
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	fclose(f);
}

/*
 * Runs argv with env (NULL-terminated "NAME=value" list) in a clean
 * environment (as ts_run_program makes one) and EXIT_RACE_DELAY_US=us;
 * stdout thrown away, stderr kept in a file so that the first crash can be
 * shown (a sanitizer's report, an abort's message). Counts the outcome in t.
 */
static void run_once(char *const *argv, const char *const *env, long us, struct tally *t)
{
	static const char *const cleared[] = {"CUDA_HOME", "CUDA_PATH", "LD_LIBRARY_PATH",
					      "LD_PRELOAD", NULL};
	/* a file of this test's own (mkstemp): never one another user named */
	char err_path[] = "/tmp/cudastub-exit-race-XXXXXX";
	int status, err_fd = mkstemp(err_path);
	pid_t pid;

	if (err_fd < 0) {
		t->runs++;
		t->wrong_status++;
		return;
	}
	pid = fork();

	if (pid == 0) {
		static char leaks_off[1024];
		char delay[32];
		extern char **environ;

		for (char **e = environ; *e;) {
			if (!strncmp(*e, "CUDASTUB_", 9)) {
				char name[256];

				snprintf(name, sizeof name, "%.*s", (int)strcspn(*e, "="), *e);
				unsetenv(name);
			} else {
				e++;
			}
		}
		for (int i = 0; cleared[i]; i++)
			unsetenv(cleared[i]);
		for (int i = 0; env && env[i]; i++)
			putenv((char *)env[i]);
		snprintf(delay, sizeof delay, "%ld", us);
		setenv("EXIT_RACE_DELAY_US", delay, 1);
		/* a crash is counted, not dumped */
		setrlimit(RLIMIT_CORE, &(struct rlimit){0, 0});
		/* The worker is still running when exit() ends the process, and
		 * keeps glibc's record of its last dlerror() (freed when a thread
		 * ends), which LeakSanitizer reports: leaks are not this test's. */
		if (E2E_SANITIZE[0])
			putenv((char *)ts_env_leaks_unnamed(leaks_off, sizeof leaks_off));
		if (tsan_options[0])
			putenv(tsan_options);
		if (!freopen("/dev/null", "w", stdout) || dup2(err_fd, STDERR_FILENO) < 0)
			_exit(126);
		close(err_fd);
		execv(argv[0], argv);
		_exit(127);
	}
	t->runs++;
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		t->wrong_status++;
		close(err_fd);
		unlink(err_path);
		return;
	}
	if (WIFSIGNALED(status)) {
		if (WTERMSIG(status) == SIGALRM)
			t->hangs++;
		else
			t->crashes++;
		if (!t->first_signal) {
			t->first_signal = WTERMSIG(status);
			read_tail(err_path, t->first_report, sizeof t->first_report);
		}
	} else if (WEXITSTATUS(status) == EXIT_STATUS) {
		t->exited_right++;
	} else {
		t->wrong_status++;
		if (!t->first_status)
			t->first_status = WEXITSTATUS(status);
	}
	close(err_fd);
	unlink(err_path);
}

/* The first call's length, from a child that times it: µs, or 0. */
static long first_call_us(const char *scenario, const char *const *env)
{
	struct ts_child c;
	long us;

	if (ts_run_child(scenario, env, &c) != 0 || c.exit_code != 0) {
		fprintf(stderr, "%s exited %d:\n%s\n", scenario, c.exit_code, c.err);
		return 0;
	}
	us = ts_number(&c, "us");
	return us > 0 ? us : 0;
}

/* RUNS_PER_CASE runs of argv, the exit spread over 1.2 times the first
 * call (timed by timer in a child of this binary), and the verdict. */
static void race(const char *label, char *const *argv, const char *timer, const char *const *env)
{
	struct tally t = {0};
	long span = first_call_us(timer, env) * 6 / 5;
	char msg[512];

	CU_ASSERT_FATAL(span > 0);
	for (int i = 0; i < RUNS_PER_CASE; i++)
		run_once(argv, env, span * i / RUNS_PER_CASE, &t);
	printf("\n  %s: %d runs, exit spread over 0..%ld us: %d exited %d, %d crashed, %d hung, "
	       "%d other status\n",
	       label, t.runs, span, t.exited_right, EXIT_STATUS, t.crashes, t.hangs,
	       t.wrong_status);
	snprintf(msg, sizeof msg,
		 "%s: %d of %d runs crashed (first signal %d), %d hung (SIGALRM), %d exited "
		 "otherwise "
		 "(first status %d)",
		 label, t.crashes, t.runs, t.first_signal, t.hangs, t.wrong_status, t.first_status);
	if (t.first_signal)
		fprintf(stderr,
			"  the first run that ended on signal %d printed, at its end:\n%s\n",
			t.first_signal, t.first_report);
	CU_assertImplementation(t.exited_right == t.runs, __LINE__, msg, __FILE__, "", CU_FALSE);
}

static char self[PATH_MAX];

static void race_scenario(const char *label, const char *scenario, const char *timer,
			  const struct ts_env *env)
{
	char *argv[] = {self, "--child", (char *)scenario, NULL};

	race(label, argv, timer, env->list);
}

static void test_nvrtc(void)
{
	char lib[PATH_MAX];
	struct ts_env env = {0};

	if (!ts_toolkit_file("libnvrtc.so.13", lib, sizeof lib))
		return;
	ts_env_add(&env, "CUDASTUB_NVRTC_PATH=%s", lib);
	race_scenario("NVRTC stub, libnvrtc 13", "race_nvrtc", "time_nvrtc", &env);
}

TS_TEST(test_nvrtc, "NVRTC stub");

static void test_cudart_13(void)
{
	char lib[PATH_MAX];
	struct ts_env env = {0};

	if (!ts_toolkit_file("libcudart.so.13", lib, sizeof lib))
		return;
	ts_env_add(&env, "CUDASTUB_CUDART_PATH=%s", lib);
	race_scenario("runtime stub, libcudart 13, no driver", "race_cudart", "time_cudart", &env);
}

TS_TEST(test_cudart_13, "runtime stub, 13, no driver");

static void test_cudart_12_driver(void)
{
	char lib[PATH_MAX], driver[PATH_MAX];
	struct ts_env env = {0};

	if (!ts_driver_dir(driver, sizeof driver) ||
	    !ts_release_file(12, "libcudart.so.12", lib, sizeof lib))
		return;
	ts_env_add(&env, "CUDASTUB_CUDART_PATH=%s", lib);
	ts_env_add(&env, "LD_LIBRARY_PATH=%s", driver);
	race_scenario("runtime stub, libcudart 12.4, driver 550", "race_cudart", "time_cudart",
		      &env);
}

TS_TEST(test_cudart_12_driver, "runtime stub, 12.4, driver 550");

static void test_driver(void)
{
	char driver[PATH_MAX];
	struct ts_env env = {0};

	if (!ts_driver_dir(driver, sizeof driver))
		return;
	ts_env_add(&env, "CUDASTUB_CUDA_PATH=%s/libcuda.so.1", driver);
	race_scenario("driver stub, driver 550", "race_driver", "time_driver", &env);
}

TS_TEST(test_driver, "driver stub, driver 550");

/* The nvcc-built program times nothing itself: its first call is the
 * runtime stub's, which the race_cudart timer measures. */
static void test_nvcc_program(void)
{
	char lib[PATH_MAX], exe[PATH_MAX + 16], bound[16];
	char *argv[] = {exe, NULL, bound, NULL};
	struct ts_env env = {0};
	struct tally t = {0};
	long span;
	char msg[512], delay[32];

	if (!nvcc_built) {
		ts_unavailable("nvcc not found, or it could not build programs/exit_race.cu "
			       "(CUDASTUB_NVCC; see above)");
		return;
	}
	if (!ts_toolkit_file("libcudart.so.13", lib, sizeof lib))
		return;
	ts_env_add(&env, "CUDASTUB_CUDART_PATH=%s", lib);
	snprintf(exe, sizeof exe, "%s/exit_race", programs);
	snprintf(bound, sizeof bound, "%d", HANG_BOUND_S);
	span = first_call_us("time_cudart", env.list) * 6 / 5;
	CU_ASSERT_FATAL(span > 0);
	for (int i = 0; i < RUNS_PER_CASE; i++) {
		snprintf(delay, sizeof delay, "%ld", span * i / RUNS_PER_CASE);
		argv[1] = delay;
		run_once(argv, env.list, 0, &t);
	}
	printf("\n  nvcc program, libcudart 13: %d runs, exit spread over 0..%ld us: %d exited "
	       "%d, %d crashed, %d hung, %d other status\n",
	       t.runs, span, t.exited_right, EXIT_STATUS, t.crashes, t.hangs, t.wrong_status);
	snprintf(msg, sizeof msg,
		 "nvcc program: %d of %d runs crashed (first signal %d), %d hung (SIGALRM), %d "
		 "exited "
		 "otherwise (first status %d)",
		 t.crashes, t.runs, t.first_signal, t.hangs, t.wrong_status, t.first_status);
	if (t.first_signal)
		fprintf(stderr,
			"  the first run that ended on signal %d printed, at its end:\n%s\n",
			t.first_signal, t.first_report);
	CU_assertImplementation(t.exited_right == t.runs, __LINE__, msg, __FILE__, "", CU_FALSE);
}

TS_TEST(test_nvcc_program, "nvcc-built program");

/* programs/exit_race.cu against the stub, with the build's sanitizer. */
static int build_nvcc_program(void)
{
	char stub_dir[PATH_MAX], flags[512], cmd[4 * PATH_MAX + 1024];

	if (!E2E_NVCC[0] || access(E2E_NVCC, X_OK) != 0 ||
	    !ts_tmpdir("e2e-exit-race", programs, sizeof programs))
		return 0;
	snprintf(cmd, sizeof cmd,
		 "'%s' -I'%s/tests/e2e/programs' '%s/tests/e2e/programs/exit_race.cu' "
		 "-o '%s/exit_race' -cudart none '%s' -Xlinker -rpath='%s'%s",
		 E2E_NVCC, CUDASTUB_TEST_SOURCE_DIR, CUDASTUB_TEST_SOURCE_DIR, programs,
		 E2E_CUDART_STUB, ts_folder_of(E2E_CUDART_STUB, stub_dir, sizeof stub_dir),
		 ts_sanitizer_flags(E2E_SANITIZE, "-Xcompiler ", flags, sizeof flags));
	if (system(cmd) != 0) {
		fprintf(stderr, "failed: %s\n", cmd);
		return 0;
	}
	return 1;
}

/*
 * A worker that outlives exit() runs NVIDIA's code while the exit
 * handlers run NVIDIA's destructors (libcuda frees in one, reallocs in the
 * other): a race inside the closed library, between its own call and its
 * own destructor, that a directly linked program has too. The children
 * get the suite's suppressions and these modules; a race with the stub's
 * own code on neither side still reports.
 */
static void nvidia_races(void)
{
	static const char modules[] = "race:libcuda.so.1\nrace:libcudart.so\nrace:libnvrtc.so\n";
	const char *now = getenv("TSAN_OPTIONS"), *from = now ? strstr(now, "suppressions=") : NULL;
	char path[PATH_MAX + 32], theirs[PATH_MAX];
	FILE *out, *in;
	int ch;

	if (!strstr(E2E_SANITIZE, "thread") || !programs[0])
		return;
	snprintf(path, sizeof path, "%s/tsan.supp", programs);
	if (!(out = fopen(path, "w")))
		return;
	if (from) {
		snprintf(theirs, sizeof theirs, "%.*s", (int)strcspn(from + 13, ":"), from + 13);
		if ((in = fopen(theirs, "r"))) {
			while ((ch = fgetc(in)) != EOF)
				fputc(ch, out);
			fclose(in);
		}
	}
	fputs(modules, out);
	fclose(out);
	snprintf(tsan_options, sizeof tsan_options, "TSAN_OPTIONS=%s%ssuppressions=%s",
		 now ? now : "", now && *now ? ":" : "", path);
}

static int suite_init(void)
{
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);

	if (n <= 0)
		return 1;
	self[n] = '\0';
	nvcc_built = build_nvcc_program();
	nvidia_races();
	return 0;
}

static int suite_clean(void)
{
	if (programs[0])
		ts_remove_tree(programs);
	return 0;
}

TS_MAIN_SUITE("exit() during another thread's first call", suite_init, suite_clean, scenarios)

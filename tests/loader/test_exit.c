/*
 * exit() against a first call in flight (stubs/common/loader_exit.c), on
 * the fake libnvrtc made slow to load (FAKE_NVRTC_SLOW_MS), so that the
 * order is forced rather than hoped for: a worker's first call is inside
 * the fake's constructor when the main thread calls exit(42).
 *
 * The child registers a reporter with atexit() before any stub call, so
 * glibc runs it after the stub's own exit handler (registered at the first
 * search). By then the stub must have waited for the worker's load (the
 * published record is the worker's search, which opened the fake), and
 * must have published no library: the worker's call
 * and a first call made from the reporter both return the library-missing
 * code, whose error string says the process is exiting. Each child is
 * under alarm(): a hang ends as SIGALRM, a failure.
 */
#define _GNU_SOURCE
#include "loader_test.h"

#include <CUnit/CUnit.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

typedef int (*version_fn)(int *, int *);
typedef const char *(*error_string_fn)(int);
typedef const cudastub_library_info *(*info_fn)(void);

/* The stub's library-missing code (README's table of codes). */
enum { NVRTC_STUB_LIBRARY = 1034, EXIT_STATUS = 42 };

static version_fn version;
static error_string_fn error_string;
static info_fn get_info;
static atomic_int worker_started, worker_done, worker_rc = -1;

static void *worker(void *arg)
{
	int major = -1, minor = -1;

	(void)arg;
	atomic_store(&worker_started, 1);
	atomic_store(&worker_rc, version(&major, &minor));
	atomic_store(&worker_done, 1);
	return NULL;
}

/* Runs after the stub's exit handler: what a late first call sees. */
static void report(void)
{
	const cudastub_library_info *info = get_info();
	unsigned long dlopen_calls = info->dlopen_calls;
	int major = -1, minor = -1, late_rc = version(&major, &minor), spins = 0;
	struct timespec tick = {0, 1000000L};

	/* the worker's call returns once its search is done, which exit()
	 * waited for; give it a moment to get back from the call */
	while (!atomic_load(&worker_done) && spins++ < 5000)
		nanosleep(&tick, NULL);
	printf("dlopen_calls=%lu\n", dlopen_calls);
	printf("worker_done=%d\nworker_rc=%d\n", atomic_load(&worker_done),
	       atomic_load(&worker_rc));
	printf("late_rc=%d\nlate_major=%d\n", late_rc, major);
	printf("late_error=%s\n", error_string(late_rc));
	printf("state=%d\n", (int)get_info()->state);
	fflush(stdout);
}

static int exit_during_load(void)
{
	struct timespec into_constructor = {0, 150 * 1000000L};
	void *stub = ld_open_stub(ld_stub());
	pthread_t thread;

	alarm(20);
	if (!stub)
		return 3;
	version = (version_fn)dlsym(stub, "nvrtcVersion");
	error_string = (error_string_fn)dlsym(stub, "nvrtcGetErrorString");
	get_info = (info_fn)dlsym(stub, "cudastub_nvrtc_info");
	if (!version || !error_string || !get_info || atexit(report) != 0)
		return 4;
	/* detached: ThreadSanitizer reports a thread never joined */
	if (pthread_create(&thread, NULL, worker, NULL) != 0 || pthread_detach(thread) != 0)
		return 5;
	while (!atomic_load(&worker_started))
		sched_yield();
	/* the fake's constructor sleeps FAKE_NVRTC_SLOW_MS (600): exit lands in it */
	nanosleep(&into_constructor, NULL);
	exit(EXIT_STATUS);
}

static void test_exit_during_load(void)
{
	const char *env[] = {ld_fmt("CUDASTUB_NVRTC_PATH=%s", ld_fake("nvrtc-13")),
			     "FAKE_NVRTC_SLOW_MS=600", NULL};
	struct ts_child c;

	CU_ASSERT_EQUAL_FATAL(ts_run_child("exit_during_load", env, &c), 0);
	CU_ASSERT_EQUAL(c.exit_code, EXIT_STATUS);
	/* exit waited for the load in flight before the later handlers ran:
	 * what is published is the worker's search, which opened the fake */
	CU_ASSERT_EQUAL(ld_long(&c, "dlopen_calls"), 1);
	CU_ASSERT_EQUAL(ld_long(&c, "worker_done"), 1);
	/* and published no library: nothing goes into one being finalised */
	CU_ASSERT_EQUAL(ld_long(&c, "worker_rc"), NVRTC_STUB_LIBRARY);
	CU_ASSERT_EQUAL(ld_long(&c, "late_rc"), NVRTC_STUB_LIBRARY);
	CU_ASSERT_EQUAL(ld_long(&c, "late_major"),
			0); /* a probe: output zeroed, as with no library */
	CU_ASSERT(ld_has(&c, "late_error", "the process is exiting; nothing is loaded"));
	CU_ASSERT_EQUAL(ld_long(&c, "state"), CUDASTUB_STATE_NOT_FOUND);
	if (c.exit_code != EXIT_STATUS || ld_long(&c, "worker_done") != 1)
		fprintf(stderr, "child exited %d:\n%s\n%s\n", c.exit_code, c.out, c.err);
}

static void register_suites(void)
{
	CU_pSuite s = CU_add_suite("exit", NULL, NULL);

	CU_add_test(s, "exit() while a first call loads", test_exit_during_load);
}

int main(int argc, char **argv)
{
	static const struct ts_scenario scenarios[] = {{"exit_during_load", exit_during_load},
						       {NULL, NULL}};

	return ts_main(argc, argv, scenarios, register_suites);
}

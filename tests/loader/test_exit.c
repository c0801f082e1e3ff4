/*
 * exit() against a first call in flight (stubs/loader/process/loader_exit.c), on
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
 *
 * Then a worker whose first call loaded the fake ends beside exit(), the
 * fake keeping libnvrtc's per-thread records (FAKE_NVRTC_THREAD_RECORDS:
 * the worker's record is released when it ends, and the fake's exit
 * handler takes the records down; it aborts if the two overlap). Both
 * orders are forced on the fake's own flags: the worker ending first, and
 * exit() first.
 */
#define _GNU_SOURCE
#include "loader_test.h"

#include <CUnit/CUnit.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

TS_TEST(test_exit_during_load, "exit() while a first call loads");

/* ---- a loading thread that ends beside exit() ---- */

static atomic_int worker_loaded, worker_may_end_at_teardown;

/* One of the fake's exported flags (FAKE_NVRTC_THREAD_RECORDS). */
static int *fake_flag(const char *name)
{
	void *fake = dlopen(ld_fake("nvrtc-13"), RTLD_LAZY | RTLD_NOLOAD);

	return fake ? (int *)dlsym(fake, name) : NULL;
}

static void wait_for_flag(const int *flag)
{
	while (!__atomic_load_n(flag, __ATOMIC_SEQ_CST))
		sched_yield();
}

/* Loads the fake through the stub, on this thread, then ends: at once,
 * or once the fake's exit handler has begun. */
static void *loading_worker(void *arg)
{
	int major = -1, minor = -1, *teardown;

	(void)arg;
	atomic_store(&worker_rc, version(&major, &minor));
	atomic_store(&worker_loaded, 1);
	if (atomic_load(&worker_may_end_at_teardown) &&
	    (teardown = fake_flag("fake_nvrtc_teardown_running")))
		wait_for_flag(teardown);
	return NULL;
}

static int start_loading_worker(int end_at_teardown)
{
	void *stub = ld_open_stub(ld_stub());
	pthread_t thread;

	alarm(20);
	if (!stub || !(version = (version_fn)dlsym(stub, "nvrtcVersion")))
		return 3;
	atomic_store(&worker_may_end_at_teardown, end_at_teardown);
	if (pthread_create(&thread, NULL, loading_worker, NULL) != 0 || pthread_detach(thread) != 0)
		return 5;
	while (!atomic_load(&worker_loaded))
		sched_yield();
	printf("worker_rc=%d\n", atomic_load(&worker_rc));
	fflush(stdout);
	return 0;
}

/* The worker ends first: exit() comes while its record is released. */
static int thread_ends_then_exit(void)
{
	int rc = start_loading_worker(0), *releasing;

	if (rc != 0)
		return rc;
	if (!(releasing = fake_flag("fake_nvrtc_record_releasing")))
		return 6;
	wait_for_flag(releasing);
	exit(EXIT_STATUS);
}

/* A pool that joins its thread in an exit handler, registered after the
 * load: glibc runs it before the stub's window, so the thread ends at once. */
static pthread_t pool_thread;
static atomic_int pool_closing;

static void *pool_worker(void *arg)
{
	int major = -1, minor = -1;

	(void)arg;
	atomic_store(&worker_rc, version(&major, &minor));
	atomic_store(&worker_loaded, 1);
	while (!atomic_load(&pool_closing))
		sched_yield();
	return NULL;
}

static void close_pool(void)
{
	atomic_store(&pool_closing, 1);
	printf("joined=%d\n", pthread_join(pool_thread, NULL) == 0);
	fflush(stdout);
}

static int pool_joins_at_exit(void)
{
	void *stub = ld_open_stub(ld_stub());

	alarm(20);
	if (!stub || !(version = (version_fn)dlsym(stub, "nvrtcVersion")))
		return 3;
	if (pthread_create(&pool_thread, NULL, pool_worker, NULL) != 0)
		return 5;
	while (!atomic_load(&worker_loaded))
		sched_yield();
	printf("worker_rc=%d\n", atomic_load(&worker_rc));
	if (atexit(close_pool) != 0)
		return 6;
	exit(EXIT_STATUS);
}

/* exit() first: the worker ends while the fake's exit handler runs. */
static int exit_then_thread_ends(void)
{
	int rc = start_loading_worker(1);

	if (rc != 0)
		return rc;
	exit(EXIT_STATUS);
}

static void run_thread_end(const char *scenario, struct ts_child *c)
{
	const char *env[] = {ld_fmt("CUDASTUB_NVRTC_PATH=%s", ld_fake("nvrtc-13")),
			     "FAKE_NVRTC_THREAD_RECORDS=1", "CUDASTUB_DEBUG=1", NULL};

	CU_ASSERT_EQUAL_FATAL(ts_run_child(scenario, env, c), 0);
	/* the fake aborts (SIGABRT, a negative code here) on an overlap */
	CU_ASSERT_EQUAL(c->exit_code, EXIT_STATUS);
	CU_ASSERT_EQUAL(ld_long(c, "worker_rc"), 0);
	if (c->exit_code != EXIT_STATUS)
		fprintf(stderr, "%s exited %d:\n%s\n%s\n", scenario, c->exit_code, c->out, c->err);
}

static void test_thread_ends_then_exit(void)
{
	struct ts_child c;

	run_thread_end("thread_ends_then_exit", &c);
	/* exit() waited for the worker's end: its record was released whole */
	CU_ASSERT_EQUAL(ld_long(&c, "record_released"), 1);
	CU_ASSERT_PTR_NULL(strstr(c.err, "went on"));
}

TS_TEST(test_thread_ends_then_exit, "a loading thread ends, then exit()");

static void test_exit_then_thread_ends(void)
{
	struct ts_child c;

	run_thread_end("exit_then_thread_ends", &c);
	/* the worker waited for the fake's exit handler, and not in vain */
	CU_ASSERT_PTR_NOT_NULL(strstr(c.err, "it waits until they have run"));
	CU_ASSERT_PTR_NULL(strstr(c.err, "waited 2000 ms"));
}

TS_TEST(test_exit_then_thread_ends, "exit(), then a loading thread ends");

static void test_pool_joins_at_exit(void)
{
	struct ts_child c;

	run_thread_end("pool_joins_at_exit", &c);
	/* the pool's handler ran before the stub's window: its thread ended
	 * at once, without waiting, and was joined */
	CU_ASSERT_EQUAL(ld_long(&c, "joined"), 1);
	CU_ASSERT_EQUAL(ld_long(&c, "record_released"), 1);
	CU_ASSERT_PTR_NULL(strstr(c.err, "it waits until"));
}

TS_TEST(test_pool_joins_at_exit, "a pool joins its loading thread at exit()");

static const struct ts_scenario scenarios[] = {
	{"exit_during_load", exit_during_load},
	{"thread_ends_then_exit", thread_ends_then_exit},
	{"exit_then_thread_ends", exit_then_thread_ends},
	{"pool_joins_at_exit", pool_joins_at_exit},
	{NULL, NULL},
};

TS_MAIN_SUITE("exit", NULL, NULL, scenarios)

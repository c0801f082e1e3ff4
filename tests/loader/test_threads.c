/*
 * Many threads make their first call at the same moment, and the search
 * stays open while the others arrive:
 *   - the fake's version probe is slow (FAKE_NVRTC_PROBE_SLOW_MS), outside
 *     the loader's lock: the others wait for that one search
 *     (loader_load.c), so there is exactly one;
 *   - the probe runs for 60 ms (FAKE_NVRTC_PROBE_BUSY_MS), six times
 *     longer than a first call waits for a search that does not run: the
 *     others wait all along, since it runs, and there is one search;
 *   - the fake is slow to load (FAKE_NVRTC_SLOW_MS, in its constructor,
 *     under the loader's lock, longer than a first call waits): the others
 *     stop waiting and search too, and one outcome is published.
 * Either way the fake is loaded once, every thread gets its answer, and
 * the published record shows one search's own dlopen.
 *
 * Even threads call nvrtcVersion first, odd ones nvrtcGetPTXSize, so two
 * resolvers race the same load.
 */
#define _GNU_SOURCE
#include "loader_test.h"

#include <CUnit/CUnit.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

enum { THREADS = 32, RUNS = 3 };

typedef int (*version_fn)(int *, int *);
typedef int (*size_fn)(void *, size_t *);
typedef const cudastub_library_info *(*info_fn)(void);

static pthread_barrier_t barrier;
static version_fn version;
static size_fn ptx_size;

struct result {
	int index, rc, major, minor, size_rc;
	size_t size;
};

/* The longest first call of the race: the search's, when the others
 * waited for it. */
static atomic_long longest_call_ns;

static void *first_call(void *arg)
{
	struct result *r = arg;
	struct timespec began, ended;
	long ns, seen;

	pthread_barrier_wait(&barrier);
	clock_gettime(CLOCK_MONOTONIC, &began);
	if (r->index % 2)
		r->size_rc = ptx_size(NULL, &r->size);
	r->rc = version(&r->major, &r->minor);
	if (!(r->index % 2))
		r->size_rc = ptx_size(NULL, &r->size);
	clock_gettime(CLOCK_MONOTONIC, &ended);
	ns = (ended.tv_sec - began.tv_sec) * 1000000000L + (ended.tv_nsec - began.tv_nsec);
	seen = atomic_load(&longest_call_ns);
	while (ns > seen && !atomic_compare_exchange_weak(&longest_call_ns, &seen, ns))
		;
	return NULL;
}

static int race(void)
{
	const char *path = getenv("CUDASTUB_NVRTC_PATH");
	static struct result results[THREADS];
	pthread_t threads[THREADS];
	const cudastub_library_info *info;
	void *stub = ld_open_stub(ld_stub()), *fake;
	int i, ok = 0, *loads, *calls;
	info_fn get_info;

	if (!stub || !path)
		return 3;
	version = (version_fn)dlsym(stub, "nvrtcVersion");
	ptx_size = (size_fn)dlsym(stub, "nvrtcGetPTXSize");
	get_info = (info_fn)dlsym(stub, "cudastub_nvrtc_info");
	if (!version || !ptx_size || !get_info)
		return 4;
	pthread_barrier_init(&barrier, NULL, THREADS);
	for (i = 0; i < THREADS; i++) {
		results[i].index = i;
		if (pthread_create(&threads[i], NULL, first_call, &results[i]) != 0)
			return 5;
	}
	for (i = 0; i < THREADS; i++)
		pthread_join(threads[i], NULL);
	for (i = 0; i < THREADS; i++)
		ok += results[i].rc == 0 && results[i].major == 13 && results[i].minor == 0 &&
		      results[i].size_rc == 0 && results[i].size == sizeof "fake-nvrtc-13";
	info = get_info();
	fake = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
	loads = fake ? dlsym(fake, "fake_nvrtc_loads") : NULL;
	calls = fake ? dlsym(fake, "fake_nvrtc_version_calls") : NULL;
	printf("ok_threads=%d\n", ok);
	printf("longest_call_ms=%ld\n", atomic_load(&longest_call_ns) / 1000000);
	printf("state=%d\n", (int)info->state);
	printf("search_runs=%lu\ndlopen_calls=%lu\n", info->search_runs, info->dlopen_calls);
	printf("fake_loads=%d\n", loads ? *loads : -1);
	printf("fake_version_calls=%d\n", calls ? *calls : -1);
	fflush(stdout);
	return 0;
}

/* One run of the race child: every thread got its answer from one load of
 * the fake. 0 when the child ran (its output is in c). */
static int run_race(const char *const *env, struct ts_child *c)
{
	if (ts_run_child("race", env, c) != 0)
		return -1;
	CU_ASSERT_EQUAL(c->exit_code, 0);
	CU_ASSERT_EQUAL(ld_long(c, "ok_threads"), THREADS);
	CU_ASSERT_EQUAL(ld_long(c, "state"), CUDASTUB_STATE_LOADED);
	CU_ASSERT_EQUAL(ld_long(c, "fake_loads"), 1);
	return 0;
}

static void test_first_call_race(void)
{
	const char *env[] = {ld_fmt("CUDASTUB_NVRTC_PATH=%s", ld_fake("nvrtc-13")),
			     "FAKE_NVRTC_SLOW_MS=100", NULL};
	struct ts_child c;
	int run;

	for (run = 0; run < RUNS; run++) {
		CU_ASSERT_EQUAL_FATAL(run_race(env, &c), 0);
		long searches = ld_long(&c, "fake_version_calls") - THREADS;

		CU_ASSERT_EQUAL(ld_long(&c, "dlopen_calls"), 1);
		/* one probe per search, then one forwarded call per thread */
		CU_ASSERT(searches >= 1 && searches <= THREADS);
		CU_ASSERT(ld_long(&c, "search_runs") >= 1 &&
			  ld_long(&c, "search_runs") <= searches);
	}
}

TS_TEST(test_first_call_race, "32 threads, one first call each");

/* The others wait for the one search: the probe is called once. */
static void test_one_search(void)
{
	const char *env[] = {ld_fmt("CUDASTUB_NVRTC_PATH=%s", ld_fake("nvrtc-13")),
			     "FAKE_NVRTC_PROBE_SLOW_MS=4", NULL};
	struct ts_child c;

	for (int run = 0; run < RUNS; run++) {
		CU_ASSERT_EQUAL_FATAL(run_race(env, &c), 0);
		/* a first call waits at most 10 ms for a search that does not
		 * run (loader_load.c), and this probe sleeps: where the search
		 * took longer (qemu-user, valgrind, a sanitizer, a loaded
		 * machine) the others may have stopped waiting and searched
		 * too, as designed. Without the wait each thread's
		 * call is short (only the first probe sleeps), so this still
		 * asserts one search there. */
		if (ld_long(&c, "longest_call_ms") < 10) {
			CU_ASSERT_EQUAL(ld_long(&c, "fake_version_calls") - THREADS, 1);
			CU_ASSERT_EQUAL(ld_long(&c, "search_runs"), 1);
		} else {
			long searches = ld_long(&c, "fake_version_calls") - THREADS;

			ts_not_applicable("the search took longer than a first call waits (10 ms): "
					  "one search is not asserted");
			CU_ASSERT(searches >= 1 && searches <= THREADS);
		}
	}
}

TS_TEST(test_one_search, "32 threads, a slow probe: one search, the others wait");

/* A search that runs, however long, is waited for: one search. */
static void test_running_search_waited_for(void)
{
	const char *env[] = {ld_fmt("CUDASTUB_NVRTC_PATH=%s", ld_fake("nvrtc-13")),
			     "FAKE_NVRTC_PROBE_BUSY_MS=60", NULL};
	struct ts_child c;

	for (int run = 0; run < RUNS; run++) {
		CU_ASSERT_EQUAL_FATAL(run_race(env, &c), 0);
		CU_ASSERT_EQUAL(ld_long(&c, "fake_version_calls") - THREADS, 1);
		CU_ASSERT_EQUAL(ld_long(&c, "search_runs"), 1);
		CU_ASSERT_TRUE(ld_long(&c, "longest_call_ms") >= 60);
	}
}

TS_TEST(test_running_search_waited_for, "32 threads, a probe that runs 60 ms: still one search");

static const struct ts_scenario scenarios[] = {{"race", race}, {NULL, NULL}};

TS_MAIN_SUITE("threads", NULL, NULL, scenarios)

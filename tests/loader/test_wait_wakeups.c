/*
 * A first call that finds another thread's search under way sleeps until
 * that search publishes, and the publication wakes it: it does not poll
 * (stubs/loader/load/loader_load.c). One of the waiting threads, the watcher,
 * wakes every few milliseconds to see whether the search still runs.
 *
 * The loader is compiled into this test with its futex calls made through
 * seam_futex_syscall (CMakeLists.txt: CUDASTUB_FUTEX_SYSCALL), which counts
 * each thread's waits on the library's word: whether timed, and how each
 * ended. The library is described (ld_nvrtc_library.h) over the fake NVRTC, whose version
 * probe runs (a busy loop, so the search runs all along) for 300 ms, so
 * that every other thread arrives while the first one searches.
 *   - one search, and every thread gets its answer;
 *   - every waiter but the watcher sleeps without a timeout, a few times at
 *     most (a signal or a word that changed before the sleep can end one
 *     early), never a polling loop;
 *   - each such sleep ended because it was woken, and its last with the
 *     outcome published: the publication woke it;
 *   - one thread at most sleeps in slices, the watcher, and it never
 *     begins a slice once the outcome is there (the publication wakes it,
 *     or comes as a slice runs out and is found before the next).
 * Then:
 *   - a first call made while this thread holds a loader lock (from a
 *     dl_iterate_phdr callback) does not wait for the search under way,
 *     which may be waiting for that lock: it searches at once;
 *   - a search that does not run for a second (a thread blocked for good)
 *     is given up: the watcher wakes the others, and every thread gets
 *     its answer.
 */
#define _GNU_SOURCE
#include <CUnit/CUnit.h>
#include <dlfcn.h>
#include <errno.h>
#include <linux/futex.h>
#include <link.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "ld_nvrtc_library.h"
#include "loader.h"
#include "test_support.h"

enum { THREADS = 12, MAX_WAITS = 100000 };

static struct cudastub_library library = LD_NVRTC_LIBRARY(ld_nvrtc_probe_version);

/* The same library, whose first probe sleeps first (probe_sleep_ms): a
 * search that does not run, as one blocked on a lock. */
static atomic_int probes;
static long probe_sleep_ms;

static int sleeping_probe(void *handle, const char *path, int *major, int *minor)
{
	struct timespec pause = {probe_sleep_ms / 1000, (probe_sleep_ms % 1000) * 1000000L};

	if (atomic_fetch_add(&probes, 1) == 0)
		nanosleep(&pause, NULL);
	return ld_nvrtc_probe_version(handle, path, major, minor);
}

static struct cudastub_library lock_holder = LD_NVRTC_LIBRARY(sleeping_probe);

static struct cudastub_library blocked = LD_NVRTC_LIBRARY(sleeping_probe);

/* What one thread's waits on the library's word came to. */
struct waits {
	int untimed, timed;
	int untimed_not_woken;	  /* ended other than by a wake (or a changed word) */
	int timed_woken;	  /* slices that a wake ended early */
	int slices_too_many;	  /* slices begun with the outcome already there */
	int published_after_last; /* the outcome was there when the last ended */
};

static _Thread_local struct waits mine;

long seam_futex_syscall(long number, ...);
long seam_futex_syscall(long number, ...)
{
	va_list ap;
	atomic_int *word;
	struct cudastub_library *lib;
	int op, value, last, published_before;
	const struct timespec *timeout;
	void *other;
	long rc;

	va_start(ap, number);
	word = va_arg(ap, atomic_int *);
	op = va_arg(ap, int);
	value = va_arg(ap, int);
	timeout = va_arg(ap, const struct timespec *);
	other = va_arg(ap, void *);
	last = va_arg(ap, int);
	va_end(ap);
	if ((word != &library.published && word != &blocked.published &&
	     word != &lock_holder.published) ||
	    (op & FUTEX_CMD_MASK) != FUTEX_WAIT)
		return syscall(number, word, op, value, timeout, other, last);
	lib = word == &library.published   ? &library
	      : word == &blocked.published ? &blocked
					   : &lock_holder;
	published_before = cudastub_loader_result(lib) != NULL;
	rc = syscall(number, word, op, value, timeout, other, last);
	if (timeout) {
		mine.timed++;
		mine.timed_woken += rc == 0;
		mine.slices_too_many += published_before && rc != 0 && errno == ETIMEDOUT;
	} else {
		mine.untimed++;
		/* 0: woken; EAGAIN: the word changed before the sleep began */
		mine.untimed_not_woken += rc != 0 && errno != EAGAIN;
	}
	mine.published_after_last = cudastub_loader_result(lib) != NULL;
	return rc;
}

static pthread_barrier_t start;
static struct waits seen[THREADS];
static void *answers[THREADS];
static struct cudastub_library *racing;

static void *first_call(void *arg)
{
	int i = (int)(size_t)arg;

	pthread_barrier_wait(&start);
	answers[i] = cudastub_loader_bind(racing, "nvrtcVersion", &ld_nvrtc_row);
	seen[i] = mine;
	return NULL;
}

/* THREADS first calls of lib, released together. */
static void race(struct cudastub_library *lib)
{
	pthread_t threads[THREADS];

	racing = lib;
	memset(seen, 0, sizeof seen);
	pthread_barrier_init(&start, NULL, THREADS);
	for (int i = 0; i < THREADS; i++)
		pthread_create(&threads[i], NULL, first_call, (void *)(size_t)i);
	for (int i = 0; i < THREADS; i++)
		pthread_join(threads[i], NULL);
	pthread_barrier_destroy(&start);
}

static void test_waiters_sleep_until_the_publication(void)
{
	int watchers = 0, sleepers = 0;

	CU_ASSERT_EQUAL_FATAL(setenv("LD_NVRTC_PATH", FAKE_NVRTC_13, 1), 0);
	CU_ASSERT_EQUAL_FATAL(setenv("FAKE_NVRTC_PROBE_BUSY_MS", "300", 1), 0);
	race(&library);
	unsetenv("FAKE_NVRTC_PROBE_BUSY_MS");
	CU_ASSERT_EQUAL(atomic_load(&library.search_runs), 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(cudastub_loader_result(&library));
	for (int i = 0; i < THREADS; i++) {
		const struct waits *w = &seen[i];

		CU_ASSERT_PTR_NOT_NULL(answers[i]);
		CU_ASSERT_PTR_EQUAL(answers[i], answers[0]);
		if (w->timed) {
			watchers++;
			/* woken by the publication, or it came just as a
			 * slice ran out, and the watcher found it before
			 * sleeping again: never a slice begun after it */
			CU_ASSERT(w->timed_woken <= 1);
			CU_ASSERT_EQUAL(w->slices_too_many, 0);
			continue;
		}
		if (!w->untimed)
			continue; /* the searcher, or a thread that came late */
		sleepers++;
		printf("  thread %d: %d sleep(s), %d not ended by a wake\n", i, w->untimed,
		       w->untimed_not_woken);
		CU_ASSERT(w->untimed <= 3);
		CU_ASSERT_EQUAL(w->untimed_not_woken, 0);
		CU_ASSERT_EQUAL(w->published_after_last, 1);
	}
	printf("  %d thread(s) slept until woken, %d watched\n", sleepers, watchers);
	CU_ASSERT(watchers <= 1);
	/* the probe runs 300 ms: the others have arrived by then */
	CU_ASSERT(sleepers + watchers >= THREADS - 2);
}

TS_TEST(test_waiters_sleep_until_the_publication,
	"first calls sleep until the search publishes, and its wake ends the sleep");

/* ---- a first call made while holding a loader lock ---- */

static void *answer_in_walk;
static struct waits waits_in_walk;

static int call_in_walk(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)info, (void)size, (void)data;
	answer_in_walk = cudastub_loader_bind(&lock_holder, "nvrtcVersion", &ld_nvrtc_row);
	waits_in_walk = mine;
	return 1;
}

static void *search_first(void *arg)
{
	(void)arg;
	return cudastub_loader_bind(&lock_holder, "nvrtcVersion", &ld_nvrtc_row);
}

/*
 * ThreadSanitizer's dlopen interceptor takes a lock of its own and then
 * walks the loaded objects (dl_iterate_phdr, whose list lock it needs).
 * This case calls dlopen inside dl_iterate_phdr on purpose while another
 * thread's search calls dlopen: that thread, holding the sanitizer's lock,
 * waits for the list lock, and this one, holding the list lock, waits for
 * the sanitizer's. Both stop inside the sanitizer (LibIgnore::
 * OnLibraryLoaded, seen in gdb), so under it the case is not run; the
 * plain, valgrind and ASan builds run it.
 */
#if defined(__SANITIZE_THREAD__)
#define UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define UNDER_TSAN 1
#endif
#endif
#ifndef UNDER_TSAN
#define UNDER_TSAN 0
#endif

static void test_a_loader_lock_holder_does_not_wait(void)
{
	pthread_t searcher;
	void *answer;

	if (UNDER_TSAN) {
		ts_not_applicable("ThreadSanitizer's dlopen deadlocks against a dlopen inside "
				  "dl_iterate_phdr");
		return;
	}
	if (cudastub_loader_lock_held() < 0) {
		ts_not_applicable("the dynamic loader's locks cannot be read here");
		return;
	}
	CU_ASSERT_EQUAL_FATAL(setenv("LD_NVRTC_PATH", FAKE_NVRTC_13, 1), 0);
	atomic_store(&probes, 0);
	probe_sleep_ms = 500;
	pthread_create(&searcher, NULL, search_first, NULL);
	while (atomic_load(&lock_holder.search_runs) == 0)
		sched_yield();
	/* the search is under way (its probe sleeps): this call holds the
	 * list lock, which the search may need, and searches itself */
	dl_iterate_phdr(call_in_walk, NULL);
	pthread_join(searcher, &answer);
	CU_ASSERT_PTR_NOT_NULL(answer_in_walk);
	CU_ASSERT_PTR_EQUAL(answer_in_walk, answer);
	CU_ASSERT_EQUAL(waits_in_walk.untimed + waits_in_walk.timed, 0);
	CU_ASSERT_EQUAL(atomic_load(&lock_holder.search_runs), 2);
}

TS_TEST(test_a_loader_lock_holder_does_not_wait,
	"a first call that holds a loader lock searches instead of waiting");

/* ---- a search that does not run ---- */

/* A search that does not run is given up after a bounded wait: its probe
 * sleeps longer than the watcher waits for a stalled search (a second),
 * as a search blocked for good does; the others search too, and one
 * outcome is published. */
static void test_a_search_that_does_not_run_is_given_up(void)
{
	int watchers = 0;

	CU_ASSERT_EQUAL_FATAL(setenv("LD_NVRTC_PATH", FAKE_NVRTC_13, 1), 0);
	atomic_store(&probes, 0);
	probe_sleep_ms = 1500;
	race(&blocked);
	CU_ASSERT_PTR_NOT_NULL_FATAL(cudastub_loader_result(&blocked));
	for (int i = 0; i < THREADS; i++) {
		CU_ASSERT_PTR_NOT_NULL(answers[i]);
		watchers += seen[i].timed > 0;
	}
	CU_ASSERT_EQUAL(watchers, 1);
	CU_ASSERT(atomic_load(&blocked.search_runs) >= 2);
}

TS_TEST(test_a_search_that_does_not_run_is_given_up,
	"a search that does not run is given up, and every call is answered");

TS_MAIN_SUITE("wait_wakeups", NULL, NULL, NULL)

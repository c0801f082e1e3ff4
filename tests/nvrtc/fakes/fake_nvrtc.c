/*
 * A fake libnvrtc, built by the tests in several variants (see
 * tests/nvrtc/fakes/CMakeLists.txt):
 *   FAKE_MAJOR, FAKE_MINOR   what nvrtcVersion reports
 *   FAKE_TAG                 a string identifying the variant
 *   FAKE_LACKS_PTX           leave out nvrtcGetPTX (a present library that
 *                            lacks one symbol)
 * It counts its loads (constructor runs) and calls, and can be made slow to
 * load (FAKE_NVRTC_SLOW_MS, in its constructor, under the loader's lock)
 * or slow to answer its first nvrtcVersion, the stub's version probe
 * (FAKE_NVRTC_PROBE_SLOW_MS, outside that lock, asleep; or
 * FAKE_NVRTC_PROBE_BUSY_MS, running all along, as a large library's
 * load does), to widen a race.
 * With FAKE_NVRTC_THREAD_RECORDS set, it keeps libnvrtc's per-thread
 * records (below), to show what a thread that ends during exit() meets.
 * nvrtcGetPTX copies FAKE_TAG,
 * so a test can tell which fake answered.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int nvrtcResult;
typedef struct fake_program *nvrtcProgram;

int fake_nvrtc_loads;
int fake_nvrtc_version_calls;

static void sleep_as(const char *variable)
{
	const char *slow = getenv(variable);

	if (slow) {
		long ms = atol(slow);
		struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

		nanosleep(&ts, NULL);
	}
}

/* Runs (does not sleep) for the milliseconds variable says: the thread's
 * own CPU clock is what advances. */
static void busy_as(const char *variable)
{
	const char *busy = getenv(variable);
	struct timespec start, now;
	long ms;

	if (!busy || (ms = atol(busy)) <= 0)
		return;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
	do
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
	while ((now.tv_sec - start.tv_sec) * 1000L + (now.tv_nsec - start.tv_nsec) / 1000000L < ms);
}

/*
 * libnvrtc 13's per-thread records, as its code shows them: its
 * constructors give the thread that loads it a record, which a pthread
 * key destructor releases when that thread ends, under a lock of the
 * library's; its exit handler takes the registry of records down and
 * destroys that lock. A thread that ends while the handler runs locks a
 * lock being destroyed: glibc's assertion in pthread_mutex_lock, in 1 run
 * of 60 of tests/e2e/test_exit_race.c once. Linked directly, the main
 * thread loads it and never runs its key destructors; loaded by a stub's
 * first call on a worker, the worker does, when it ends.
 * The fake keeps each side inside for FAKE_NVRTC_TEARDOWN_MS (default
 * 200) and aborts when it finds the other inside too: the overlap, seen
 * every time rather than once in a thousand runs. The two flags are
 * exported, so that a test can time a thread's end or an exit() to them.
 */
int fake_nvrtc_record_releasing;
int fake_nvrtc_teardown_running;
static pthread_key_t thread_record;

static void hold_inside(int *mine, const int *other, const char *what)
{
	const char *ms = getenv("FAKE_NVRTC_TEARDOWN_MS");
	long wait_ms = ms ? atol(ms) : 200;
	struct timespec ts = {wait_ms / 1000, (wait_ms % 1000) * 1000000L};

	__atomic_store_n(mine, 1, __ATOMIC_SEQ_CST);
	if (!__atomic_load_n(other, __ATOMIC_SEQ_CST))
		nanosleep(&ts, NULL);
	if (__atomic_load_n(other, __ATOMIC_SEQ_CST)) {
		fprintf(stderr, "fake libnvrtc: %s while the other side ran: the crash\n", what);
		abort();
	}
	__atomic_store_n(mine, 0, __ATOMIC_SEQ_CST);
}

static void release_record(void *record)
{
	hold_inside(&fake_nvrtc_record_releasing, &fake_nvrtc_teardown_running,
		    "a thread's record released");
	printf("record_released=1\n");
	fflush(stdout);
	free(record);
}

static void take_registry_down(void)
{
	hold_inside(&fake_nvrtc_teardown_running, &fake_nvrtc_record_releasing,
		    "the registry taken down");
}

__attribute__((constructor)) static void fake_loaded(void)
{
	fake_nvrtc_loads++;
	sleep_as("FAKE_NVRTC_SLOW_MS");
	if (getenv("FAKE_NVRTC_THREAD_RECORDS") &&
	    pthread_key_create(&thread_record, release_record) == 0) {
		pthread_setspecific(thread_record, malloc(16));
		atexit(take_registry_down);
	}
}

nvrtcResult nvrtcVersion(int *major, int *minor)
{
	if (__atomic_add_fetch(&fake_nvrtc_version_calls, 1, __ATOMIC_RELAXED) == 1) {
		sleep_as("FAKE_NVRTC_PROBE_SLOW_MS");
		busy_as("FAKE_NVRTC_PROBE_BUSY_MS");
	}
	*major = FAKE_MAJOR;
	*minor = FAKE_MINOR;
	return 0;
}

const char *nvrtcGetErrorString(nvrtcResult r)
{
	return r == 0 ? "NVRTC_SUCCESS" : "FAKE_ERROR";
}

nvrtcResult nvrtcGetPTXSize(nvrtcProgram prog, size_t *size)
{
	(void)prog;
	*size = sizeof FAKE_TAG;
	return 0;
}

#ifndef FAKE_LACKS_PTX
nvrtcResult nvrtcGetPTX(nvrtcProgram prog, char *ptx)
{
	(void)prog;
	memcpy(ptx, FAKE_TAG, sizeof FAKE_TAG);
	return 0;
}
#endif

/* Present in 11 and 12 only; the 13-ABI stub must never call it. */
nvrtcResult nvrtcGetNVVMSize(nvrtcProgram prog, size_t *size)
{
	(void)prog;
	*size = 1234;
	return 0;
}

/* Arrived in 12.8. Every fake exports it, so a test can show that the
 * stub forwards it to 12 and 13 but never calls it in 11, where the gating
 * table says no 11.x has it. */
nvrtcResult nvrtcGetPCHHeapSize(size_t *size)
{
	*size = FAKE_MAJOR * 1000 + FAKE_MINOR;
	return 0;
}

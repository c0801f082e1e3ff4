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
 * nvrtcGetPTX copies FAKE_TAG,
 * so a test can tell which fake answered.
 */
#define _GNU_SOURCE
#include <stddef.h>
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

__attribute__((constructor)) static void fake_loaded(void)
{
	fake_nvrtc_loads++;
	sleep_as("FAKE_NVRTC_SLOW_MS");
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

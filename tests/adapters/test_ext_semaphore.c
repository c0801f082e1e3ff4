/*
 * External semaphores: cudaSignal/WaitExternalSemaphoresAsync[_ptsz] (13)
 * and the _v2 names of 11 and 12 are one function (the spec's
 * `same_function` lines for them; the generated routes call the name the
 * loaded major has), one 144-byte element, passed on as it is; the plain
 * names of 11 and 12 (the 32-byte _v1 element) are never called by a stub
 * of another ABI.
 *
 * Fake arguments: semaphores, params, count, stream, and the last element's
 * fence value and flags, read at the 144-byte layout.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "adapters_test.h"

#define STREAM ((cudaStream_t)0x5)

typedef cudaError_t (*signal_fn)(const cudaExternalSemaphore_t *,
				 const struct cudaExternalSemaphoreSignalParams *, unsigned int,
				 cudaStream_t);
typedef cudaError_t (*wait_fn)(const cudaExternalSemaphore_t *,
			       const struct cudaExternalSemaphoreWaitParams *, unsigned int,
			       cudaStream_t);

/* ---- child scenarios ---- */

/* Calls the four names with two elements; the second says fence 77, flags 1. */
static void call_all(const char *signal, const char *signal_ptsz, const char *wait,
		     const char *wait_ptsz)
{
	cudaExternalSemaphore_t sems[2] = {(cudaExternalSemaphore_t)0x51,
					   (cudaExternalSemaphore_t)0x52};
	struct cudaExternalSemaphoreSignalParams sp[2];
	struct cudaExternalSemaphoreWaitParams wp[2];

	memset(sp, 0, sizeof sp);
	memset(wp, 0, sizeof wp);
	sp[1].params.fence.value = 77;
	sp[1].flags = 1;
	wp[1].params.fence.value = 78;
	wp[1].flags = 1;
	printf("sems=%lld\nsignal_params=%lld\nwait_params=%lld\n", (long long)(intptr_t)sems,
	       (long long)(intptr_t)sp, (long long)(intptr_t)wp);
	ad_report("signal", ((signal_fn)ad_stub_symbol(signal))(sems, sp, 2, STREAM));
	ad_report("signal_ptsz", ((signal_fn)ad_stub_symbol(signal_ptsz))(sems, sp, 2, STREAM));
	ad_report("wait", ((wait_fn)ad_stub_symbol(wait))(sems, wp, 2, STREAM));
	ad_report("wait_ptsz", ((wait_fn)ad_stub_symbol(wait_ptsz))(sems, wp, 2, STREAM));
}

static int semaphores_13(void)
{
	call_all("cudaSignalExternalSemaphoresAsync", "cudaSignalExternalSemaphoresAsync_ptsz",
		 "cudaWaitExternalSemaphoresAsync", "cudaWaitExternalSemaphoresAsync_ptsz");
	return 0;
}

static int semaphores_v2(void)
{
	call_all("cudaSignalExternalSemaphoresAsync_v2",
		 "cudaSignalExternalSemaphoresAsync_v2_ptsz", "cudaWaitExternalSemaphoresAsync_v2",
		 "cudaWaitExternalSemaphoresAsync_v2_ptsz");
	return 0;
}

/* ---- checks ---- */

/* The step reached the fake's `target`, never `other` (the same function
 * under the name the other majors give it, or the _v1 form), with the
 * caller's own arrays, read at the 144-byte layout. */
static void expect_step(const struct ts_child *c, const char *step, const char *target,
			const char *other, const char *params_key, long long fence)
{
	AD_CALLED(c, step, target);
	AD_NOT_CALLED(c, step, other);
	AD_STEP_VALUE(c, step, "rc", cudaSuccess);
	AD_STEP_SAME(c, step, "arg0", "sems");
	AD_STEP_SAME(c, step, "arg1", params_key);
	AD_STEP_VALUE(c, step, "arg2", 2);
	AD_STEP_VALUE(c, step, "arg3", 0x5);
	AD_STEP_VALUE(c, step, "arg4", fence);
	AD_STEP_VALUE(c, step, "arg5", 1);
}

/* Every step reaching the _v2 name of an 11 or 12 runtime (v2 set), or
 * 13's plain name, and never the other. */
static void expect_targets(const struct ts_child *c, int v2)
{
	static const struct {
		const char *step, *v2_name, *plain_name, *params_key;
		long long fence;
	} steps[] = {
		{"signal", "cudaSignalExternalSemaphoresAsync_v2",
		 "cudaSignalExternalSemaphoresAsync", "signal_params", 77},
		{"signal_ptsz", "cudaSignalExternalSemaphoresAsync_v2_ptsz",
		 "cudaSignalExternalSemaphoresAsync_ptsz", "signal_params", 77},
		{"wait", "cudaWaitExternalSemaphoresAsync_v2", "cudaWaitExternalSemaphoresAsync",
		 "wait_params", 78},
		{"wait_ptsz", "cudaWaitExternalSemaphoresAsync_v2_ptsz",
		 "cudaWaitExternalSemaphoresAsync_ptsz", "wait_params", 78},
	};

	for (size_t i = 0; i < sizeof steps / sizeof *steps; i++)
		expect_step(c, steps[i].step, v2 ? steps[i].v2_name : steps[i].plain_name,
			    v2 ? steps[i].plain_name : steps[i].v2_name, steps[i].params_key,
			    steps[i].fence);
}

/* An 11 or 12 runtime: its _v2 names. */
static void reaches_v2_names(const struct ts_child *c)
{
	expect_targets(c, 1);
}

/* A 13 runtime: its plain names. */
static void reaches_plain_names(const struct ts_child *c)
{
	expect_targets(c, 0);
}

static const struct ad_case cases[] = {
	AD_REPORTED("13 on 12: _v2", 13, "12", semaphores_13, reaches_v2_names),
	AD_REPORTED("13 on 11: _v2", 13, "11", semaphores_13, reaches_v2_names),
	AD_REPORTED("12 _v2 on 13: plain names", 12, "13", semaphores_v2, reaches_plain_names),
	AD_REPORTED("11 _v2 on 13: plain names", 11, "13", semaphores_v2, reaches_plain_names),
	AD_REPORTED("12 _v2 on 11: _v2", 12, "11", semaphores_v2, reaches_v2_names),
	AD_REPORTED("11 _v2 on 12: _v2", 11, "12", semaphores_v2, reaches_v2_names),
	AD_END,
};

AD_MAIN("external semaphore adapters", cases)

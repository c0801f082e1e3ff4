/*
 * The suites of the memory-location, capture-info, cudaThread*, graph
 * instantiation and update, driver entry point and external semaphore
 * adapters (stubs/cudart/adapt_{mem_location,capture_info,thread,
 * instantiate,exec_update,entry_point,ext_semaphore}.c). One executable per
 * adapter file:
 *
 *   test_mem_location.c  test_capture_info.c  test_thread.c
 *   test_instantiate.c (and cudaGraphExecUpdate)  test_entry_point.c
 *   test_ext_semaphore.c
 *
 * Each case runs a child scenario: the stub of one ABI (the build's 13, or
 * the 12- and 11-ABI stubs of tests/abi_stubs.cmake), opened by path, loading the
 * fake runtime of one major (tests/cudart/fakes/cudart-<M>, which logs its calls
 * and keeps their arguments: fake_cudart_memory.c). The scenario makes
 * calls in named steps; after each, am_report prints
 *   <step>.rc      what the stub returned
 *   <step>.calls   the fake's functions called since the previous step,
 *                  as ",name,name,"
 *   <step>.argN    the last call's arguments (fake_memory_args)
 * and the scenario adds what the outputs held. The parent checks them.
 */
#ifndef CUDASTUB_TESTS_ADAPTERS_MEMORY_H
#define CUDASTUB_TESTS_ADAPTERS_MEMORY_H

#include <CUnit/CUnit.h>
#include <cuda_runtime_api.h>

#include "test_support.h"

/* What fake_cudart_memory.c answers with (see there). */
#define AM_BAD_GRAPH	   0xbad
#define AM_ERROR_NODE	   0xe7
#define AM_ERROR_FROM_NODE 0xf7
#define AM_GRAPH_EXEC	   0xe8e
#define AM_GRAPH	   0x6a0

/* ---- parent ---- */

/* Runs scenario with the stub of ABI stub_abi over the fake runtime of
 * fake_major. Returns 1 when it ran and exited 0; otherwise 0, after
 * reporting why (a missing fixture: a failure in CI, a SKIP elsewhere). */
int am_run(int stub_abi, int fake_major, const char *scenario, struct ts_child *child);

/* Registers a suite, or prints SKIP when the build is not the 13.0 ABI
 * these cases are written for; NULL then. */
CU_pSuite am_suite(const char *name);

/* Expectations on the last am_run's output; failures name the case. */
#define AM_EXPECT(c, key, want)	   am_expect_at(__FILE__, __LINE__, (c), (key), (want))
#define AM_CALLED(c, step, fn)	   am_called_at(__FILE__, __LINE__, (c), (step), (fn), 1)
#define AM_NOT_CALLED(c, step, fn) am_called_at(__FILE__, __LINE__, (c), (step), (fn), 0)
/* The step called nothing in the fake. */
#define AM_NO_CALLS(c, step)	 am_called_at(__FILE__, __LINE__, (c), (step), NULL, 0)
#define AM_SAME(c, key_a, key_b) am_same_at(__FILE__, __LINE__, (c), (key_a), (key_b))
void am_expect_at(const char *file, int line, const struct ts_child *c, const char *key,
		  long long want);
void am_called_at(const char *file, int line, const struct ts_child *c, const char *step,
		  const char *fn, int want); /* fn NULL: nothing at all */
void am_same_at(const char *file, int line, const struct ts_child *c, const char *key_a,
		const char *key_b);

/* ---- child ---- */

/* The stub's export `name` (the stub is AM_STUB); exits when missing. */
void *am_symbol(const char *name);
/* Whether the stub exports `name`. */
int am_exports(const char *name);
/* Prints <step>.rc, .calls and .argN, as above. */
void am_report(const char *step, int rc);

#endif

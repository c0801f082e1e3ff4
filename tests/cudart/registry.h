/*
 * Deferred registration and its replay (stubs/cudart/cudart_registry.c),
 * proven with the fake runtimes, which log every registration call they
 * receive (tests/cudart/fakes/fake_cudart_register.c):
 *   registry_main.c   the suites: every stub ABI and shim on every fake
 *   registry_child.c  the scenarios, run in a child each
 *   registry_fork.c   cancellation and fork against the registry's lock
 *                     and replay: the suite and its scenarios
 */
#ifndef CUDASTUB_TESTS_REGISTRY_H
#define CUDASTUB_TESTS_REGISTRY_H

#include <cuda_runtime_api.h>

/* One event line of the fake (fake_cudart_register.c, EVENT_LEN). */
#define RG_EVENT_LEN 160

/* The stub's entry points the scenarios call (registry_child.c opens the
 * stub named by RG_STUB: rg_open_stub, 1 when every one was found). */
struct rg_stub_calls {
	void **(*fat_binary)(void *);
	void (*fat_binary_end)(void **);
	void (*unregister)(void **);
	void (*function)(void **, const char *, char *, const char *, int, uint3 *, uint3 *, dim3 *,
			 dim3 *, int *);
	void (*var)(void **, char *, char *, const char *, int, size_t, int, int);
	void (*managed_var)(void **, void **, char *, const char *, int, size_t, int, int);
	char (*init_module)(void **);
	unsigned (*push)(dim3, dim3, size_t, struct CUstream_st *);
	cudaError_t (*launch)(const void *, dim3, dim3, void **, size_t, cudaStream_t);
	cudaError_t (*device_count)(int *);
	cudaError_t (*last_error)(void);
};
extern struct rg_stub_calls rg_stub;
int rg_open_stub(void);
/* Prints what the fake runtime (CUDASTUB_CUDART_PATH) saw: events=... */
void rg_print_events(void);
/* The fake runtime of a major, or NULL after reporting it unavailable
 * (registry_main.c). */
const char *rg_fake_path(int major);

int rg_scenario_replay(void);
int rg_scenario_init_first(void);
int rg_scenario_launch_first(void);
int rg_scenario_no_runtime(void);

/* Cancellation and fork around the registry (registry_fork.c). */
int rg_scenario_cancel_in_fork(void);
int rg_scenario_cancel_in_first_call(void);
int rg_scenario_fork_during_replay(void);
void rg_register_fork_suite(void);

#endif

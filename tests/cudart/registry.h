/*
 * Deferred registration and its replay (stubs/cudart/cudart_registry.c),
 * proven with the fake runtimes, which log every registration call they
 * receive (tests/cudart/fakes/fake_cudart_register.c):
 *   registry_main.c   the suites: every stub ABI and shim on every fake
 *   registry_child.c  the scenarios, run in a child each
 */
#ifndef CUDASTUB_TESTS_REGISTRY_H
#define CUDASTUB_TESTS_REGISTRY_H

#include <cuda_runtime_api.h>

/* One event line of the fake (fake_cudart_register.c, EVENT_LEN). */
#define RG_EVENT_LEN 160

int rg_scenario_replay(void);
int rg_scenario_init_first(void);
int rg_scenario_launch_first(void);
int rg_scenario_no_runtime(void);

#endif

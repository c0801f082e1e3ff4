/*
 * The first call against the dynamic loader and fork
 * (stubs/loader/load/loader_load.c, stubs/cudart/cudart_registry.c):
 *   race_main.c    the suites, each scenario run hundreds of times
 *   race_child.c   the scenarios, one fresh process each
 *   race_storm.c   the 64-thread first-call storm
 *   race_plugin.c  a library whose constructor calls the stub
 */
#ifndef CUDASTUB_TESTS_RACE_H
#define CUDASTUB_TESTS_RACE_H

#include <cuda_runtime_api.h>

#include "cudastub/cudastub.h"

/* One event line of the fake runtime (fake_cudart_register.c). */
#define RACE_EVENT_LEN 160

int race_scenario_loader_lock(void);
int race_scenario_fork_before(void);
int race_scenario_fork_after(void);
int race_scenario_fork_storm(void);
int race_scenario_plugin_storm(void);
int race_scenario_function_storm(void);

/* A scenario's bound: an alarm of RACE_BOUND_S (default 20) seconds, so a
 * hang ends as SIGALRM. */
void race_bound(void);

#endif

/*
 * The real-library suite: the one stub binary against the real 11.8, 12.4
 * and 13.0 runtimes, each selected by CUDASTUB_CUDART_PATH and by
 * CUDASTUB_CUDART_MAJOR. The parent (real_cudart_main.c) runs children
 * (real_cudart_child.c) and compares what the stub answered with what the
 * same library answers when called directly.
 */
#ifndef CUDASTUB_REAL_CUDART_H
#define CUDASTUB_REAL_CUDART_H

#include "cudart_test.h"

/* The child's environment: the file the stub should load, whether the
 * sequence starts with cudaGetLastError, the runtime's ABI record. */
#define RC_FILE_VAR	  "CT_FILE"
#define RC_LAST_FIRST_VAR "CT_LAST_FIRST"
#define RC_ABI_VAR	  "CT_ABI"

extern const struct ts_scenario rc_scenarios[];

#endif

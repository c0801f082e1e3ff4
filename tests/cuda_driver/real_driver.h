/*
 * Debian's real driver 550 (libcuda.so.1, CUDA 12.4; the driver-550
 * fixture) through the stub and through the shim, selected by
 * CUDASTUB_CUDA_PATH and found by LD_LIBRARY_PATH. The parent
 * (real_main.c) runs children (real_child.c) that call the stub first,
 * then the very file it loaded directly (CD_DRIVER, opened with
 * RTLD_NOLOAD: that succeeds only if the stub loaded it), and compares.
 */
#ifndef CUDASTUB_CD_REAL_DRIVER_H
#define CUDASTUB_CD_REAL_DRIVER_H

#include "cuda_driver_test.h"

/* What the children leave untouched outputs holding. */
#define CD_UNTOUCHED (-7)

extern const struct ts_scenario rd_scenarios[];

/* real_procs.c: cuGetProcAddress and _v2, stub against direct, printed as
 * gpa_<symbol>_<version>_* and gpa2_... lines. */
void rd_compare_get_proc(void *stub, void *direct);

#endif

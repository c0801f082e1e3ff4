/*
 * What the driver stub's suites share (tests/cuda_driver). Each child
 * opens the library under test by path (CD_LIB: the stub, or the shim
 * under the SONAME libcuda.so.1), so every scenario runs for both, and
 * calls it through dlsym with prototypes of its own.
 *
 * The suites, one executable each:
 *   real_*.c       Debian's real driver 550 through the stub (real)
 *   link_stub.c    NVIDIA's link-time stub ahead of the real driver (real)
 *   no_driver_*.c  every export without a driver (unit)
 *   fake_driver.c  legacy and _v2 names reach their own symbols (unit)
 *   exports.c      the exported set and the wrappers' shape (unit)
 * and, from tests/support, ts_child.h (child scenarios under a label),
 * ts_abi.h (ABI records), ts_driver.h (the fixture, the link-time stub).
 */
#ifndef CUDASTUB_CUDA_DRIVER_TEST_H
#define CUDASTUB_CUDA_DRIVER_TEST_H

#include <stddef.h>

#include "cudastub/cudastub.h"
#include "test_support.h"
#include "ts_abi.h"
#include "ts_child.h"
#include "ts_driver.h"

/* CUresult values the tests name (the build's cuda.h is not included, so
 * that each call's prototype is the test's own). */
enum {
	CD_SUCCESS = 0,
	CD_INVALID_VALUE = 1,
	CD_NOT_INITIALIZED = 3,
	CD_STUB_LIBRARY = 34,
	CD_NO_DEVICE = 100,
	CD_NOT_FOUND = 500,
	/* the stub's own code without a driver: what NVIDIA's driver answers
	 * with no device (stubs/cuda_driver/cuda.spec); 34 is the
	 * link-time stub's */
	CD_NO_DRIVER = CD_NO_DEVICE,
};

/* The child's environment. */
#define CD_LIB_VAR     "CD_LIB"	    /* the stub or the shim, opened by path */
#define CD_DRIVER_VAR  "CD_DRIVER"  /* the driver file the stub should load */
#define CD_SYMBOLS_VAR "CD_SYMBOLS" /* cuda.symbols */
#define CD_ABI_VAR     "CD_ABI"	    /* the ABI record of the build headers */

/* One library under test: the stub or the shim. */
struct cd_lib {
	const char *label; /* "stub", "shim" */
	const char *path;  /* NULL when not built */
};
enum { CD_LIB_COUNT = 2 };
/* The stub and the shim (the shim's path NULL when shims are off). */
const struct cd_lib *cd_libs(void);
/* The library under test, or NULL after reporting (a build without
 * shims: printed SKIP). */
const char *cd_lib_path(const struct cd_lib *lib);

/* What a suite of cd_main runs its tests for. */
struct cd_selection {
	const struct cd_lib *lib;
	int way;	/* its index in the ways given; 0 without */
	char label[96]; /* "<library>, <way>", or the library's label alone */
};
extern struct cd_selection cd_selected;

/* ts_main for a driver suite: the tests in a suite per library and way
 * (ways: NULL-ended, or NULL for one way), named "<title>: <label>", in
 * that order; before a suite's tests, cd_selected says what they run for.
 * (cd_suites.c) */
int cd_main(int argc, char **argv, const struct ts_scenario *scenarios, const char *title,
	    const char *const *ways, const struct ts_test *tests);

/* Build outputs and sources (static strings). */
const char *cd_stub(void);	   /* <build>/stubs/cuda_driver/libcuda_stub.so */
const char *cd_shim(void);	   /* <build>/shim/driver/libcuda.so.1, or NULL */
const char *cd_fake(void);	   /* <build>/tests/cuda_driver/fakes/cuda-driver/libcuda.so.1 */
const char *cd_symbols_file(void); /* generated/cuda/cu<M>/cuda.symbols */
const char *cd_abi_record(void);   /* data/abi/cuda-<M.m>.abi of the build */

/* The 550 fixture's libcuda.so.1 in buf; NULL after reporting it missing. */
const char *cd_driver_file(char *buf, size_t size);

/* ---- in a child ---- */

/* The library CD_LIB names, opened; NULL after a message. */
void *cd_open_lib(void);
/* dlsym, or NULL after a message on stderr. */
void *cd_sym(void *handle, const char *name);
/* Makes the library search now (cudastub_cuda_load), prints load=<state>
 * and its info (ts_print_info); returns 0, or -1 without those entries. */
int cd_search(void *lib);

/* Calls fn with 8 zero integer arguments, more than any CUresult function
 * of cuda.h reads from registers; -1 when fn is NULL. */
typedef int (*cd_zero_args_fn)(long, long, long, long, long, long, long, long);
int cd_call_with_zeros(void *fn);

#endif

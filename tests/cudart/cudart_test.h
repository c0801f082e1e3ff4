/*
 * What the runtime stub's suites share (tests/cudart):
 *
 *   ct_paths.c    where the stubs and the real runtimes are
 *   ct_api.c      the calls the real-library suite compares, through the
 *                 stub or through dlsym on a library
 * and, from tests/support, ts_child.h (child scenarios under a label, and
 * expectations on their output), ts_abi.h (ABI records) and ts_driver.h
 * (the driver fixture, NVIDIA's link-time stub).
 *
 * The suites, one executable each:
 *   real_cudart_*.c    real 11.8, 12.4, 13.0 through the one stub (real)
 *   driver_choice.c    the driver-aware choice of major (real)
 *   in_place.c         the pure functions answered without a runtime (real)
 *   no_library_*.c     every export without a runtime (unit)
 *   exports_main.c     the exported set and the wrappers' shape (unit)
 *   registry_*.c       deferred registration and its replay, on the fakes (unit)
 *   cli_driver.c       cudastub info shows the driver and the choice (e2e)
 */
#ifndef CUDASTUB_CUDART_TEST_H
#define CUDASTUB_CUDART_TEST_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#include "cudastub/cudastub.h"
#include "test_support.h"
#include "ts_abi.h"
#include "ts_child.h"
#include "ts_driver.h"

/* The stub's own code when no runtime could be loaded: what NVIDIA's
 * runtime answers on a machine without a driver (stubs/cudart/cudart.spec),
 * so that programs take it as "no GPU here". */
#define CT_NO_RUNTIME cudaErrorInsufficientDriver

/* ---- ct_paths.c ---- */

/* A real runtime: a Debian fixture, or the local toolkit's. */
struct ct_runtime {
	const char *version; /* "11.8" */
	int major;
	int number;	     /* what cudaRuntimeGetVersion reports: 11080 */
	const char *fixture; /* "cuda-11.8", or NULL for the toolkit's */
	const char *file;    /* file name in the fixture's libdir, or a path */
};

enum { CT_RUNTIME_COUNT = 3 };
extern const struct ct_runtime ct_runtimes[CT_RUNTIME_COUNT]; /* 11.8, 12.4, 13.0 */
const struct ct_runtime *ct_runtime_of_major(int major);
/* 13.0, or 12.4 where this architecture has no 13.0 (aarch64). */
const struct ct_runtime *ct_newest_runtime(void);

/* The runtime's file, or folder, in buf when it is there; NULL, quietly,
 * if not. */
const char *ct_runtime_file_if_present(const struct ct_runtime *rt, char *buf, size_t size);
const char *ct_runtime_dir_if_present(const struct ct_runtime *rt, char *buf, size_t size);
/* The runtime's file in buf; NULL after reporting it unavailable. */
const char *ct_runtime_file(const struct ct_runtime *rt, char *buf, size_t size);
/* Its folder in buf; NULL after reporting it unavailable. */
const char *ct_runtime_dir(const struct ct_runtime *rt, char *buf, size_t size);

/* Build outputs and sources (static strings). */
const char *ct_stub(void);		/* <build>/stubs/cudart/libcudart_stub.so */
const char *ct_abi_stub(int abi);	/* the 11/12-ABI stub, or NULL */
const char *ct_abi_shim(int abi);	/* abi-<M>/shim/libcudart.so.<M>, or NULL */
const char *ct_shim(void);		/* <build>/shim/libcudart.so.<abi>, or NULL */
const char *ct_symbols_file(int abi);	/* generated/cudart/cu<M>/cudart.symbols */
const char *ct_abi_record(int major);	/* data/abi/cudart-<M.m>.abi */
const char *ct_exports_file(int major); /* .../exports/libcudart-<M.m>.exports */
int ct_build_abi(void);			/* the build headers' major (13) */

/* ---- ct_api.c ---- */

/* The calls the real-library suite makes, one way or the other. */
struct ct_api {
	cudaError_t (*runtime_version)(int *);
	cudaError_t (*driver_version)(int *);
	cudaError_t (*device_count)(int *);
	cudaError_t (*malloc)(void **, size_t);
	cudaError_t (*free)(void *);
	cudaError_t (*last_error)(void);
	cudaError_t (*peek_error)(void);
	const char *(*error_name)(cudaError_t);
	const char *(*error_string)(cudaError_t);
};
/* Through dlsym on handle; 0 when every entry was found. */
int ct_api_from(struct ct_api *api, void *handle);

/* What the sequence's outputs hold when the runtime leaves them alone. */
#define CT_UNTOUCHED (-7)

/*
 * The sequence both ways run, printed as <prefix>_<key>=<value> lines:
 * rv_rc rv dv_rc dv count_rc count malloc_rc malloc_ptr peek_1 peek_2
 * last_1 last_2 peek_3. With last_first, cudaGetLastError comes first
 * (first_last), before anything else has touched the runtime.
 */
void ct_api_sequence(const struct ct_api *api, const char *prefix, int last_first);

#endif

/*
 * What the runtime stub's suites share (tests/cudart):
 *
 *   ct_paths.c    where the stubs, the real runtimes and the driver are
 *   ct_child.c    running a child scenario under a label, and expectations
 *                 on its key=value output that name the label on failure
 *   ct_abi.c      the ABI record of a CUDA version: return types, error codes
 *   ct_api.c      the calls the real-library suite compares, through the
 *                 stub or through dlsym on a library
 *
 * The suites, one executable each:
 *   real_cudart_*.c    real 11.8, 12.4, 13.0 through the one stub (real)
 *   driver_choice.c    the driver-aware choice of major (real)
 *   no_library_*.c     every export without a runtime (unit)
 *   exports_main.c     the exported set and the wrappers' shape (unit)
 *   nvcc_program.c     an nvcc-built program linked to the stub (e2e)
 *   cli_driver.c       cudastub info shows the driver and the choice (e2e)
 */
#ifndef CUDASTUB_CUDART_TEST_H
#define CUDASTUB_CUDART_TEST_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#include "cudastub/cudastub.h"
#include "test_support.h"

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

/* The runtime's file, or folder, in buf when it is there; NULL, quietly,
 * if not. */
const char *ct_runtime_file_if_present(const struct ct_runtime *rt, char *buf, size_t size);
const char *ct_runtime_dir_if_present(const struct ct_runtime *rt, char *buf, size_t size);
/* The runtime's file in buf; NULL after reporting it unavailable. */
const char *ct_runtime_file(const struct ct_runtime *rt, char *buf, size_t size);
/* Its folder in buf; NULL after reporting it unavailable. */
const char *ct_runtime_dir(const struct ct_runtime *rt, char *buf, size_t size);

/* The 550 driver fixture's folder (libcuda.so.1); NULL after reporting. */
const char *ct_driver_dir(char *buf, size_t size);
/* NVIDIA's link-time stub libcuda.so of the toolkit; NULL after reporting. */
const char *ct_link_stub_libcuda(void);

/* 1 when this machine's loader finds a libcuda.so.1 that reports a
 * version: then "35 without a driver" is not what to expect. */
int ct_machine_has_driver(void);

/* Build outputs and sources (static strings). */
const char *ct_stub(void);		/* <build>/stubs/cudart/libcudart_stub.so */
const char *ct_matrix_stub(int abi);	/* the 11/12-ABI stub, or NULL */
const char *ct_matrix_shim(int abi);	/* abi-<M>/shim/libcudart.so.<M>, or NULL */
const char *ct_shim(void);		/* <build>/shim/libcudart.so.<abi>, or NULL */
const char *ct_symbols_file(int abi);	/* stubs/cudart/generated/cuda-<M>/cudart.symbols */
const char *ct_abi_record(int major);	/* tools/gen_stubs/data/abi/cudart-<M.m>.abi */
const char *ct_exports_file(int major); /* .../exports/libcudart-<M.m>.exports */
int ct_build_abi(void);			/* the build headers' major (13) */

/* ---- ct_child.c ---- */

/* Up to CT_ENV_MAX "NAME=value" entries for a child, NULL-terminated. */
enum { CT_ENV_MAX = 12, CT_ENV_LEN = 4400 };
struct ct_env {
	int n;
	const char *list[CT_ENV_MAX + 1];
	char text[CT_ENV_MAX][CT_ENV_LEN];
};
void ct_env_add(struct ct_env *env, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Runs `<self> --child scenario` with env. Returns 1 when it exited 0;
 * otherwise a CUnit failure naming label and the scenario, the child's
 * output on stderr, and 0.
 */
int ct_run(const char *label, const char *scenario, const struct ct_env *env,
	   struct ts_child *child);

struct ct_where {
	const char *file, *fn;
	unsigned line;
};
#define CT_HERE ((struct ct_where){__FILE__, __func__, __LINE__})

/* The child printed key=want. */
void ct_expect_at(struct ct_where at, const char *label, const struct ts_child *c, const char *key,
		  const char *want);
void ct_expect_int_at(struct ct_where at, const char *label, const struct ts_child *c,
		      const char *key, long want);
/* Two keys hold the same value (and both exist). */
void ct_expect_same_at(struct ct_where at, const char *label, const struct ts_child *c,
		       const char *key_a, const char *key_b);
/* key's value contains part. */
void ct_expect_has_at(struct ct_where at, const char *label, const struct ts_child *c,
		      const char *key, const char *part);
#define CT_EXPECT(l, c, k, w)	   ct_expect_at(CT_HERE, l, c, k, w)
#define CT_EXPECT_INT(l, c, k, w)  ct_expect_int_at(CT_HERE, l, c, k, w)
#define CT_EXPECT_SAME(l, c, a, b) ct_expect_same_at(CT_HERE, l, c, a, b)
#define CT_EXPECT_HAS(l, c, k, p)  ct_expect_has_at(CT_HERE, l, c, k, p)

/* Integer value of key, or -999 when missing. */
long ct_long(const struct ts_child *c, const char *key);

/* In a child: prints the stub's info as info_* lines. */
void ct_print_info(const cudastub_library_info *info);

/* ---- ct_abi.c ---- */

struct ct_abi_fn {
	char name[96];
	char ret[64]; /* "cudaError_t", "void", "struct cudaChannelFormatDesc" */
};
struct ct_abi_code {
	char name[96];
	int value;
};
enum { CT_ABI_MAX = 1024 };
/* The "fn" lines of an ABI record: count, or -1 when unreadable. */
int ct_abi_functions(const char *record, struct ct_abi_fn *out, int max);
/* Its cudaError_t enumerators: count, or -1. */
int ct_abi_codes(const char *record, struct ct_abi_code *out, int max);

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

/*
 * The real-library NVRTC suite: the one stub binary against Debian's 11.8
 * and 12.4 libnvrtc and the toolkit's 13.0, each selected twice.
 *
 * The parent (real_nvrtc_main.c, real_nvrtc_select.c) runs one child per
 * selection and check; the child (real_nvrtc_child.c) calls NVRTC twice
 * over, through the stub and directly through the library the stub
 * loaded, and prints what it saw as key=value lines.
 */
#ifndef CUDASTUB_REAL_NVRTC_H
#define CUDASTUB_REAL_NVRTC_H

#include <nvrtc.h>
#include <stddef.h>
#include <stdint.h>

#include "cudastub/cudastub.h"
#include "test_support.h"

/* Tells the child which file the stub should have loaded. */
#define RN_FILE_VAR "REAL_NVRTC_FILE"

/* ---- one way of calling NVRTC: the stub's exports or dlsym ---- */
struct rn_api {
	nvrtcResult (*version)(int *, int *);
	nvrtcResult (*create)(nvrtcProgram *, const char *, const char *, int, const char *const *,
			      const char *const *);
	nvrtcResult (*compile)(nvrtcProgram, int, const char *const *);
	nvrtcResult (*destroy)(nvrtcProgram *);
	nvrtcResult (*log_size)(nvrtcProgram, size_t *);
	nvrtcResult (*log)(nvrtcProgram, char *);
	nvrtcResult (*ptx_size)(nvrtcProgram, size_t *);
	nvrtcResult (*ptx)(nvrtcProgram, char *);
	nvrtcResult (*cubin_size)(nvrtcProgram, size_t *);
	nvrtcResult (*cubin)(nvrtcProgram, char *);
	nvrtcResult (*ltoir_size)(nvrtcProgram, size_t *); /* NULL: not exported */
	nvrtcResult (*pch_heap_size)(size_t *);		   /* NULL: not exported */
	const char *(*error_string)(nvrtcResult);
};

/* real_nvrtc_api.c */
void rn_api_stub(struct rn_api *api);
/* Fills api from a library handle; 0 when every required entry exists. */
int rn_api_direct(struct rn_api *api, void *handle);

enum rn_output_kind { RN_PTX, RN_CUBIN, RN_NONE };

/* One compile: its codes, its log, its PTX or CUBIN. */
struct rn_output {
	nvrtcResult create_rc, compile_rc, size_rc, get_rc;
	char *log;
	size_t log_size;
	char *data;
	size_t size;
};

extern const char rn_axpy_source[];
extern const char rn_broken_source[];

/* Compiles src with one option; keeps prog open when prog is not NULL. */
void rn_compile(const struct rn_api *api, const char *src, const char *option,
		enum rn_output_kind kind, struct rn_output *out, nvrtcProgram *prog);
void rn_output_free(struct rn_output *out);
/* 1 when both have the same codes, log and output bytes. */
int rn_output_same(const struct rn_output *a, const struct rn_output *b);
/* Prints <prefix>_compile, _log_size, _size and _fnv lines. */
void rn_output_print(const char *prefix, const struct rn_output *out);
uint64_t rn_fnv1a(const void *data, size_t size);

/* real_nvrtc_child.c */
extern const struct ts_scenario rn_scenarios[];
/* In a child, after the stub's first call: dlsym on the library the stub
 * loaded (REAL_NVRTC_FILE, opened with RTLD_NOLOAD). 0 on success. */
int rn_open_direct(struct rn_api *direct);

/* real_nvrtc_gated.c */
int rn_scenario_gated(void);

/* ---- the parent: which library, selected how ---- */
struct rn_selection {
	const char *name;    /* "11.8 by path" */
	const char *version; /* what nvrtcVersion must report */
	int major;
	/* fixture holding the library, or NULL for the local toolkit's */
	const char *fixture;
	const char *file; /* file name in the fixture, or full path */
	int by_major;	  /* CUDASTUB_NVRTC_MAJOR rather than _PATH */
	int named_errors; /* codes 0..20 nvrtcGetErrorString has names for */
};

/* real_nvrtc_select.c */
#define RN_SELECTION_COUNT 6
extern const struct rn_selection rn_selections[RN_SELECTION_COUNT];

/*
 * Runs scenario in a child with sel's environment. Returns 0, having
 * reported a SKIP (or a CI failure), when the library is missing, or a
 * failure when the child did not exit 0; returns 1 when the child ran.
 * file gets the library's path.
 */
int rn_run(const struct rn_selection *sel, const char *scenario, struct ts_child *child, char *file,
	   size_t file_size);

/* Where an expectation was written, for CUnit's report. */
struct rn_where {
	const char *file, *fn;
	unsigned line;
};
#define RN_HERE ((struct rn_where){__FILE__, __func__, __LINE__})

/* Asserts that the child printed key=want; the report names the selection. */
void rn_expect_at(struct rn_where at, const struct rn_selection *sel, const struct ts_child *child,
		  const char *key, const char *want);
void rn_expect_int_at(struct rn_where at, const struct rn_selection *sel,
		      const struct ts_child *child, const char *key, long want);
/* Asserts that two keys of the child's output hold the same value. */
void rn_expect_same_at(struct rn_where at, const struct rn_selection *sel,
		       const struct ts_child *child, const char *key_a, const char *key_b);

#define RN_EXPECT(sel, c, key, want)	 rn_expect_at(RN_HERE, sel, c, key, want)
#define RN_EXPECT_INT(sel, c, key, want) rn_expect_int_at(RN_HERE, sel, c, key, want)
#define RN_EXPECT_SAME(sel, c, a, b)	 rn_expect_same_at(RN_HERE, sel, c, a, b)

#endif

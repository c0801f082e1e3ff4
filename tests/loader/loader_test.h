/*
 * Shared by the loader's suites (tests/loader) and nvrtc_exports: where
 * the NVRTC stub and its fakes (tests/nvrtc/fakes) are, temporary folder
 * trees, and the "probe" child scenario most suites use.
 *
 * The probe dlopen()s the stub named by TEST_STUB (optionally after
 * dlopen()ing TEST_PRELOAD), makes its first call (nvrtcVersion), and
 * prints what happened as key=value lines:
 *   preload        ok / failed (only with TEST_PRELOAD)
 *   version_rc     nvrtcVersion's return, with major= and minor=
 *   state, source, path, error, info_major, info_minor, abi_major,
 *   search_runs, dlopen_calls, driver_version, choice, attempts,
 *   attempt.<i>=<path>|<outcome>
 *   fake           1 when the loaded library is one of the test fakes;
 *                  then also ptx_rc, ptx (the fake's tag), ptx_size_rc,
 *                  ptx_size, pch_rc, pch (sentinel 77 if untouched)
 *   driver_mapped  1 when a file named libcuda.so* is mapped
 *   errstr.<code>  nvrtcGetErrorString for 5, 1034, 1500, 1801
 */
#ifndef CUDASTUB_LOADER_TEST_H
#define CUDASTUB_LOADER_TEST_H

#include <stddef.h>

#include "cudastub/cudastub.h"
#include "test_support.h"
#include "ts_files.h"

/* nvrtcGetPCHHeapSize's output before the call; the fakes never write it. */
#define LD_PCH_SENTINEL 77

/* Build outputs. Static buffers, one per call site kind. */
const char *ld_stub(void); /* <build>/stubs/nvrtc/libnvrtc_stub.so */
const char *ld_shim(void); /* <build>/shim/libnvrtc.so.<abi> */
const char *ld_shim_dir(void);
/* <build>/tests/nvrtc/fakes/<variant>: "nvrtc-13", "nvrtc-12", "nvrtc-11",
 * "nvrtc-13-noptx" */
const char *ld_fake_dir(const char *variant);
const char *ld_fake(const char *variant); /* the fake's file */
const char *ld_fake_file_name(const char *variant);

/* printf into one of a ring of 32 buffers; for env lists and paths. */
const char *ld_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Temporary trees. ld_tmpdir makes a fresh mkdtemp() folder in buf and
 * returns buf, or NULL; ts_remove_tree removes it. ld_fmt's buffers are
 * reused: keep paths in arrays. */
const char *ld_tmpdir(char *buf, size_t size);
int ld_mkdirs(const char *path);	       /* mkdir -p */
int ld_link(const char *from, const char *to); /* symlink to from */

/* Integer value of key, or -999 when missing. */
long ld_long(const struct ts_child *child, const char *key);
/* 1 if key's value equals want. */
int ld_is(const struct ts_child *child, const char *key, const char *want);
/* 1 if key's value contains part. */
int ld_has(const struct ts_child *child, const char *key, const char *part);
/* 1 if some attempt's path contains path_part and its outcome outcome_part. */
int ld_attempt(const struct ts_child *child, const char *path_part, const char *outcome_part);

/*
 * In a child: opens the stub at path and makes lib's first call ("nvrtc":
 * nvrtcVersion, "cudart": cudaRuntimeGetVersion, else cuDriverGetVersion),
 * then prints rc, value, state, dlopen_calls, attempts, error and path,
 * error_raw_controls, and each attempt as attempt.<i>.raw_controls (its
 * outcome holds a control character as it is), attempt.<i> and
 * outcome.<i>; error, path and the attempts with bytes below 0x20, 0x7f
 * and up written \xNN; last finished=1. 3 when the stub does not open.
 * (ld_report.c)
 */
int ld_report_first_call(const char *path, const char *lib);
/* In its report, whether some attempt's path ends with path (with
 * ld_attempted_within: contains it) and its outcome contains outcome. */
int ld_attempted(const struct ts_child *c, const char *path, const char *outcome);
int ld_attempted_within(const struct ts_child *c, const char *path, const char *outcome);

/* Runs the probe with env; asserts the child ran and exited 0. Prints the
 * child's output on a failed expectation when CUDASTUB_TEST_VERBOSE is set. */
int ld_run_probe(const char *const *env, struct ts_child *child);

/* The probe loaded the fake with this tag and version, from this step. */
#define LD_EXPECT_FAKE(c, src, maj, min, tag)                                                      \
	do {                                                                                       \
		CU_ASSERT_EQUAL(ld_long(c, "version_rc"), 0);                                      \
		CU_ASSERT_EQUAL(ld_long(c, "state"), CUDASTUB_STATE_LOADED);                       \
		CU_ASSERT_EQUAL(ld_long(c, "source"), src);                                        \
		CU_ASSERT_EQUAL(ld_long(c, "major"), maj);                                         \
		CU_ASSERT_EQUAL(ld_long(c, "minor"), min);                                         \
		CU_ASSERT_EQUAL(ld_long(c, "fake"), 1);                                            \
		CU_ASSERT_TRUE(ld_is(c, "ptx", tag));                                              \
	} while (0)

/* The probe found no library: the stub's own error, version 0.0. */
#define LD_EXPECT_NOT_FOUND(c)                                                                     \
	do {                                                                                       \
		CU_ASSERT_EQUAL(ld_long(c, "version_rc"), CUDASTUB_NVRTC_ERROR_STUB_LIBRARY);      \
		CU_ASSERT_EQUAL(ld_long(c, "major"), 0);                                           \
		CU_ASSERT_EQUAL(ld_long(c, "minor"), 0);                                           \
		CU_ASSERT_EQUAL(ld_long(c, "state"), CUDASTUB_STATE_NOT_FOUND);                    \
	} while (0)

/*
 * A suite whose tests are the rows of a table (ld_rows.c): rows is an
 * array of structs of size bytes each, the first member of each its name
 * (a string), ending in a row whose name is NULL. Each row is a CUnit test
 * of that name that calls run_row with its row; the suite's own tests
 * follow. Names must differ: the running test's name finds its row.
 */
int ld_main_rows(int argc, char **argv, const struct ts_scenario *scenarios,
		 const struct ts_suite *suite, const void *rows, size_t size,
		 void (*run_row)(const void *row));

/*
 * A probe run given as data (ld_probe_case.c). In its environment and
 * its checks' texts, {tree} stands for the suite's temporary tree,
 * {fake <variant>} for ld_fake(variant) and {fakedir <variant>} for
 * ld_fake_dir(variant) (ld_expand).
 */
enum ld_check_kind {
	LD_IS = 1,     /* key's value is text */
	LD_HAS,	       /* key's value contains text */
	LD_ATTEMPT,    /* some attempt's path contains key, its outcome text */
	LD_NO_ATTEMPT, /* no such attempt */
};
struct ld_check {
	enum ld_check_kind kind;
	const char *key, *text;
};
enum { LD_CASE_ENV = 5, LD_CASE_CHECKS = 6 };
/* What the first call ends in: the fake of major (LD_EXPECT_FAKE, tag
 * fake-nvrtc-<major>) loaded from the step source; or, with major 0,
 * state: CUDASTUB_STATE_NOT_FOUND checks LD_EXPECT_NOT_FOUND, any other
 * the stub's error and that state. */
struct ld_outcome {
	int major, minor, source, state;
};
#define LD_LOADS(major_, minor_, source_)                                                          \
	{                                                                                          \
		.major = (major_), .minor = (minor_), .source = (source_)                          \
	}
#define LD_ENDS(state_)                                                                            \
	{                                                                                          \
		.state = (state_)                                                                  \
	}
struct ld_probe_case {
	const char *name;
	const char *env[LD_CASE_ENV]; /* "NAME=value"; ends at the first NULL */
	struct ld_outcome outcome;
	struct ld_check checks[LD_CASE_CHECKS]; /* ends at the first kind 0 */
	const struct ld_check *shared;		/* checks of several cases, or NULL */
};

/* text with tree and the fakes put in (one of ld_fmt's buffers). */
const char *ld_expand(const char *tree, const char *text);
/* Runs the probe with the case's environment and asserts what it says. */
void ld_run_probe_case(const struct ld_probe_case *pc, const char *tree);

/* The probe scenario, and the stub's symbols (dlsym on a handle). */
int ld_probe(void);
void *ld_open_stub(const char *path);
#define LD_PROBE_SCENARIO                                                                          \
	{                                                                                          \
		"probe", ld_probe                                                                  \
	}

#endif

/*
 * One cell of a stub's ABI matrix: a stub built on one CUDA version's
 * headers (its ABI) with one real library loaded, every export checked
 * against the generated gating table of that ABI (the build's
 * generated/<lib>/cu<abi>/<lib>_gating.tsv) in the column of the loaded major. Shared by
 * the matrix suites of tests/nvrtc, tests/cudart and tests/cuda_driver.
 *
 * In a child the stub loads the library (by override), which must be that
 * very file, and then, for each export of the stub:
 *   forward             the library exports the name, or, when the name
 *                       came in a later minor of the loaded major (12.5,
 *                       whose ABI record declares it and the loaded
 *                       version's does not), the export answers as absent;
 *   forward-if-present  if it does, as forward; if not, as absent;
 *   as-is / translated  the library exports one of the route's names;
 *   adapter             counted (tests/adapters proves each);
 *   absent, removed,    gated: never called in the library. Called through
 *   abi-differs         the stub with zero arguments, the export returns
 *                       the code the spec's `unavailable` line gives that
 *                       reason (README, "Error codes"), and nothing crashes.
 *                       Only exports returning the spec's result type are
 *                       called (and none with a fallback of its own that
 *                       writes through its arguments).
 * The version query, called through the stub and in the library directly,
 * gives the same code and outputs. Every disagreement is one problem
 * line; the parent asserts there are none and prints the cell's counts.
 */
#ifndef CUDASTUB_TS_MATRIX_H
#define CUDASTUB_TS_MATRIX_H

#include "test_support.h"

/* A library as its spec and generated files name it, and its version
 * query: int fn(int *) or int fn(int *, int *), the same in every major. */
struct ts_matrix_lib {
	const char *spec; /* "cudart": specs/<spec>.spec, generated/<spec>/ */
	const char *version_fn;
	int version_outputs; /* 1 or 2 */
};

/* One cell. */
struct ts_matrix_cell {
	const struct ts_matrix_lib *lib;
	int abi;		 /* the stub's headers' major: 11, 12, 13 */
	const char *abi_version; /* its ABI record's version: "11.8" */
	const char *stub;	 /* the stub of that ABI, a path */
	const char *library;	 /* the real library, a path */
	int major;		 /* the loaded library's major (the driver: the CUDA
				  * major it supports) */
	const char *version;	 /* what the stub must report it loaded: "12.4" */
};

/* What a cell found, from the child. */
struct ts_matrix_counts {
	int exports, forward, if_present, routed, adapter, gated, called, problems;
	int later_minor; /* of gated: forward from a later minor than the loaded one */
};

/*
 * Runs the cell in a child of this test binary (ts_matrix_scenario must
 * be among its scenarios) and asserts: it ran, loaded that library and
 * version, and found no problem. Prints one line of counts under label.
 * Returns 1 when the child ran; counts may be NULL.
 */
int ts_matrix_run(const char *label, const struct ts_matrix_cell *cell,
		  struct ts_matrix_counts *counts);

/* The child's half, registered as the scenario "matrix_cell". */
int ts_matrix_child(void);
#define TS_MATRIX_SCENARIO                                                                         \
	{                                                                                          \
		"matrix_cell", ts_matrix_child                                                     \
	}

/* The version of the ABI record a stub of major abi is built from:
 * "11.8", "12.4" or "13.0". */
const char *ts_matrix_abi_version(int abi);

/* Reports the stub of abi missing (what: "runtime", "driver"): its
 * headers are a fixture, and only a configure after the fetch builds it. */
void ts_matrix_no_stub(int abi, const char *what);

/*
 * A matrix suite as data: a test per stub ABI, 13, 12 and 11, named
 * "<abi>-ABI stub on <against>" and running row(abi), then the tests of
 * more (a table ending in {NULL, NULL}, or NULL). The child runs one of
 * scenarios (which must hold TS_MATRIX_SCENARIO), or with NULL that one.
 */
struct ts_matrix_suite {
	const char *name;
	const char *against; /* "runtimes 11.8, 12.4, 13.0" */
	void (*row)(int abi);
	const struct ts_test *more;
	const struct ts_scenario *scenarios;
};
int ts_matrix_main(int argc, char **argv, const struct ts_matrix_suite *suite);

#endif

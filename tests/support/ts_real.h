/*
 * The scaffolding of the real-library suites (tests/<library>/
 * test_*_real.c): each runs a child of its own that opens a library
 * (NVIDIA's, or the stub) named by an environment variable, makes its
 * calls and prints key=value lines; the parent runs that child twice, on
 * the real library directly and on the stub with its override naming that
 * library, and compares the answers. Without any library, the sweep calls
 * every export of the stub's list and expects the stub's documented code.
 */
#ifndef CUDASTUB_TS_REAL_H
#define CUDASTUB_TS_REAL_H

#include <stddef.h>

#include "test_support.h"
#include "ts_child.h"

/* ---- in the child ---- */

/* dlopen of the path in the variable var; NULL after printing
 * open_error=<why>. */
void *ts_real_open(const char *var);

/* dlsym of name in lib; when lib lacks it, prints missing=<name> and the
 * child exits 5, a failure the parent reports with this output. */
void *ts_real_symbol(void *lib, const char *name);

/* Prints version_rc and version from get_version, an int fn(int *), and
 * from get_property, an int fn(libraryPropertyType, int *), every
 * property even after a failure: property_rc (the first failure's code)
 * and property=<major>.<minor>.<patch>. */
void ts_real_print_version(void *get_version, void *get_property);

/* Prints prop_rc.<k> and prop.<k> for each property k (major, minor,
 * patch) from get_property, an int fn(libraryPropertyType, int *). */
void ts_real_print_properties(void *get_property);

/* Prints <key>_<code>=<text>, "(null)" for NULL. */
void ts_real_print_string(const char *key, int code, const char *text);

/* Where lib is a stub (it exports name, its cudastub_<lib>_info), prints
 * what it loaded: state, major, minor, own, path, choice, error, tried
 * (the attempts' count) and each attempt as tried.<i>=<path>: <outcome>.
 * 0 where lib is not a stub. */
int ts_real_print_info(void *lib, const char *name);

/* ---- in the parent ---- */

/* One release of a library: the toolkit's (fixture NULL) or a fixture's. */
struct ts_real_release {
	const char *name;    /* "12.4" */
	int major;	     /* the CUDA major the stub must report */
	const char *fixture; /* "mathlibs-12.4"; NULL: the toolkit's */
	const char *soname;  /* "libcufft.so.11" */
};

/* The release's library in buf: the toolkit's file, or the fixture's
 * library folder's. NULL when missing, after reporting it as
 * ts_toolkit_file and ts_fixture_libdir do. */
const char *ts_real_library(const struct ts_real_release *r, char *buf, size_t size);

/* The two runs a suite compares: the library called directly, and the
 * same calls through the stub. */
extern struct ts_child ts_direct, ts_through;

/* Up to TS_REAL_EXTRA entries of extra ("NAME=value", NULL-ended, may be
 * NULL) a run takes besides the variable naming its library. */
enum { TS_REAL_EXTRA = 6 };

/*
 * Runs `<self> --child scenario` with var=path and extra. 0 when it
 * exited 0; otherwise a CUnit failure, the child's output on stderr, -1.
 */
int ts_real_run(const char *scenario, const char *var, const char *path, const char *const *extra,
		struct ts_child *out);

/* ts_real_run with LD_LIBRARY_PATH=dirs ("" for NULL) before extra. */
int ts_real_run_in(const char *scenario, const char *var, const char *path, const char *dirs,
		   const char *const *extra, struct ts_child *out);

/*
 * Runs scenario on real into ts_direct, then on stub into ts_through with
 * the stub's override (override, "CUDASTUB_<LIB>_PATH") naming real and
 * extra ("NAME=value" or NULL) set. 0 when both ran, as ts_real_run.
 */
int ts_real_both(const char *scenario, const char *var, const char *override, const char *stub,
		 const char *real, const char *extra);

/*
 * ts_real_both with the fixture folders of the real library's release
 * major on LD_LIBRARY_PATH (ts_release_path), direct_extra and extra
 * (NULL-ended, NULL for none, TS_REAL_EXTRA - 2 at most) given to the
 * direct run and to the one through the stub beside its override.
 */
int ts_real_both_in(const char *scenario, const char *var, const char *override, const char *stub,
		    const char *real, int major, const char *const *direct_extra,
		    const char *const *extra);

/* Each key's text ("" where not printed) is the same in ts_through as in
 * ts_direct: one assertion a key. */
void ts_real_same_texts(const char *const *keys, size_t count);

/* ts_through's stub loaded the real library of major, whose own version
 * it reports as ts_direct printed it in prop.0, prop.1 and prop.2. */
void ts_real_loaded(int major);

/* key's value is the same in ts_through as in ts_direct, which has it. */
void ts_real_same_at(struct ts_where at, const char *key);
#define TS_REAL_SAME(key) ts_real_same_at(TS_HERE, key)

/* The child's output before stop, or where it has none before then (NULL:
 * no second mark), the stub's own lines: what the library decides, in
 * buf. */
const char *ts_real_answers(const struct ts_child *child, const char *stop, const char *then,
			    char *buf, size_t size);

/*
 * A library whose stubs are built from the 12.4 and 11.8 fixture headers
 * alone (tests/abi_stubs.cmake: nvJPEG, cuFile), compared on the real
 * library of each of those releases.
 */
struct ts_real_fixture_lib {
	const char *stubs[2];	/* the 12- and 11-ABI stubs; "" where not built */
	const char *sonames[2]; /* the real library of 12 and of 11 */
	const char *var;	/* the calls child's variable naming its library */
	const char *override;	/* "CUDASTUB_<LIB>_PATH" */
	const char *extra;	/* "NAME=value" every run takes, or NULL */
	const char *headers;	/* what to fetch for the stubs */
	const char *fixtures;	/* what to fetch for the real libraries */
};

/* One comparison: the stub of the abi major on the real library of major
 * (its path real), the answers in ts_direct and ts_through. */
struct ts_real_pair {
	int abi, major;
	const char *real;
};

/*
 * The calls child on each real library into ts_direct and through each
 * stub, its override naming that library, into ts_through; check on each
 * pair that ran. A missing stub, and no pair at all, are unavailable.
 */
void ts_real_fixture_pairs(const struct ts_real_fixture_lib *lib,
			   void (*check)(const struct ts_real_pair *pair));

/* The calls child through each stub built, its override naming no
 * library, into ts_through; check(abi) on each that ran. */
void ts_real_fixture_no_library(const struct ts_real_fixture_lib *lib, void (*check)(int abi));

/*
 * A suite's checks of one stub (of the abi major's headers) on every
 * release, run for the stubs built against the 12.4 and 11.8 headers
 * (stub_12, stub_11: "" when those headers were not fetched before
 * configuring, then unavailable: what names what to fetch).
 */
void ts_real_other_abis(const char *stub_12, const char *stub_11,
			void (*each)(const char *stub, int abi), const char *what);

/*
 * The sweep: every export of the stub's list (symbols, one name a line,
 * '#' comments), called in a child with six NULL arguments while the
 * override names nothing, returns code, and the child does not crash.
 * The suite registers TS_REAL_SWEEP_SCENARIO among its scenarios.
 */
void ts_real_sweep(const char *stub, const char *symbols, const char *override, long code);
int ts_real_sweep_child(void);
#define TS_REAL_SWEEP_SCENARIO                                                                     \
	{                                                                                          \
		"ts_real_sweep", ts_real_sweep_child                                               \
	}

/*
 * The main of a real suite: its tests as one suite called name, its child
 * scenarios "calls" (calls) and the sweep's.
 */
int ts_real_main(int argc, char **argv, const char *name, const struct ts_test *tests,
		 int (*calls)(void));

/* That main, of the file's TS_TEST tests, ending the suite's file (without
 * a semicolon). */
#define TS_REAL_MAIN(name, calls)                                                                  \
	int main(int argc, char **argv)                                                            \
	{                                                                                          \
		return ts_real_main(argc, argv, name, ts_registered_tests(), calls);               \
	}

#endif

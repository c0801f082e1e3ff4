/*
 * Shared by every CUnit suite.
 *
 * The loader runs once per process, so a test that needs a fresh search
 * runs a child: the test binary re-executes itself as
 *   <binary> --child <scenario>
 * with the environment the test chose, and the scenario prints key=value
 * lines that the parent reads back. ts_main() does the dispatch.
 */
#ifndef CUDASTUB_TEST_SUPPORT_H
#define CUDASTUB_TEST_SUPPORT_H

#include <CUnit/CUnit.h>
#include <stddef.h>

/* A child scenario: prints key=value lines on stdout, returns exit code. */
struct ts_scenario {
	const char *name;
	int (*run)(void);
};

/* Registers suites with CUnit; called by ts_main. */
typedef void (*ts_register_fn)(void);

/* Runs a child scenario (scenarios: a table ending in {NULL, NULL}, or
 * NULL for a binary that has none) or, without --child, the CUnit suites.
 * Exits non-zero if any assertion failed, so ctest sees the failure. */
int ts_main(int argc, char **argv, const struct ts_scenario *scenarios,
	    ts_register_fn register_suites);

/* A suite as data: its name, CUnit's init and clean (NULL for none), and
 * its tests, a table ending in {NULL, NULL}. */
struct ts_test {
	const char *name;
	CU_TestFunc run;
};
struct ts_suite {
	const char *name;
	CU_InitializeFunc init;
	CU_CleanupFunc clean;
	const struct ts_test *tests;
};

/* Adds the suite and its tests to CUnit's registry; the suite, or NULL. */
CU_pSuite ts_add_suite(const struct ts_suite *suite);

/* ts_main for a binary whose tests are the one suite. */
int ts_main_suite(int argc, char **argv, const struct ts_scenario *scenarios,
		  const struct ts_suite *suite);

/*
 * A test of the binary's one suite, registered where it is written, after
 * its function: TS_TEST(test_fn, "what it proves");. The suite's tests are
 * the binary's TS_TEST lines in the order of their lines (one file's).
 */
#define TS_TEST(fn, name)                                                                          \
	__attribute__((constructor)) static void ts_register_##fn(void)                            \
	{                                                                                          \
		ts_register_test((name), fn, __LINE__);                                            \
	}                                                                                          \
	extern char ts_registered_##fn
void ts_register_test(const char *name, CU_TestFunc run, int line);
/* The registered tests, in the order of their lines, ending in {NULL, NULL}
 * (ts_registry.c). */
const struct ts_test *ts_registered_tests(void);

/* The main of a binary whose tests are one suite: its name, init and
 * clean functions (or NULL), its tests (TS_TEST), and the child scenarios
 * (or NULL). A file ends with it, without a semicolon. */
#define TS_MAIN_SUITE(name, init, clean, scenarios)                                                \
	int main(int argc, char **argv)                                                            \
	{                                                                                          \
		const struct ts_suite suite = {name, init, clean, ts_registered_tests()};          \
                                                                                                   \
		return ts_main_suite(argc, argv, scenarios, &suite);                               \
	}

/*
 * The same tests in a suite per selection (at most TS_SELECTIONS): suite
 * i is named by name(i) in buf ("" leaves it out), and select(i) runs
 * before its tests, to set what they test. (ts_selected.c)
 */
enum { TS_SELECTIONS = 8 };
void ts_add_selected_suites(int count, void (*name)(int i, char *buf, size_t size),
			    void (*select)(int i), const struct ts_test *tests);

/* The output of one child run. */
struct ts_child {
	int exit_code; /* -1 if it died on a signal */
	char out[65536];
	char err[65536];
};

/*
 * Runs argv[0] (a path) with argv. The environment is this process's, less
 * every CUDASTUB_*, CUDA_HOME, CUDA_PATH, LD_LIBRARY_PATH and LD_PRELOAD,
 * so children start clean, then changed by env: "NAME=value" sets, "NAME"
 * removes (NULL-terminated; may be NULL). stdin reads stdin_path, or
 * /dev/null when NULL. Returns 0 if the program ran. With
 * CUDASTUB_TEST_VERBOSE set, a non-zero exit prints the program's output.
 */
int ts_run_program(char *const *argv, const char *const *env, const char *stdin_path,
		   struct ts_child *child);

/* ts_run_program with no env and no stdin, for a step that must succeed:
 * 1 when argv ran and exited 0; otherwise 0, after printing what exited
 * with which status, and its stderr. */
int ts_run_program_ok(char *const *argv, const char *what, struct ts_child *out);

/*
 * In a cross build whose tests run under an emulator (qemu-user: ctest
 * starts each suite under CMAKE_CROSSCOMPILING_EMULATOR), ts_run_program
 * starts a program built for this architecture under the same emulator,
 * since the host cannot run it by itself; scripts and the host's tools
 * (nm, objdump, sh) run as they are. ts_emulator() is that emulator's
 * command line, or "" in a native build.
 */
const char *ts_emulator(void);

/* Whether this process runs under valgrind, where every child it starts
 * takes a second or more to start: a suite that starts many may run one
 * case of each kind there (the plain and sanitizer builds run them all).
 * Always 0 where valgrind's header was not there to build with. */
int ts_under_valgrind(void);

/* all, or 1 under valgrind: how many of a list of like cases to run. */
size_t ts_all_or_one_under_valgrind(size_t all);

/* Runs this binary as `--child scenario` the same way, stdin /dev/null. */
int ts_run_child(const char *scenario, const char *const *env, struct ts_child *child);

/* The value of key in a child's key=value output, or NULL. The string
 * lasts for the next seven calls (a ring of static buffers). */
const char *ts_value(const struct ts_child *child, const char *key);
/* key's value as a number, or TS_NO_NUMBER when the child printed none. */
#define TS_NO_NUMBER (-999L)
long ts_number(const struct ts_child *child, const char *key);
/* key's value, or "" when the child printed none (ts_value's ring). */
const char *ts_text(const struct ts_child *child, const char *key);

/*
 * The folder of a real-library fixture fetched by tests/fixtures/fetch.sh
 * ("cuda-11.8", "cuda-12.4", "driver-550", ...), or NULL when missing. On a
 * miss it records the skip: in CI (CI=true) a CUnit failure, elsewhere a
 * clearly printed SKIP line.
 */
const char *ts_fixture(const char *name);

/*
 * Something a test needs is not on this machine (why says what, and what
 * to install or run). In CI (CI=true) that is a CUnit failure; elsewhere a
 * clearly printed SKIP line, and the suite, if nothing failed, exits
 * TS_SKIP_CODE, which ctest reports as skipped (SKIP_RETURN_CODE). The
 * test should return after calling this.
 */
#define TS_SKIP_CODE 77
void ts_unavailable(const char *why);

/*
 * A cell that does not exist on this architecture (no CUDA 13.0 library
 * for aarch64 on this machine): a printed N/A line, never a failure,
 * even in CI. why says what is missing and how to provide it.
 */
void ts_not_applicable(const char *why);

/*
 * The library fixtures ("cuda-11.8", "cuda-12.4", "driver-550") hold one
 * architecture's files; tests name them as on x86-64, and on aarch64 get
 * the same release's arm64 fixture ("arm64-cuda-11.8"). TS_MULTIARCH is
 * the Debian folder the libraries are in. Header fixtures serve every
 * architecture.
 */
#if defined(__aarch64__)
#define TS_MULTIARCH "aarch64-linux-gnu"
#else
#define TS_MULTIARCH "x86_64-linux-gnu"
#endif
/* name, or on aarch64 the arm64 fixture of that name; a static buffer. */
const char *ts_library_fixture(const char *name);
/* "<this architecture's fixture name>/usr/lib/<TS_MULTIARCH>", in buf;
 * NULL (the miss reported as ts_fixture does) when missing, and NULL
 * after an N/A line for a fixture fetch.sh has for x86-64 only (on
 * aarch64: the math libraries). */
const char *ts_fixture_libdir(const char *name, char *buf, size_t size);

/*
 * The local CUDA 13 toolkit's library name (/usr/local/cuda/lib64/<name>)
 * in buf. NULL after reporting it missing; NULL after an N/A line where
 * the toolkit's libraries are not this build's architecture (aarch64:
 * CUDASTUB_TEST_TOOLKIT_LIBDIR is empty). ts_toolkit_is_native says which.
 */
const char *ts_toolkit_file(const char *name, char *buf, size_t size);
int ts_toolkit_is_native(void);

/* True under CI=true or CI=1: a missing prerequisite fails, not skips. */
int ts_in_ci(void);

/*
 * "ASAN_OPTIONS=" the test's own with leak detection off, written to buf,
 * for a child in which an NVIDIA library is closed again (ASan's other
 * checks and UBSan stay on). Such a library leaves behind what its
 * constructors allocated (the 71 KiB emergency pool of the C++ runtime
 * linked into it), and once its module is gone LeakSanitizer's report
 * cannot name it, so tests/sanitizers/lsan.supp cannot either. The stub
 * closes every candidate it turns down, and some libraries close others
 * themselves (11.8's cuBLASLt and cuSOLVER open and close libnvrtc.so).
 * Without ASan nothing reads the variable.
 */
const char *ts_env_leaks_unnamed(char *buf, size_t size);

/* Removes a folder tree made by a test. As a guard against removing
 * anything else, only a path containing "cudastub-" is touched. */
void ts_remove_tree(const char *path);

/* The folder holding the test's build outputs (fakes, stubs). */
const char *ts_build_dir(void);

/* Path of this test binary. */
const char *ts_self(void);

#endif

/*
 * Child scenarios under a label, and expectations on their key=value
 * output that name the label on failure: shared by the suites that run one
 * scenario several ways (tests/cudart, tests/cuda_driver).
 */
#ifndef CUDASTUB_TS_CHILD_H
#define CUDASTUB_TS_CHILD_H

#include "cudastub/cudastub.h"
#include "test_support.h"

/* Up to TS_ENV_MAX "NAME=value" entries for a child, NULL-terminated. */
enum { TS_ENV_MAX = 12, TS_ENV_LEN = 4400 };
struct ts_env {
	int n;
	const char *list[TS_ENV_MAX + 1];
	char text[TS_ENV_MAX][TS_ENV_LEN];
};
void ts_env_add(struct ts_env *env, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Runs `<self> --child scenario` with env. Returns 1 when it exited 0;
 * otherwise a CUnit failure naming label and the scenario, the child's
 * output on stderr, and 0.
 */
int ts_run_scenario(const char *label, const char *scenario, const struct ts_env *env,
		    struct ts_child *child);

struct ts_where {
	const char *file, *fn;
	unsigned line;
};
#define TS_HERE ((struct ts_where){__FILE__, __func__, __LINE__})

/* The child printed key=want. */
void ts_expect_at(struct ts_where at, const char *label, const struct ts_child *c, const char *key,
		  const char *want);
void ts_expect_int_at(struct ts_where at, const char *label, const struct ts_child *c,
		      const char *key, long want);
/* Two keys hold the same value (and both exist). */
void ts_expect_same_at(struct ts_where at, const char *label, const struct ts_child *c,
		       const char *key_a, const char *key_b);
/* key's value contains part. */
void ts_expect_has_at(struct ts_where at, const char *label, const struct ts_child *c,
		      const char *key, const char *part);
/* The stub answered key as the library called directly in the same child
 * (calls: stub_<key> and direct_<key>), and as a child that made only that
 * call (fresh: fresh_<key>). */
void ts_expect_three_ways_at(struct ts_where at, const char *label, const struct ts_child *calls,
			     const struct ts_child *fresh, const char *key);
#define TS_EXPECT(l, c, k, w)	   ts_expect_at(TS_HERE, l, c, k, w)
#define TS_EXPECT_INT(l, c, k, w)  ts_expect_int_at(TS_HERE, l, c, k, w)
#define TS_EXPECT_SAME(l, c, a, b) ts_expect_same_at(TS_HERE, l, c, a, b)
#define TS_EXPECT_HAS(l, c, k, p)  ts_expect_has_at(TS_HERE, l, c, k, p)
#define TS_EXPECT_THREE_WAYS(l, calls, fresh, k)                                                   \
	ts_expect_three_ways_at(TS_HERE, l, calls, fresh, k)

/* Integer value of key, or -999 when missing. */
long ts_long(const struct ts_child *c, const char *key);

/* Runs argv (a program and its arguments, NULL-ended); 1 when it exited
 * 0, else a CUnit failure naming what, with its output on stderr. */
int ts_run_ok(char **argv, const char *what);

/* Installs this build (cmake, the CMake command) into prefix; 1 when done,
 * as ts_run_ok. */
int ts_install_build(const char *cmake, const char *prefix);
/* A fresh temporary folder named after name in work (ts_tmpdir), this
 * build installed into its cudastub/ (a suite's init): 0 when done. */
int ts_install_in_tmp(const char *name, const char *cmake, char *work, size_t size);

/* The number of the child's attempt_<i> lines (ts_print_info) that
 * contain both part and other. */
int ts_attempts_with(const struct ts_child *c, const char *part, const char *other);

/* In a child: prints value as key=value, newlines turned into spaces. */
void ts_print_line(const char *key, const char *value);

/* In a child: prints a stub's info as info_* lines, and each attempt as
 * attempt_<i>=<source> <path>: <outcome> (attempt_count=N). */
void ts_print_info(const cudastub_library_info *info);

#endif

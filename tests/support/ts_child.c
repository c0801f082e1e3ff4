/* Child scenarios under a label, and expectations on what they printed. */
#define _GNU_SOURCE
#include "ts_child.h"
#include "ts_files.h"

#include <CUnit/CUnit.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ts_env_add(struct ts_env *env, const char *fmt, ...)
{
	va_list ap;

	if (env->n >= TS_ENV_MAX) {
		CU_FAIL("ts_env: too many entries");
		return;
	}
	va_start(ap, fmt);
	vsnprintf(env->text[env->n], TS_ENV_LEN, fmt, ap);
	va_end(ap);
	env->list[env->n] = env->text[env->n];
	env->n++;
	env->list[env->n] = NULL;
}

int ts_run_scenario(const char *label, const char *scenario, const struct ts_env *env,
		    struct ts_child *child)
{
	char msg[512];

	if (ts_run_child(scenario, env && env->n ? env->list : NULL, child) != 0) {
		snprintf(msg, sizeof msg, "[%s] could not start the child %s", label, scenario);
		CU_assertImplementation(CU_FALSE, __LINE__, msg, __FILE__, __func__, CU_FALSE);
		return 0;
	}
	if (child->exit_code == 0)
		return 1;
	snprintf(msg, sizeof msg, "[%s] child %s exited %d%s", label, scenario, child->exit_code,
		 child->exit_code < 0 ? " (killed by a signal)" : "");
	CU_assertImplementation(CU_FALSE, __LINE__, msg, __FILE__, __func__, CU_FALSE);
	fprintf(stderr, "%s\nstdout:\n%s\nstderr:\n%s\n", msg, child->out, child->err);
	return 0;
}

/* An expectation on a child's output: asserted; when it fails, the
 * child's standard error (its debug log, say) is shown once per child,
 * since a child that exited 0 had it shown nowhere. */
static void expect(int ok, struct ts_where at, const struct ts_child *c, const char *msg)
{
	/* the child last shown, by its record and what its error began with
	 * (a test reuses one record for each child it runs) */
	static const struct ts_child *shown;
	static char shown_start[128];

	CU_assertImplementation(ok, at.line, msg, at.file, at.fn, CU_FALSE);
	if (ok || !c->err[0] ||
	    (shown == c && !strncmp(shown_start, c->err, sizeof shown_start - 1)))
		return;
	shown = c;
	snprintf(shown_start, sizeof shown_start, "%.127s", c->err);
	fprintf(stderr, "%s\nthe child's standard error:\n%.4000s\n", msg, c->err);
}

void ts_expect_at(struct ts_where at, const char *label, const struct ts_child *c, const char *key,
		  const char *want)
{
	const char *got = ts_value(c, key);
	char msg[1024];

	snprintf(msg, sizeof msg, "[%s] %s=%s, expected %s", label, key, got ? got : "(missing)",
		 want);
	expect(got && !strcmp(got, want), at, c, msg);
}

void ts_expect_int_at(struct ts_where at, const char *label, const struct ts_child *c,
		      const char *key, long want)
{
	char text[32];

	snprintf(text, sizeof text, "%ld", want);
	ts_expect_at(at, label, c, key, text);
}

void ts_expect_same_at(struct ts_where at, const char *label, const struct ts_child *c,
		       const char *key_a, const char *key_b)
{
	const char *got = ts_value(c, key_a);
	char a[512], msg[1280];

	snprintf(a, sizeof a, "%s", got ? got : "(missing)");
	got = ts_value(c, key_b);
	snprintf(msg, sizeof msg, "[%s] %s=%s but %s=%s", label, key_a, a, key_b,
		 got ? got : "(missing)");
	expect(got && strcmp(a, "(missing)") && !strcmp(a, got), at, c, msg);
}

void ts_expect_three_ways_at(struct ts_where at, const char *label, const struct ts_child *calls,
			     const struct ts_child *fresh, const char *key)
{
	char stub[64], direct[64], other[64], value[64];
	const char *v;

	snprintf(stub, sizeof stub, "stub_%s", key);
	snprintf(direct, sizeof direct, "direct_%s", key);
	snprintf(other, sizeof other, "fresh_%s", key);
	ts_expect_same_at(at, label, calls, stub, direct);
	v = ts_value(calls, stub);
	snprintf(value, sizeof value, "%s", v ? v : "(missing from the stub's child)");
	ts_expect_at(at, label, fresh, other, value);
}

void ts_expect_has_at(struct ts_where at, const char *label, const struct ts_child *c,
		      const char *key, const char *part)
{
	const char *got = ts_value(c, key);
	char msg[1024];

	snprintf(msg, sizeof msg, "[%s] %s=%.600s, expected it to contain %s", label, key,
		 got ? got : "(missing)", part);
	expect(got && strstr(got, part), at, c, msg);
}

long ts_long(const struct ts_child *c, const char *key)
{
	const char *v = ts_value(c, key);

	return v ? strtol(v, NULL, 10) : -999;
}

int ts_run_ok(char **argv, const char *what)
{
	static struct ts_child c;

	if (ts_run_program(argv, NULL, NULL, &c) == 0 && c.exit_code == 0)
		return 1;
	fprintf(stderr, "%s failed (exit %d):\n%s\n%s\n", what, c.exit_code, c.out, c.err);
	CU_assertImplementation(CU_FALSE, __LINE__, what, __FILE__, "", CU_FALSE);
	return 0;
}

int ts_install_build(const char *cmake, const char *prefix)
{
	char *argv[] = {(char *)cmake, "--install",    (char *)ts_build_dir(),
			"--prefix",    (char *)prefix, NULL};

	return ts_run_ok(argv, "cmake --install of this build");
}

int ts_install_in_tmp(const char *name, const char *cmake, char *work, size_t size)
{
	char prefix[PATH_MAX + 16];

	if (!ts_tmpdir(name, work, size))
		return 1;
	snprintf(prefix, sizeof prefix, "%s/cudastub", work);
	return ts_install_build(cmake, prefix) ? 0 : 1;
}

int ts_attempts_with(const struct ts_child *c, const char *part, const char *other)
{
	long count = ts_long(c, "attempt_count");
	int found = 0;

	for (long i = 0; i < count; i++) {
		char key[32];
		const char *v;

		snprintf(key, sizeof key, "attempt_%ld", i);
		v = ts_value(c, key);
		found += v && strstr(v, part) && strstr(v, other);
	}
	return found;
}

/* Strings may hold newlines; a key=value line must not. */
static void print_clean(const char *value)
{
	for (const char *p = value ? value : "(null)"; *p; p++)
		putchar(*p == '\n' ? ' ' : *p);
	putchar('\n');
}

void ts_print_line(const char *key, const char *value)
{
	printf("%s=", key);
	print_clean(value);
}

void ts_print_info(const cudastub_library_info *info)
{
	printf("info_state=%d\n", (int)info->state);
	printf("info_source=%d\n", (int)info->source);
	printf("info_version=%d.%d\n", info->major, info->minor);
	printf("info_major=%d\n", info->major);
	ts_print_line("info_path", info->path);
	ts_print_line("info_error", info->error);
	printf("info_driver_version=%d\n", info->driver_version);
	ts_print_line("info_choice", info->choice);
	printf("info_search_runs=%lu\n", info->search_runs);
	printf("attempt_count=%u\n", info->attempt_count);
	for (unsigned i = 0; i < info->attempt_count; i++) {
		const cudastub_attempt *a = &info->attempts[i];

		printf("attempt_%u=%s %s: ", i, cudastub_source_name(a->source),
		       a->path ? a->path : "(null)");
		print_clean(a->outcome);
	}
}

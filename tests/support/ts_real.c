/* The real-library suites' scaffolding: ts_real.h. */
#define _GNU_SOURCE
#include "ts_real.h"

#include <CUnit/CUnit.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ts_release.h"

struct ts_child ts_direct, ts_through;

void *ts_real_open(const char *var)
{
	const char *path = getenv(var);
	void *lib = path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;

	if (!lib)
		printf("open_error=%s\n", path ? dlerror() : var);
	return lib;
}

void *ts_real_symbol(void *lib, const char *name)
{
	void *s = dlsym(lib, name);

	if (!s) {
		printf("missing=%s\n", name);
		fflush(stdout);
		exit(5);
	}
	return s;
}

void ts_real_print_version(void *get_version, void *get_property)
{
	int (*version_of)(int *), (*property_of)(int, int *);
	int version = -7, property[3] = {-7, -7, -7}, rc = 0;

	*(void **)&version_of = get_version;
	*(void **)&property_of = get_property;
	printf("version_rc=%d\n", version_of(&version));
	printf("version=%d\n", version);
	for (int k = 0; k < 3; k++) {
		int r = property_of(k, &property[k]);

		if (rc == 0)
			rc = r;
	}
	printf("property_rc=%d\nproperty=%d.%d.%d\n", rc, property[0], property[1], property[2]);
}

void ts_real_print_properties(void *get_property)
{
	int (*property_of)(int, int *);

	*(void **)&property_of = get_property;
	for (int k = 0; k < 3; k++) {
		int value = -7, rc = property_of(k, &value);

		printf("prop_rc.%d=%d\nprop.%d=%d\n", k, rc, k, value);
	}
}

void ts_real_print_string(const char *key, int code, const char *text)
{
	printf("%s_%d=%s\n", key, code, text ? text : "(null)");
}

/* s, or "" for NULL */
static const char *text(const char *s)
{
	return s ? s : "";
}

int ts_real_print_info(void *lib, const char *name)
{
	const cudastub_library_info *(*info)(void), *i;

	*(void **)&info = dlsym(lib, name);
	if (!info)
		return 0;
	i = info();
	printf("state=%d\nmajor=%d\nminor=%d\nown=%s\npath=%s\nchoice=%s\nerror=%s\ntried=%u\n",
	       (int)i->state, i->major, i->minor, text(i->own_version), text(i->path),
	       text(i->choice), text(i->error), i->attempt_count);
	for (unsigned k = 0; k < i->attempt_count; k++)
		printf("tried.%u=%s: %s\n", k, i->attempts[k].path, i->attempts[k].outcome);
	return 1;
}

const char *ts_real_library(const struct ts_real_release *r, char *buf, size_t size)
{
	char dir[PATH_MAX / 2];

	if (!r->fixture)
		return ts_toolkit_file(r->soname, buf, size);
	if (!ts_fixture_libdir(r->fixture, dir, sizeof dir))
		return NULL;
	snprintf(buf, size, "%s/%s", dir, r->soname);
	return buf;
}

int ts_real_run(const char *scenario, const char *var, const char *path, const char *const *extra,
		struct ts_child *out)
{
	char open_var[PATH_MAX + 64];
	const char *env[TS_REAL_EXTRA + 2] = {open_var};
	int n = 1;

	snprintf(open_var, sizeof open_var, "%s=%s", var, path);
	for (; extra && *extra && n <= TS_REAL_EXTRA; extra++)
		env[n++] = *extra;
	env[n] = NULL;
	if (ts_run_child(scenario, env, out) != 0 || out->exit_code != 0) {
		fprintf(stderr, "%s on %s: exit %d\n%s%s\n", scenario, path, out->exit_code,
			out->out, out->err);
		CU_FAIL("a child of the suite failed");
		return -1;
	}
	return 0;
}

int ts_real_run_in(const char *scenario, const char *var, const char *path, const char *dirs,
		   const char *const *extra, struct ts_child *out)
{
	struct ts_env env = {0};

	ts_env_add(&env, "LD_LIBRARY_PATH=%s", dirs ? dirs : "");
	for (; extra && *extra; extra++)
		ts_env_add(&env, "%s", *extra);
	return ts_real_run(scenario, var, path, env.list, out);
}

int ts_real_both(const char *scenario, const char *var, const char *override, const char *stub,
		 const char *real, const char *extra)
{
	char set[PATH_MAX + 64];
	const char *env[] = {set, extra, NULL};

	snprintf(set, sizeof set, "%s=%s", override, real);
	if (ts_real_run(scenario, var, real, NULL, &ts_direct) ||
	    ts_real_run(scenario, var, stub, env, &ts_through))
		return -1;
	return 0;
}

int ts_real_both_in(const char *scenario, const char *var, const char *override, const char *stub,
		    const char *real, int major, const char *const *direct_extra,
		    const char *const *extra)
{
	char dirs[2 * PATH_MAX];
	struct ts_env env = {0};

	ts_release_path(major, dirs, sizeof dirs);
	ts_env_add(&env, "%s=%s", override, real);
	for (; extra && *extra; extra++)
		ts_env_add(&env, "%s", *extra);
	if (ts_real_run_in(scenario, var, real, dirs, direct_extra, &ts_direct) ||
	    ts_real_run_in(scenario, var, stub, dirs, env.list, &ts_through))
		return -1;
	return 0;
}

void ts_real_same_texts(const char *const *keys, size_t count)
{
	for (size_t i = 0; i < count; i++)
		CU_ASSERT_STRING_EQUAL(ts_text(&ts_through, keys[i]), ts_text(&ts_direct, keys[i]));
}

void ts_real_loaded(int major)
{
	char want[512];

	CU_ASSERT_EQUAL(ts_number(&ts_through, "state"), CUDASTUB_STATE_LOADED);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "major"), major);
	snprintf(want, sizeof want, "%ld.%ld.%ld", ts_number(&ts_direct, "prop.0"),
		 ts_number(&ts_direct, "prop.1"), ts_number(&ts_direct, "prop.2"));
	CU_ASSERT_STRING_EQUAL(ts_text(&ts_through, "own"), want);
}

void ts_real_same_at(struct ts_where at, const char *key)
{
	const char *want = ts_value(&ts_direct, key), *got;
	char msg[512];

	if (!want) {
		snprintf(msg, sizeof msg, "the direct call printed no %s", key);
		CU_assertImplementation(CU_FALSE, at.line, msg, at.file, at.fn, CU_FALSE);
		return;
	}
	got = ts_value(&ts_through, key);
	snprintf(msg, sizeof msg, "%s: %s directly, %s through the stub", key, want,
		 got ? got : "(nothing)");
	CU_assertImplementation(got && !strcmp(got, want), at.line, msg, at.file, at.fn, CU_FALSE);
}

const char *ts_real_answers(const struct ts_child *child, const char *stop, const char *then,
			    char *buf, size_t size)
{
	const char *end = strstr(child->out, stop);
	size_t n;

	if (!end && then)
		end = strstr(child->out, then);
	n = end ? (size_t)(end - child->out) : strlen(child->out);
	snprintf(buf, size, "%.*s", (int)(n < size ? n : size - 1), child->out);
	return buf;
}

void ts_real_other_abis(const char *stub_12, const char *stub_11,
			void (*each)(const char *stub, int abi), const char *what)
{
	const char *stubs[] = {stub_12, stub_11};
	char why[512];

	for (int s = 0; s < 2; s++) {
		if (!*stubs[s]) {
			snprintf(why, sizeof why,
				 "%s (tests/fixtures/fetch.sh), before configuring", what);
			ts_unavailable(why);
			return;
		}
		each(stubs[s], 12 - s);
	}
}

/* Both runs of one stub on one real library: 0 when both ran. */
static int fixture_pair(const struct ts_real_fixture_lib *lib, const char *stub, const char *real)
{
	char set[PATH_MAX + 64];
	const char *direct[] = {lib->extra, NULL}, *through[] = {set, lib->extra, NULL};

	snprintf(set, sizeof set, "%s=%s", lib->override, real);
	if (ts_real_run("calls", lib->var, real, direct, &ts_direct) ||
	    ts_real_run("calls", lib->var, stub, through, &ts_through))
		return -1;
	return 0;
}

void ts_real_fixture_pairs(const struct ts_real_fixture_lib *lib,
			   void (*check)(const struct ts_real_pair *pair))
{
	static const int majors[] = {12, 11};
	char why[512];
	int pairs = 0;

	for (size_t s = 0; s < 2; s++) {
		if (!*lib->stubs[s]) {
			snprintf(why, sizeof why,
				 "%s (tests/fixtures/fetch.sh), fetched before configuring",
				 lib->headers);
			ts_unavailable(why);
			continue;
		}
		for (size_t r = 0; r < 2; r++) {
			char path[PATH_MAX];
			struct ts_real_pair pair = {majors[s], majors[r], NULL};

			pair.real = ts_release_file(majors[r], lib->sonames[r], path, sizeof path);
			if (!pair.real)
				continue; /* reported */
			if (fixture_pair(lib, lib->stubs[s], pair.real))
				continue;
			pairs++;
			check(&pair);
		}
	}
	if (!pairs) {
		snprintf(why, sizeof why, "%s (tests/fixtures/fetch.sh)", lib->fixtures);
		ts_unavailable(why);
	}
}

void ts_real_fixture_no_library(const struct ts_real_fixture_lib *lib, void (*check)(int abi))
{
	char none[256];
	const char *env[] = {none, lib->extra, NULL};

	snprintf(none, sizeof none, "%s=/nonexistent/cudastub-no-library", lib->override);
	for (size_t s = 0; s < 2; s++) {
		if (!*lib->stubs[s] ||
		    ts_real_run("calls", lib->var, lib->stubs[s], env, &ts_through))
			continue; /* reported by ts_real_fixture_pairs */
		check(12 - (int)s);
	}
}

/* The next name of a symbol list, in line; 0 at its end. */
static int next_name(FILE *list, char *line, size_t size)
{
	while (fgets(line, (int)size, list)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] && line[0] != '#')
			return 1;
	}
	return 0;
}

/* Prints call.<name>=<result> for every name and called=<count>: with no
 * library nothing is forwarded, so no NULL argument is dereferenced. */
int ts_real_sweep_child(void)
{
	void *lib = ts_real_open("TS_REAL_OPEN");
	const char *symbols = getenv("TS_REAL_SYMBOLS");
	FILE *list = symbols ? fopen(symbols, "r") : NULL;
	char line[256];
	int called = 0;

	if (!lib || !list) {
		if (list)
			fclose(list);
		return 3;
	}
	while (next_name(list, line, sizeof line)) {
		int (*fn)(void *, void *, void *, void *, void *, void *);

		*(void **)&fn = ts_real_symbol(lib, line);
		printf("call.%s=%d\n", line, fn(NULL, NULL, NULL, NULL, NULL, NULL));
		called++;
	}
	fclose(list);
	printf("called=%d\n", called);
	fflush(stdout);
	return 0;
}

void ts_real_sweep(const char *stub, const char *symbols, const char *override, long code)
{
	char none[256], list_var[PATH_MAX + 32], line[256], key[300];
	const char *env[] = {none, list_var, NULL};
	FILE *list = fopen(symbols, "r");
	long names = 0, refused = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(list);
	snprintf(none, sizeof none, "%s=/nonexistent/cudastub-sweep", override);
	snprintf(list_var, sizeof list_var, "TS_REAL_SYMBOLS=%s", symbols);
	if (ts_real_run("ts_real_sweep", "TS_REAL_OPEN", stub, env, &ts_through)) {
		fclose(list);
		return;
	}
	while (next_name(list, line, sizeof line)) {
		names++;
		snprintf(key, sizeof key, "call.%s", line);
		if (ts_number(&ts_through, key) == code)
			refused++;
		else
			fprintf(stderr, "  %s: %s\n", key, ts_value(&ts_through, key));
	}
	fclose(list);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "called"), names);
	CU_ASSERT_EQUAL(refused, names);
	printf("  %ld exports called with no library: %ld returned %ld\n", names, refused, code);
}

int ts_real_main(int argc, char **argv, const char *name, const struct ts_test *tests,
		 int (*calls)(void))
{
	const struct ts_scenario scenarios[] = {
		{"calls", calls}, TS_REAL_SWEEP_SCENARIO, {NULL, NULL}};
	const struct ts_suite suite = {name, NULL, NULL, tests};

	return ts_main_suite(argc, argv, scenarios, &suite);
}

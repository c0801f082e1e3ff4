/* Running a suite's table of adapter cases (parent), checking in the
 * child as they go or reporting to the parent, and reading what they
 * reported. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/TestRun.h>

#include "adapters_test.h"

/* ---- parent ---- */

/* "stub 12 on fake 13: scenario", for failure messages. */
static char current_case[256];

/* The fetched headers a stub or fake of another major needs, or NULL. */
static const char *fixture_of(const char *major)
{
	return !strncmp(major, "11", 2)	  ? "headers-11.8"
	       : !strncmp(major, "12", 2) ? "headers-12.4"
					  : NULL;
}

static void stub_path(int abi, char *buf, size_t size)
{
	if (abi == AD_BUILD_ABI)
		snprintf(buf, size, "%s", AD_BUILD_STUB);
	else
		snprintf(buf, size, "%s/tests/abi-%d/libcudart_stub.so", ts_build_dir(), abi);
}

/* tests/cudart/fakes/CMakeLists.txt: cudart-<fake>/ holds the SONAME of
 * the fake's major. */
static void fake_path(const char *fake, char *buf, size_t size)
{
	const char *version = !strncmp(fake, "11", 2)	? "11.0"
			      : !strncmp(fake, "12", 2) ? "12"
							: fake;

	snprintf(buf, size, "%s/tests/cudart/fakes/cudart-%s/libcudart.so.%s", ts_build_dir(), fake,
		 version);
}

static int built(const char *path)
{
	char why[4200];

	if (access(path, R_OK) == 0)
		return 1;
	snprintf(why, sizeof why,
		 "%s was not built: its headers were fetched after configuring; re-run cmake",
		 path);
	ts_unavailable(why);
	return 0;
}

/* A CUnit assertion whose message names the case. */
static void assert_in_case(int ok, int line, const char *what)
{
	char msg[1536];

	snprintf(msg, sizeof msg, "[%s] %s", current_case, what);
	CU_assertImplementation(ok, line, msg, __FILE__, "", CU_FALSE);
}

/* Runs scenario in a child with the stub and the fake; 1 when it ran (its
 * output in child), 0 after reporting why not. */
static int run_scenario(int stub_abi, const char *fake, const char *scenario, int debug,
			struct ts_child *child)
{
	char stub[4096], lib[4096], env_stub[4200], env_fake[4200], major[8], env_abi[32],
		env_major[32];
	const char *env[] = {
		env_stub, env_fake, env_abi, env_major, debug ? "CUDASTUB_DEBUG=1" : NULL, NULL};

	snprintf(current_case, sizeof current_case, "stub %d on fake %s: %s", stub_abi, fake,
		 scenario);
	snprintf(major, sizeof major, "%d", stub_abi);
	if ((fixture_of(major) && !ts_fixture(fixture_of(major))) ||
	    (fixture_of(fake) && !ts_fixture(fixture_of(fake))))
		return 0;
	stub_path(stub_abi, stub, sizeof stub);
	fake_path(fake, lib, sizeof lib);
	if (!built(stub) || !built(lib))
		return 0;
	snprintf(env_stub, sizeof env_stub, "AD_STUB=%s", stub);
	snprintf(env_fake, sizeof env_fake, "CUDASTUB_CUDART_PATH=%s", lib);
	snprintf(env_abi, sizeof env_abi, "AD_STUB_ABI=%d", stub_abi);
	snprintf(env_major, sizeof env_major, "AD_FAKE_MAJOR=%d", atoi(fake));
	if (ts_run_child(scenario, env, child) != 0) {
		assert_in_case(0, __LINE__, "the child did not start");
		return 0;
	}
	return 1;
}

/* What the child printed, after what went wrong. */
static void print_child(const char *what, const struct ts_child *child)
{
	fprintf(stderr, "[%s] %s\nstdout:\n%s\nstderr:\n%s\n", current_case, what, child->out,
		child->err);
}

/* A case checked in the child: asserts that every expectation held. */
static void run_checked(int stub_abi, const char *fake, const char *scenario)
{
	struct ts_child *child = malloc(sizeof *child);
	char msg[1024];
	const char *line;

	if (!child || !run_scenario(stub_abi, fake, scenario, 0, child))
		goto out;
	/* each failed expectation is one "fail=" line */
	for (line = strstr(child->out, "fail="); line; line = strstr(line + 1, "fail=")) {
		int len = (int)strcspn(line + 5, "\n");

		snprintf(msg, sizeof msg, "%.*s", len, line + 5);
		assert_in_case(0, __LINE__, msg);
	}
	snprintf(msg, sizeof msg, "the child exited %d", child->exit_code);
	assert_in_case(child->exit_code == 0, __LINE__, msg);
	if (child->exit_code != 0)
		print_child(msg, child);
out:
	free(child);
}

/* A case reported to the parent: 1 when it ran and exited 0 (its output
 * in child); otherwise 0, after reporting why. */
static int run_reported(int stub_abi, const char *fake, const char *scenario,
			struct ts_child *child)
{
	char msg[64];

	if (!run_scenario(stub_abi, fake, scenario, 1, child))
		return 0;
	if (child->exit_code == 0)
		return 1;
	snprintf(msg, sizeof msg, "the child exited %d", child->exit_code);
	assert_in_case(0, __LINE__, msg);
	print_child(msg, child);
	return 0;
}

/* The suite's cases, for ad_main's tests and scenarios. */
static const struct ad_case *suite_cases;

static void run_case(const struct ad_case *k)
{
	struct ts_child *child;

	if (!k->check) {
		run_checked(k->stub_abi, k->fake, k->scenario);
		return;
	}
	child = malloc(sizeof *child);
	if (!child) {
		assert_in_case(0, __LINE__, "out of memory");
		return;
	}
	if (run_reported(k->stub_abi, k->fake, k->scenario, child))
		k->check(child);
	free(child);
}

/* Every CUnit test: the row of the test's own name, its one case
 * (AD_REPORTED) or the cases under it (AD_TEST); a CUnit test function
 * takes no argument. */
static void run_test(void)
{
	const char *name = CU_get_current_test()->pName;
	const struct ad_case *k = suite_cases;

	while (k->test || k->scenario) {
		if (k->test && !strcmp(k->test, name))
			break;
		k++;
	}
	if (!k->test) {
		CU_FAIL("no test of this name in the cases");
		return;
	}
	if (k->scenario) {
		run_case(k);
		return;
	}
	for (k++; k->scenario && !k->test; k++)
		run_case(k);
}

/* How many rows of cases before AD_END name a test (want_test) or a
 * scenario; an AD_REPORTED row does both. */
static size_t count_rows(const struct ad_case *cases, int want_test)
{
	size_t n = 0;

	for (; cases->test || cases->scenario; cases++)
		n += want_test ? !!cases->test : !!cases->scenario;
	return n;
}

int ad_main(int argc, char **argv, const char *suite_name, const struct ad_case *cases)
{
	struct ts_test *tests = calloc(count_rows(cases, 1) + 1, sizeof *tests);
	struct ts_scenario *scenarios = calloc(count_rows(cases, 0) + 1, sizeof *scenarios);
	struct ts_suite suite = {suite_name, NULL, NULL, tests};
	size_t t = 0, s = 0;
	int rc;

	if (!tests || !scenarios)
		return 2;
	suite_cases = cases;
	/* a scenario named by several cases is listed each time: the child
	 * runs the first of that name, the same function */
	for (; cases->test || cases->scenario; cases++) {
		if (cases->test)
			tests[t++] = (struct ts_test){cases->test, run_test};
		if (cases->scenario)
			scenarios[s++] = (struct ts_scenario){cases->scenario, cases->run};
	}
	rc = ts_main_suite(argc, argv, scenarios, &suite);
	free(tests);
	free(scenarios);
	return rc;
}

void ad_expect_value_at(const char *file, int line, const struct ts_child *c, const char *key,
			long long want)
{
	const char *got = ts_value(c, key);
	char msg[1024];

	snprintf(msg, sizeof msg, "[%s] %s=%s, expected %lld", current_case, key,
		 got ? got : "(missing)", want);
	CU_assertImplementation(got && strtoll(got, NULL, 0) == want, line, msg, file, "",
				CU_FALSE);
}

void ad_called_at(const char *file, int line, const struct ts_child *c, const char *step,
		  const char *fn, int want)
{
	char key[128], needle[160], msg[1024];
	const char *calls;

	snprintf(key, sizeof key, "%s.calls", step);
	snprintf(needle, sizeof needle, ",%s,", fn ? fn : "");
	calls = ts_value(c, key);
	snprintf(msg, sizeof msg, "[%s] %s=%s, expected %s%s", current_case, key,
		 calls ? calls : "(missing)", want ? "" : "no ", fn ? fn : "call");
	if (!fn) /* nothing: the list is empty */
		CU_assertImplementation(calls && !strcmp(calls, ","), line, msg, file, "",
					CU_FALSE);
	else
		CU_assertImplementation(calls && !strstr(calls, needle) == !want, line, msg, file,
					"", CU_FALSE);
}

void ad_same_at(const char *file, int line, const struct ts_child *c, const char *key_a,
		const char *key_b)
{
	char a[256], msg[1024];
	const char *got = ts_value(c, key_a);

	snprintf(a, sizeof a, "%s", got ? got : "(missing)");
	got = ts_value(c, key_b);
	snprintf(msg, sizeof msg, "[%s] %s=%s but %s=%s", current_case, key_a, a, key_b,
		 got ? got : "(missing)");
	CU_assertImplementation(got && strcmp(a, "(missing)") && !strcmp(a, got), line, msg, file,
				"", CU_FALSE);
}

void ad_step_value_at(const char *file, int line, const struct ts_child *c, const char *step,
		      const char *field, long long want)
{
	char key[128];

	snprintf(key, sizeof key, "%s.%s", step, field);
	ad_expect_value_at(file, line, c, key, want);
}

void ad_step_same_at(const char *file, int line, const struct ts_child *c, const char *step,
		     const char *field, const char *key_b)
{
	char key[128];

	snprintf(key, sizeof key, "%s.%s", step, field);
	ad_same_at(file, line, c, key, key_b);
}

/* ---- child ---- */

static int env_number(const char *name)
{
	const char *value = getenv(name);

	if (!value) {
		fprintf(stderr, "%s is unset: not run as a case's child\n", name);
		exit(7);
	}
	return atoi(value);
}

int ad_stub_abi(void)
{
	return env_number("AD_STUB_ABI");
}

int ad_fake_major(void)
{
	return env_number("AD_FAKE_MAJOR");
}

static void *stub_handle(void)
{
	static void *stub;
	const char *path = getenv("AD_STUB");

	if (!stub && path)
		stub = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!stub) {
		fprintf(stderr, "cannot open the stub %s: %s\n", path ? path : "(AD_STUB unset)",
			dlerror());
		exit(2);
	}
	return stub;
}

/* name in handle (what names the library), or exit with code. */
static void *symbol_or_exit(void *handle, const char *what, const char *name, int code)
{
	void *sym = dlsym(handle, name);

	if (!sym) {
		fprintf(stderr, "the %s does not export %s\n", what, name);
		exit(code);
	}
	return sym;
}

void *ad_stub_symbol(const char *name)
{
	return symbol_or_exit(stub_handle(), "stub", name, 3);
}

int ad_stub_exports(const char *name)
{
	return dlsym(stub_handle(), name) != NULL;
}

/* The fake, loaded by the stub on its first call (made here if need be). */
static void *fake_after_first_call(void)
{
	static void *fake;
	const char *path = getenv("CUDASTUB_CUDART_PATH");
	int (*load)(void);

	if (fake)
		return fake;
	*(void **)&load = ad_stub_symbol("cudastub_cudart_load");
	load();
	fake = path ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : NULL;
	if (!fake) {
		fprintf(stderr, "the stub did not load the fake %s\n", path ? path : "(unset)");
		exit(4);
	}
	return fake;
}

void *ad_fake_symbol(const char *name)
{
	return symbol_or_exit(fake_after_first_call(), "fake", name, 5);
}

/* The fake the stub loaded, once it has (a reference the caller closes). */
static void *fake_if_loaded(void)
{
	const char *path = getenv("CUDASTUB_CUDART_PATH");

	return path ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : NULL;
}

void ad_report(const char *step, int rc)
{
	static int reported; /* calls already printed */
	void *fake = fake_if_loaded();
	const char **calls = fake ? dlsym(fake, "fake_cudart_calls") : NULL;
	int *count = fake ? dlsym(fake, "fake_cudart_call_count") : NULL;
	long long *args = fake ? dlsym(fake, "fake_memory_args") : NULL;

	printf("%s.rc=%d\n", step, rc);
	printf("%s.calls=,", step);
	for (; count && calls && reported < *count && reported < 256; reported++)
		printf("%s,", calls[reported]);
	printf("\n");
	for (int i = 0; args && i < 8; i++)
		printf("%s.arg%d=%lld\n", step, i, args[i]);
	if (fake)
		dlclose(fake); /* the NOLOAD reference only */
	fflush(stdout);
}

/* checking in the child */

static int failures;
/* The buffers ad_guarded handed out, freed by ad_finish. */
static void *guarded[256];
static unsigned guarded_count;

void ad_expect(int ok, const char *file, int line, const char *what)
{
	if (ok)
		return;
	failures++;
	printf("fail=%s:%d: %s\n", file, line, what);
	fflush(stdout);
}

int ad_finish(void)
{
	while (guarded_count > 0)
		free(guarded[--guarded_count]);
	return failures ? 1 : 0;
}

int ad_mark(void)
{
	return *(int *)ad_fake_symbol("fake_cudart_call_count");
}

int ad_called_since(int mark, const char *name)
{
	const char **calls = ad_fake_symbol("fake_cudart_calls");
	int count = ad_mark();

	for (int i = mark; i < count && i < 256; i++)
		if (!strcmp(calls[i], name))
			return 1;
	return 0;
}

int ad_any_call_since(int mark)
{
	return ad_mark() != mark;
}

int ad_pattern_at(const void *p, size_t at, size_t from, size_t size)
{
	const unsigned char *b = p;

	for (size_t k = 0; k < size; k++)
		if (b[at + k] != FAKE_PATTERN(from + k))
			return 0;
	return 1;
}

int ad_zero_at(const void *p, size_t at, size_t size)
{
	const unsigned char *b = p;

	for (size_t k = 0; k < size; k++)
		if (b[at + k])
			return 0;
	return 1;
}

int ad_in_field(const struct cudastub_layout *layout, size_t at)
{
	for (unsigned i = 0; i < layout->family->field_count; i++) {
		const struct cudastub_layout_place f = layout->places[i];

		if (f.size && at >= f.offset && at < (size_t)f.offset + f.size)
			return 1;
	}
	return 0;
}

void ad_fill_fields(void *p, const struct cudastub_layout *layout, size_t upto)
{
	unsigned char *b = p;

	for (size_t k = 0; k < layout->size; k++)
		b[k] = k < upto && ad_in_field(layout, k) ? FAKE_PATTERN(k) : 0;
}

int ad_fields_at(const void *p, const struct cudastub_layout *layout, size_t upto)
{
	const unsigned char *b = p;

	for (size_t k = 0; k < layout->size; k++)
		if (b[k] != (k < upto && ad_in_field(layout, k) ? FAKE_PATTERN(k) : 0))
			return 0;
	return 1;
}

/* Writes into want what a copy of a pattern-filled struct of layout from
 * holds in layout to: every field both have, up to the smaller size, a
 * nested family field by field. */
static void copied_bytes(unsigned char *want, const struct cudastub_layout *to, size_t to_at,
			 const struct cudastub_layout *from, size_t from_at)
{
	for (unsigned i = 0; i < to->family->field_count; i++) {
		const struct cudastub_layout_place t = to->places[i], f = from->places[i];

		if (!t.size || !f.size)
			continue;
		if (to->nested && to->nested[i] && from->nested && from->nested[i]) {
			copied_bytes(want, to->nested[i], to_at + t.offset, from->nested[i],
				     from_at + f.offset);
			continue;
		}
		for (size_t k = 0; k < t.size && k < f.size; k++)
			want[to_at + t.offset + k] = FAKE_PATTERN(from_at + f.offset + k);
	}
}

int ad_copied_at(const void *p, const struct cudastub_layout *to,
		 const struct cudastub_layout *from)
{
	unsigned char want[sizeof(union cudastub_cudart_layout_room)] = {0};

	copied_bytes(want, to, 0, from, 0);
	return !memcmp(p, want, to->size);
}

int ad_received_as(const struct fake_received *got, const void *p, size_t size, size_t common)
{
	return got->ptr && got->size == size && !memcmp(got->bytes, p, common) &&
	       ad_zero_at(got->bytes, common, size - common);
}

void *ad_guarded(size_t size)
{
	unsigned char *p = malloc(size + AD_GUARD);

	if (!p || guarded_count == sizeof guarded / sizeof *guarded)
		exit(6);
	guarded[guarded_count++] = p;
	memset(p, AD_FILL, size + AD_GUARD);
	return p;
}

int ad_guard_intact(const void *p, size_t size)
{
	const unsigned char *b = p;

	for (size_t k = size; k < size + AD_GUARD; k++)
		if (b[k] != AD_FILL)
			return 0;
	return 1;
}

/*
 * No library: every exported function returns the documented code, the
 * probes zero their outputs, and the error string says, in one line,
 * that none was found and which variable to set.
 *
 * Two ways to have no library: an override naming nothing, and a pin to
 * CUDA 11, which this kind of machine does not have (it has the real 13 in
 * ld.so.cache and /usr/local/cuda; the children never see the fixtures).
 *
 * The "all_calls" scenario calls every name in the generated nvrtc.symbols
 * through dlsym with all-zero arguments and prints call.<name>=<result>.
 */
#define _GNU_SOURCE
#include "loader_test.h"

#include <CUnit/CUnit.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

typedef int (*any_fn)(void *, void *, void *, void *, void *, void *);
typedef const char *(*errstr_fn)(int);
typedef int (*version_fn)(int *, int *);

/* Reads the generated symbol list: one name a line, '#' comments. */
static int read_symbols(char names[][128], int max)
{
	FILE *f = fopen(LD_SYMBOLS_FILE, "r");
	char line[256];
	int n = 0;

	if (!f)
		return -1;
	while (n < max && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] && line[0] != '#')
			snprintf(names[n++], 128, "%.120s", line);
	}
	fclose(f);
	return n;
}

static int all_calls(void)
{
	static char names[256][128];
	void *stub = ld_open_stub(ld_stub());
	int n = read_symbols(names, 256), i, major = 77, minor = 77, called = 0;
	version_fn version;
	errstr_fn errstr;

	if (!stub || n <= 0)
		return 3;
	version = (version_fn)dlsym(stub, "nvrtcVersion");
	errstr = (errstr_fn)dlsym(stub, "nvrtcGetErrorString");
	if (!version || !errstr)
		return 4;
	printf("version_rc=%d\n", version(&major, &minor));
	printf("major=%d\nminor=%d\n", major, minor);
	for (i = 0; i < n; i++) {
		void *sym = dlsym(stub, names[i]);

		if (!sym) {
			printf("call.%s=missing\n", names[i]);
			continue;
		}
		called++;
		if (!strcmp(names[i], "nvrtcGetErrorString")) {
			const char *s = ((errstr_fn)sym)(0);

			printf("call.%s=%s\n", names[i], s ? s : "(null)");
			continue;
		}
		printf("call.%s=%d\n", names[i], ((any_fn)sym)(0, 0, 0, 0, 0, 0));
	}
	printf("called=%d\n", called);
	printf("errstr.1034=%s\n", errstr(CUDASTUB_NVRTC_ERROR_STUB_LIBRARY));
	printf("errstr.1500=%s\n", errstr(CUDASTUB_NVRTC_ERROR_NOT_FOUND));
	printf("errstr.6=%s\n", errstr(6));
	printf("errstr.9999=%s\n", errstr(9999));
	fflush(stdout);
	return 0;
}

static void check_all_calls(const char *const *env)
{
	static char names[256][128];
	int n = read_symbols(names, 256), i;
	struct ts_child c;

	CU_ASSERT_FATAL(n > 0);
	CU_ASSERT_EQUAL_FATAL(ts_run_child("all_calls", env, &c), 0);
	CU_ASSERT_EQUAL(c.exit_code, 0);
	CU_ASSERT_EQUAL(ld_long(&c, "version_rc"), CUDASTUB_NVRTC_ERROR_STUB_LIBRARY);
	CU_ASSERT_EQUAL(ld_long(&c, "major"), 0);
	CU_ASSERT_EQUAL(ld_long(&c, "minor"), 0);
	CU_ASSERT_EQUAL(ld_long(&c, "called"), n);
	for (i = 0; i < n; i++) {
		char key[160];

		snprintf(key, sizeof key, "call.%.120s", names[i]);
		/* the condition text names the function when it fails */
		if (!strcmp(names[i], "nvrtcGetErrorString"))
			CU_assertImplementation(ld_is(&c, key, "NVRTC_SUCCESS"), __LINE__, key,
						__FILE__, "", CU_FALSE);
		else
			CU_assertImplementation(ld_long(&c, key) ==
							CUDASTUB_NVRTC_ERROR_STUB_LIBRARY,
						__LINE__, key, __FILE__, "", CU_FALSE);
	}
	CU_ASSERT_TRUE(ld_has(&c, "errstr.1034", "CUDASTUB_NVRTC_PATH"));
	CU_ASSERT_TRUE(ld_has(&c, "errstr.1034", "cudastub"));
	CU_ASSERT_TRUE(ld_has(&c, "errstr.1500", "cudastub"));
	/* one line inside a program's own error message */
	CU_ASSERT_TRUE(ts_value(&c, "errstr.1034") && strlen(ts_value(&c, "errstr.1034")) <= 200);
	CU_ASSERT_TRUE(ld_is(&c, "errstr.6", "NVRTC_ERROR_COMPILATION"));
	CU_ASSERT_TRUE(ld_is(&c, "errstr.9999", "NVRTC_ERROR unknown"));
}

static void test_override_nonexistent(void)
{
	struct ts_child c;
	const char *env[] = {"CUDASTUB_NVRTC_PATH=/nonexistent/x", NULL};

	if (ld_run_probe(env, &c))
		return;
	CU_ASSERT_EQUAL(ld_long(&c, "version_rc"), CUDASTUB_NVRTC_ERROR_STUB_LIBRARY);
	CU_ASSERT_EQUAL(ld_long(&c, "major"), 0);
	CU_ASSERT_EQUAL(ld_long(&c, "minor"), 0);
	CU_ASSERT_EQUAL(ld_long(&c, "state"), CUDASTUB_STATE_OVERRIDE_FAILED);
	CU_ASSERT_EQUAL(ld_long(&c, "source"), CUDASTUB_SOURCE_NONE);
	CU_ASSERT_TRUE(ld_is(&c, "path", ""));
	CU_ASSERT_TRUE(ld_has(&c, "error", "CUDASTUB_NVRTC_PATH=/nonexistent/x"));
	CU_ASSERT_TRUE(ld_attempt(&c, "/nonexistent/x", "absent"));
	CU_ASSERT_EQUAL(ld_long(&c, "attempts"), 1);
	CU_ASSERT_EQUAL(ld_long(&c, "dlopen_calls"), 0);
	CU_ASSERT_TRUE(ld_has(&c, "errstr.1034", "/nonexistent/x"));
	CU_ASSERT_TRUE(ld_has(&c, "errstr.1034", "CUDASTUB_NVRTC_PATH"));
}

static void test_override_nonexistent_all_calls(void)
{
	const char *env[] = {"CUDASTUB_NVRTC_PATH=/nonexistent/x", NULL};

	check_all_calls(env);
}

static void test_not_found(void)
{
	struct ts_child c;
	const char *env[] = {"CUDASTUB_NVRTC_MAJOR=11", NULL};

	if (ld_run_probe(env, &c))
		return;
	LD_EXPECT_NOT_FOUND(&c);
	CU_ASSERT_TRUE(ld_has(&c, "error", "libnvrtc"));
	CU_ASSERT_TRUE(ld_long(&c, "attempts") > 0);
	/* the steps it went through: already loaded, the loader, /usr/local/cuda */
	CU_ASSERT_TRUE(ld_attempt(&c, "libnvrtc.so.11.2", "not loaded"));
	CU_ASSERT_TRUE(ld_attempt(&c, "/usr/local/cuda/lib64/libnvrtc.so.11.2", "absent"));
	CU_ASSERT_FALSE(ld_attempt(&c, "libnvrtc.so.13", ""));
	/* the error string counts the attempts and says where they are listed,
	 * on one line */
	CU_ASSERT_TRUE(ld_has(&c, "errstr.1034", " tried)"));
	CU_ASSERT_TRUE(ld_has(&c, "errstr.1034", "`cudastub info nvrtc` or CUDASTUB_DEBUG=1"));
	CU_ASSERT_TRUE(ld_has(&c, "errstr.1034", "CUDASTUB_NVRTC_PATH"));
	CU_ASSERT_FALSE(ld_has(&c, "errstr.1034", "/usr/local/cuda/lib64/libnvrtc.so.11.2"));
	CU_ASSERT_TRUE(ts_value(&c, "errstr.1034") && strlen(ts_value(&c, "errstr.1034")) <= 200);
}

/* An empty pin is no pin, so the text does not say it limits anything; a
 * pin that is not a whole number is refused by name. */
static void test_empty_and_bad_pin(void)
{
	const char *empty[] = {"CUDASTUB_NVRTC_PATH=/nonexistent/x", "CUDASTUB_NVRTC_MAJOR=", NULL};
	const char *bad[] = {"CUDASTUB_NVRTC_MAJOR=12x", NULL};
	struct ts_child c;

	if (ld_run_probe(empty, &c))
		return;
	CU_ASSERT_TRUE(ld_has(&c, "errstr.1034", "CUDASTUB_NVRTC_PATH"));
	CU_ASSERT_FALSE(ld_has(&c, "errstr.1034", "limits the search"));
	if (ld_run_probe(bad, &c))
		return;
	CU_ASSERT_EQUAL(ld_long(&c, "state"), CUDASTUB_STATE_NOT_FOUND);
	CU_ASSERT_TRUE(ld_has(&c, "error", "CUDASTUB_NVRTC_MAJOR=\"12x\" is refused"));
	CU_ASSERT_TRUE(ld_has(&c, "error", "(13, 12 or 11)"));
	CU_ASSERT_EQUAL(ld_long(&c, "dlopen_calls"), 0);
}

static void test_not_found_all_calls(void)
{
	const char *env[] = {"CUDASTUB_NVRTC_MAJOR=11", NULL};

	check_all_calls(env);
}

TS_TEST(test_override_nonexistent, "override names nothing");
TS_TEST(test_override_nonexistent_all_calls, "override names nothing: every function");
TS_TEST(test_not_found, "not found anywhere");
TS_TEST(test_not_found_all_calls, "not found anywhere: every function");
TS_TEST(test_empty_and_bad_pin, "an empty pin is none; a malformed one is refused");

static const struct ts_scenario scenarios[] = {
	LD_PROBE_SCENARIO, {"all_calls", all_calls}, {NULL, NULL}};

TS_MAIN_SUITE("missing_library", NULL, NULL, scenarios)

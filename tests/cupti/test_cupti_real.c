/*
 * CUPTI through its stub, with NVIDIA's libraries and no GPU: the 13.0
 * toolkit's libcupti.so.13, and the 12.4 and 11.8 fixtures' libcupti.so.12
 * and libcupti.so.11.8.
 *
 *   versions    cuptiGetVersion through the stub answers what the library
 *               answers called directly, and the stub reports the CUDA
 *               release the spec's release lines give that API version
 *               (18: 11, 22: 12, 130001: 13);
 *   strings     cuptiGetResultString and cuptiGetErrorMessage, for every
 *               code a header defines and some none does: the same code
 *               and text through the stub as directly, per release; on
 *               11.8, which has no cuptiGetErrorMessage, a stub of later
 *               headers names the code from them (the enum constant, as
 *               the releases that have it answer);
 *   callbacks   what a framework calls at import (cuptiSubscribe,
 *               cuptiEnableCallback, cuptiEnableDomain, cuptiUnsubscribe,
 *               cuptiActivityEnable, cuptiGetTimestamp) answers as
 *               directly, on a machine without a GPU;
 *   no library  an override naming nothing, and a search that finds
 *               nothing: every call CUPTI_ERROR_NOT_INITIALIZED, the
 *               version 0, the names from the headers, the message of the
 *               "no library" code saying none was found, no crash;
 *   other ABIs  the stubs built against the 12.4 and 11.8 headers: the
 *               same answers on every release.
 *   sweep       every export of the stub's list, called with zero
 *               arguments and no library, returns CUPTI_ERROR_NOT_INITIALIZED.
 */
#define _GNU_SOURCE
#include <cupti.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudastub/cudastub.h"
#include "test_support.h"

/* From CMake: CP_STUB (the build's stub, 13 ABI), CP_STUB_12 and
 * CP_STUB_11 (the stubs of the 12.4 and 11.8 headers, "" when those
 * headers were not fetched when configuring). */

/* The codes asked for a string: every one some header defines (0 to 46,
 * 999), 1000 (named by every release, defined by no header), and codes
 * none names. */
static const int codes[] = {0,	1,  2,	3,  4,	5,  6,	 7,   8,   9,	 10,   11, 12, 13,
			    14, 15, 16, 17, 18, 19, 20,	 21,  22,  23,	 24,   25, 26, 27,
			    28, 29, 30, 31, 32, 33, 34,	 35,  36,  37,	 38,   39, 40, 41,
			    42, 43, 44, 45, 46, 47, 100, 998, 999, 1000, 1001, -1};
#define CODES (sizeof codes / sizeof *codes)

/* a subscriber no CUPTI has handed out: an answer that does not write it
 * leaves it as it was */
#define UNTOUCHED ((CUpti_SubscriberHandle)(uintptr_t)0x5eed)

/* ---- child: the calls, through CP_OPEN (the stub or a real library) ---- */

static void *symbol(void *lib, const char *name)
{
	void *s = dlsym(lib, name);

	if (!s) {
		printf("missing=%s\n", name);
		fflush(stdout);
		exit(5);
	}
	return s;
}

static void CUPTIAPI callback(void *data, CUpti_CallbackDomain domain, CUpti_CallbackId id,
			      const void *info)
{
	(void)data, (void)domain, (void)id, (void)info;
}

/* text with its line breaks written as \n: one line a value */
static void print_text(const char *key, int code, int rc, const char *text)
{
	printf("%s_%d=%d:", key, code, rc);
	for (; text && *text; text++)
		if (*text == '\n')
			fputs("\\n", stdout);
		else
			putchar(*text);
	putchar('\n');
}

static int calls_child(void)
{
	void *lib = dlopen(getenv("CP_OPEN"), RTLD_NOW | RTLD_LOCAL);
	CUptiResult (*get_version)(uint32_t *);
	CUptiResult (*result_string)(CUptiResult, const char **);
	CUptiResult (*error_message)(CUptiResult, const char **);
	CUptiResult (*subscribe)(CUpti_SubscriberHandle *, CUpti_CallbackFunc, void *);
	CUptiResult (*enable_callback)(uint32_t, CUpti_SubscriberHandle, CUpti_CallbackDomain,
				       CUpti_CallbackId);
	CUptiResult (*enable_domain)(uint32_t, CUpti_SubscriberHandle, CUpti_CallbackDomain);
	CUptiResult (*unsubscribe)(CUpti_SubscriberHandle);
	CUptiResult (*activity_enable)(CUpti_ActivityKind);
	CUptiResult (*timestamp)(uint64_t *);
	const cudastub_library_info *(*info)(void);
	CUpti_SubscriberHandle subscriber = UNTOUCHED;
	uint32_t version = 7;
	uint64_t now = 7;

	if (!lib) {
		printf("open_error=%s\n", dlerror());
		return 3;
	}
	*(void **)&get_version = symbol(lib, "cuptiGetVersion");
	*(void **)&result_string = symbol(lib, "cuptiGetResultString");
	*(void **)&subscribe = symbol(lib, "cuptiSubscribe");
	*(void **)&enable_callback = symbol(lib, "cuptiEnableCallback");
	*(void **)&enable_domain = symbol(lib, "cuptiEnableDomain");
	*(void **)&unsubscribe = symbol(lib, "cuptiUnsubscribe");
	*(void **)&activity_enable = symbol(lib, "cuptiActivityEnable");
	*(void **)&timestamp = symbol(lib, "cuptiGetTimestamp");
	printf("version_rc=%d\n", (int)get_version(&version));
	printf("version=%u\n", version);
	printf("version_null_rc=%d\n", (int)get_version(NULL));
	/* 12.x's and 13.x's; 11.8 has none */
	*(void **)&error_message = dlsym(lib, "cuptiGetErrorMessage");
	for (size_t i = 0; i < CODES; i++) {
		const char *text = NULL;
		int rc = (int)result_string((CUptiResult)codes[i], &text);

		print_text("string", codes[i], rc, text);
		if (error_message) {
			text = NULL;
			rc = (int)error_message((CUptiResult)codes[i], &text);
			print_text("message", codes[i], rc, text);
		}
	}
	printf("string_null_rc=%d\n", (int)result_string(CUPTI_SUCCESS, NULL));
	printf("subscribe_rc=%d\n", (int)subscribe(&subscriber, callback, NULL));
	printf("subscriber_untouched=%d\n", subscriber == UNTOUCHED);
	printf("enable_callback_rc=%d\n",
	       (int)enable_callback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API,
				    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000));
	printf("enable_domain_rc=%d\n",
	       (int)enable_domain(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API));
	printf("unsubscribe_rc=%d\n", (int)unsubscribe(subscriber));
	printf("activity_enable_rc=%d\n", (int)activity_enable(CUPTI_ACTIVITY_KIND_KERNEL));
	printf("timestamp_rc=%d\n", (int)timestamp(&now));

	*(void **)&info = dlsym(lib, "cudastub_cupti_info");
	if (info) {
		const cudastub_library_info *i = info();

		printf("state=%d\nmajor=%d\nown=%s\npath=%s\nerror=%s\n", (int)i->state, i->major,
		       i->own_version ? i->own_version : "", i->path ? i->path : "",
		       i->error ? i->error : "");
	}
	fflush(stdout);
	return 0;
}

/* Every export of the stub's list, called with all-zero arguments (no
 * library: nothing is forwarded, so none is dereferenced): prints
 * call.<name>=<result> and called=<count>. */
static int sweep_child(void)
{
	void *lib = dlopen(getenv("CP_OPEN"), RTLD_NOW | RTLD_LOCAL);
	FILE *list = fopen(CP_SYMBOLS, "r");
	char line[256];
	int called = 0;

	if (!lib || !list)
		return 3;
	while (fgets(line, sizeof line, list)) {
		int (*fn)(void *, void *, void *, void *, void *, void *);

		line[strcspn(line, "\r\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		*(void **)&fn = symbol(lib, line);
		printf("call.%s=%d\n", line, fn(NULL, NULL, NULL, NULL, NULL, NULL));
		called++;
	}
	fclose(list);
	printf("called=%d\n", called);
	fflush(stdout);
	return 0;
}

/* ---- parent ---- */

struct release {
	const char *name;    /* "12.4" */
	int cuda_major;	     /* what the stub must report */
	const char *fixture; /* NULL: the toolkit's */
	const char *soname;
	unsigned api; /* cuptiGetVersion's answer */
};

static const struct release releases[] = {
	{"13.0", 13, NULL, "libcupti.so.13", 130001},
	{"12.4", 12, "cupti-12.4", "libcupti.so.12", 22},
	{"11.8", 11, "cupti-11.8", "libcupti.so.11.8", 18},
};
#define RELEASES (sizeof releases / sizeof *releases)

/* The real library of r, or NULL (reported). */
static const char *real_library(const struct release *r, char *buf, size_t size)
{
	char dir[PATH_MAX / 2];

	if (!r->fixture)
		return ts_toolkit_file(r->soname, buf, size);
	if (!ts_fixture_libdir(r->fixture, dir, sizeof dir))
		return NULL;
	snprintf(buf, size, "%s/%s", dir, r->soname);
	return buf;
}

static struct ts_child direct, through;

/* Runs the calls child on path with env entries (NULL-ended). */
static int run_calls(const char *path, const char *const *extra, struct ts_child *out)
{
	char open_var[PATH_MAX + 16];
	const char *env[8] = {open_var, NULL};
	int n = 1;

	snprintf(open_var, sizeof open_var, "CP_OPEN=%s", path);
	for (; extra && *extra && n < 7; extra++)
		env[n++] = *extra;
	env[n] = NULL;
	if (ts_run_child("calls", env, out) != 0 || out->exit_code != 0) {
		CU_FAIL("the calls child failed");
		fprintf(stderr, "%s: exit %d\n%s%s\n", path, out->exit_code, out->out, out->err);
		return -1;
	}
	return 0;
}

/* The stub on the real library (its override); 0 when both ran. */
static int run_both(const char *stub, const char *real)
{
	char override[PATH_MAX + 32];
	const char *env[] = {override, NULL};

	snprintf(override, sizeof override, "CUDASTUB_CUPTI_PATH=%s", real);
	if (run_calls(real, NULL, &direct) || run_calls(stub, env, &through))
		return -1;
	return 0;
}

/* key's value through the stub is the direct one */
static void expect_same(const char *key)
{
	const char *want = ts_value(&direct, key), *got;
	char msg[320];

	if (!want) {
		snprintf(msg, sizeof msg, "the direct call printed no %s", key);
		CU_FAIL(msg);
		return;
	}
	got = ts_value(&through, key);
	snprintf(msg, sizeof msg, "%s: %s directly, %s through the stub", key, want,
		 got ? got : "(nothing)");
	CU_assertImplementation(got && !strcmp(got, want), __LINE__, msg, __FILE__, "", CU_FALSE);
}

/* The key of code's cuptiGetResultString answer. */
static const char *name_key(int code)
{
	static char key[32];

	snprintf(key, sizeof key, "string_%d", code);
	return key;
}

/* Versions, strings and callbacks of one stub on every real release. */
static void answers_through(const char *stub, int abi)
{
	static const char *const same[] = {
		"version_rc",	      "version",	  "version_null_rc",
		"string_null_rc",     "subscribe_rc",	  "subscriber_untouched",
		"enable_callback_rc", "enable_domain_rc", "unsubscribe_rc",
		"activity_enable_rc", "timestamp_rc",
	};

	for (size_t i = 0; i < RELEASES; i++) {
		const struct release *r = &releases[i];
		char path[PATH_MAX], key[32];
		const char *real = real_library(r, path, sizeof path);
		size_t messages = 0;

		if (!real || run_both(stub, real))
			continue;
		CU_ASSERT_EQUAL(ts_number(&direct, "version_rc"), CUPTI_SUCCESS);
		CU_ASSERT_EQUAL(ts_number(&direct, "version"), r->api);
		for (size_t k = 0; k < sizeof same / sizeof *same; k++)
			expect_same(same[k]);
		for (size_t k = 0; k < CODES; k++) {
			const char *got;

			snprintf(key, sizeof key, "string_%d", codes[k]);
			expect_same(key);
			/* cuptiGetErrorMessage came with 12.x: a stub of 12.x's
			 * headers or later has it, and refuses it on 11.8 */
			snprintf(key, sizeof key, "message_%d", codes[k]);
			got = ts_value(&through, key);
			CU_ASSERT_EQUAL(!got, abi < 12);
			if (ts_value(&direct, key)) {
				CU_ASSERT_EQUAL(r->cuda_major >= 12, 1);
				if (got)
					expect_same(key);
				messages++;
			} else if (got) {
				/* a release without it: the stub names the code
				 * from its headers, as with no library (where the
				 * release names it too, alike) */
				const char *named = ts_value(&direct, name_key(codes[k]));

				if (!strncmp(got, "0:", 2) && !strncmp(named, "0:", 2)) {
					CU_ASSERT_STRING_EQUAL(got, named);
				} else if (!strncmp(got, "0:", 2)) {
					CU_ASSERT_EQUAL(strncmp(got, "0:CUPTI_", 8), 0);
				} else {
					CU_ASSERT_STRING_EQUAL(got, "15:unrecognized status code");
				}
			}
		}
		CU_ASSERT_EQUAL(messages, r->cuda_major >= 12 ? CODES : 0);
		CU_ASSERT_EQUAL(ts_number(&through, "state"), CUDASTUB_STATE_LOADED);
		CU_ASSERT_EQUAL(ts_number(&through, "major"), r->cuda_major);
		printf("  %d ABI, %s: API version %ld, CUDA %ld; %zu result strings, %zu "
		       "messages; cuptiSubscribe %ld, cuptiActivityEnable %ld both ways\n",
		       abi, r->name, ts_number(&direct, "version"), ts_number(&through, "major"),
		       CODES, messages, ts_number(&direct, "subscribe_rc"),
		       ts_number(&direct, "activity_enable_rc"));
	}
}

static void test_real(void)
{
	answers_through(CP_STUB, 13);
}

/* Without a library: the documented codes, the probe's output 0, the
 * names from the headers, and that none was found. */
static void expect_no_library(int state, const char *error, const char *why)
{
	static const char *const refused[] = {
		"version_rc",	  "version_null_rc",	"string_null_rc",
		"subscribe_rc",	  "enable_callback_rc", "enable_domain_rc",
		"unsubscribe_rc", "activity_enable_rc", "timestamp_rc"};
	const char *message;

	for (size_t k = 0; k < sizeof refused / sizeof *refused; k++)
		CU_ASSERT_EQUAL(ts_number(&through, refused[k]), CUPTI_ERROR_NOT_INITIALIZED);
	CU_ASSERT_STRING_EQUAL(ts_value(&through, "version"), "0");
	CU_ASSERT_STRING_EQUAL(ts_value(&through, "subscriber_untouched"), "1");
	CU_ASSERT_STRING_EQUAL(ts_value(&through, "string_0"), "0:CUPTI_SUCCESS");
	CU_ASSERT_STRING_EQUAL(ts_value(&through, "string_15"), "0:CUPTI_ERROR_NOT_INITIALIZED");
	CU_ASSERT_STRING_EQUAL(ts_value(&through, "string_999"), "0:CUPTI_ERROR_UNKNOWN");
	CU_ASSERT_STRING_EQUAL(ts_value(&through, "string_47"), "15:unrecognized status code");
	CU_ASSERT_STRING_EQUAL(ts_value(&through, "message_27"), "0:CUPTI_ERROR_NOT_SUPPORTED");
	/* the "no library" code's message says what failed and what to set */
	message = ts_value(&through, "message_15");
	CU_ASSERT_PTR_NOT_NULL_FATAL(message);
	CU_ASSERT_EQUAL(strncmp(message, "0:", 2), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(message, why));
	CU_ASSERT_EQUAL(ts_number(&through, "state"), state);
	CU_ASSERT_PTR_NOT_NULL(strstr(ts_value(&through, "error"), error));
}

static void test_no_library(void)
{
	const char *env[] = {"CUDASTUB_CUPTI_PATH=/nonexistent/cudastub-no-cupti", NULL};
	/* 11.8's SONAME is on no path of this process: the search finds none */
	const char *nothing[] = {"CUDASTUB_CUPTI_MAJOR=11", "LD_LIBRARY_PATH=", NULL};

	if (run_calls(CP_STUB, env, &through) == 0)
		expect_no_library(CUDASTUB_STATE_OVERRIDE_FAILED,
				  "CUDASTUB_CUPTI_PATH=", "CUDASTUB_CUPTI_PATH=");
	if (run_calls(CP_STUB, nothing, &through) == 0)
		expect_no_library(CUDASTUB_STATE_NOT_FOUND, "no usable libcupti",
				  "(CUDASTUB_CUPTI_MAJOR=11)");
}

/* The stubs of the 12 and 11 ABIs, on every release. */
static void test_other_abis(void)
{
	static const struct {
		int abi;
		const char *stub;
	} stubs[] = {{12, CP_STUB_12}, {11, CP_STUB_11}};

	for (size_t s = 0; s < sizeof stubs / sizeof *stubs; s++) {
		if (!*stubs[s].stub) {
			ts_unavailable("the 12.4 and 11.8 headers and CUPTI fixtures "
				       "(tests/fixtures/fetch.sh), before configuring");
			return;
		}
		answers_through(stubs[s].stub, stubs[s].abi);
	}
}

/* The sweep: every export, no library, the documented code, no crash. */
static void test_sweep(void)
{
	const char *env[] = {"CUDASTUB_CUPTI_PATH=/nonexistent/cudastub-sweep", NULL};
	FILE *list = fopen(CP_SYMBOLS, "r");
	char line[256], key[300];
	long names = 0, refused = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(list);
	if (ts_run_child("sweep", (const char *[]){"CP_OPEN=" CP_STUB, env[0], NULL}, &through) !=
		    0 ||
	    through.exit_code != 0) {
		fprintf(stderr, "sweep: exit %d\n%s%s\n", through.exit_code, through.out,
			through.err);
		CU_FAIL("the sweep child failed");
		fclose(list);
		return;
	}
	while (fgets(line, sizeof line, list)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		names++;
		snprintf(key, sizeof key, "call.%s", line);
		if (ts_number(&through, key) == CUPTI_ERROR_NOT_INITIALIZED)
			refused++;
		else
			fprintf(stderr, "  %s: %s\n", key, ts_value(&through, key));
	}
	fclose(list);
	CU_ASSERT_EQUAL(ts_number(&through, "called"), names);
	CU_ASSERT_EQUAL(refused, names);
	printf("  %ld exports called with no library: %ld returned %d\n", names, refused,
	       (int)CUPTI_ERROR_NOT_INITIALIZED);
}

static void register_suites(void)
{
	CU_pSuite s = CU_add_suite("CUPTI through its stub, real libraries", NULL, NULL);

	CU_add_test(s, "versions, strings, callbacks as directly, the right release", test_real);
	CU_add_test(s, "no library: CUPTI_ERROR_NOT_INITIALIZED, names, no crash", test_no_library);
	CU_add_test(s, "the 12.4- and 11.8-ABI stubs on every release", test_other_abis);
	CU_add_test(s, "every export, no library: the code, no crash", test_sweep);
}

int main(int argc, char **argv)
{
	static const struct ts_scenario scenarios[] = {
		{"calls", calls_child}, {"sweep", sweep_child}, {NULL, NULL}};

	return ts_main(argc, argv, scenarios, register_suites);
}

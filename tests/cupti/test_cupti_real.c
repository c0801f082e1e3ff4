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
#include "ts_real.h"

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
	void *lib = ts_real_open("CP_OPEN");
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
	CUpti_SubscriberHandle subscriber = UNTOUCHED;
	uint32_t version = 7;
	uint64_t now = 7;

	if (!lib)
		return 3;
	*(void **)&get_version = ts_real_symbol(lib, "cuptiGetVersion");
	*(void **)&result_string = ts_real_symbol(lib, "cuptiGetResultString");
	*(void **)&subscribe = ts_real_symbol(lib, "cuptiSubscribe");
	*(void **)&enable_callback = ts_real_symbol(lib, "cuptiEnableCallback");
	*(void **)&enable_domain = ts_real_symbol(lib, "cuptiEnableDomain");
	*(void **)&unsubscribe = ts_real_symbol(lib, "cuptiUnsubscribe");
	*(void **)&activity_enable = ts_real_symbol(lib, "cuptiActivityEnable");
	*(void **)&timestamp = ts_real_symbol(lib, "cuptiGetTimestamp");
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

	ts_real_print_info(lib, "cudastub_cupti_info");
	fflush(stdout);
	return 0;
}

/* ---- parent ---- */

/* A release, and what its cuptiGetVersion answers. */
static const struct {
	struct ts_real_release at;
	unsigned api;
} releases[] = {
	{{"13.0", 13, NULL, "libcupti.so.13"}, 130001},
	{{"12.4", 12, "cupti-12.4", "libcupti.so.12"}, 22},
	{{"11.8", 11, "cupti-11.8", "libcupti.so.11.8"}, 18},
};
#define RELEASES (sizeof releases / sizeof *releases)

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
		const struct ts_real_release *r = &releases[i].at;
		char path[PATH_MAX], key[32];
		const char *real = ts_real_library(r, path, sizeof path);
		size_t messages = 0;

		if (!real ||
		    ts_real_both("calls", "CP_OPEN", "CUDASTUB_CUPTI_PATH", stub, real, NULL))
			continue;
		CU_ASSERT_EQUAL(ts_number(&ts_direct, "version_rc"), CUPTI_SUCCESS);
		CU_ASSERT_EQUAL(ts_number(&ts_direct, "version"), releases[i].api);
		for (size_t k = 0; k < sizeof same / sizeof *same; k++)
			TS_REAL_SAME(same[k]);
		for (size_t k = 0; k < CODES; k++) {
			const char *got;

			snprintf(key, sizeof key, "string_%d", codes[k]);
			TS_REAL_SAME(key);
			/* cuptiGetErrorMessage came with 12.x: a stub of 12.x's
			 * headers or later has it, and refuses it on 11.8 */
			snprintf(key, sizeof key, "message_%d", codes[k]);
			got = ts_value(&ts_through, key);
			CU_ASSERT_EQUAL(!got, abi < 12);
			if (ts_value(&ts_direct, key)) {
				CU_ASSERT_EQUAL(r->major >= 12, 1);
				if (got)
					TS_REAL_SAME(key);
				messages++;
			} else if (got) {
				/* a release without it: the stub names the code
				 * from its headers, as with no library (where the
				 * release names it too, alike) */
				const char *named = ts_value(&ts_direct, name_key(codes[k]));

				if (!strncmp(got, "0:", 2) && !strncmp(named, "0:", 2)) {
					CU_ASSERT_STRING_EQUAL(got, named);
				} else if (!strncmp(got, "0:", 2)) {
					CU_ASSERT_EQUAL(strncmp(got, "0:CUPTI_", 8), 0);
				} else {
					CU_ASSERT_STRING_EQUAL(got, "15:unrecognized status code");
				}
			}
		}
		CU_ASSERT_EQUAL(messages, r->major >= 12 ? CODES : 0);
		CU_ASSERT_EQUAL(ts_number(&ts_through, "state"), CUDASTUB_STATE_LOADED);
		CU_ASSERT_EQUAL(ts_number(&ts_through, "major"), r->major);
		printf("  %d ABI, %s: API version %ld, CUDA %ld; %zu result strings, %zu "
		       "messages; cuptiSubscribe %ld, cuptiActivityEnable %ld both ways\n",
		       abi, r->name, ts_number(&ts_direct, "version"),
		       ts_number(&ts_through, "major"), CODES, messages,
		       ts_number(&ts_direct, "subscribe_rc"),
		       ts_number(&ts_direct, "activity_enable_rc"));
	}
}

static void test_real(void)
{
	answers_through(CP_STUB, 13);
}

TS_TEST(test_real, "versions, strings, callbacks as directly, the right release");

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
		CU_ASSERT_EQUAL(ts_number(&ts_through, refused[k]), CUPTI_ERROR_NOT_INITIALIZED);
	CU_ASSERT_STRING_EQUAL(ts_value(&ts_through, "version"), "0");
	CU_ASSERT_STRING_EQUAL(ts_value(&ts_through, "subscriber_untouched"), "1");
	CU_ASSERT_STRING_EQUAL(ts_value(&ts_through, "string_0"), "0:CUPTI_SUCCESS");
	CU_ASSERT_STRING_EQUAL(ts_value(&ts_through, "string_15"), "0:CUPTI_ERROR_NOT_INITIALIZED");
	CU_ASSERT_STRING_EQUAL(ts_value(&ts_through, "string_999"), "0:CUPTI_ERROR_UNKNOWN");
	CU_ASSERT_STRING_EQUAL(ts_value(&ts_through, "string_47"), "15:unrecognized status code");
	CU_ASSERT_STRING_EQUAL(ts_value(&ts_through, "message_27"), "0:CUPTI_ERROR_NOT_SUPPORTED");
	/* the "no library" code's message says what failed and what to set */
	message = ts_value(&ts_through, "message_15");
	CU_ASSERT_PTR_NOT_NULL_FATAL(message);
	CU_ASSERT_EQUAL(strncmp(message, "0:", 2), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(message, why));
	CU_ASSERT_EQUAL(ts_number(&ts_through, "state"), state);
	CU_ASSERT_PTR_NOT_NULL(strstr(ts_value(&ts_through, "error"), error));
}

static void test_no_library(void)
{
	const char *env[] = {"CUDASTUB_CUPTI_PATH=/nonexistent/cudastub-no-cupti", NULL};
	/* 11.8's SONAME is on no path of this process: the search finds none */
	const char *nothing[] = {"CUDASTUB_CUPTI_MAJOR=11", "LD_LIBRARY_PATH=", NULL};

	if (ts_real_run("calls", "CP_OPEN", CP_STUB, env, &ts_through) == 0)
		expect_no_library(CUDASTUB_STATE_OVERRIDE_FAILED,
				  "CUDASTUB_CUPTI_PATH=", "CUDASTUB_CUPTI_PATH=");
	if (ts_real_run("calls", "CP_OPEN", CP_STUB, nothing, &ts_through) == 0)
		expect_no_library(CUDASTUB_STATE_NOT_FOUND, "no usable libcupti",
				  "(CUDASTUB_CUPTI_MAJOR=11)");
}

TS_TEST(test_no_library, "no library: CUPTI_ERROR_NOT_INITIALIZED, names, no crash");

/* The stubs of the 12 and 11 ABIs, on every release. */
static void test_other_abis(void)
{
	ts_real_other_abis(CP_STUB_12, CP_STUB_11, answers_through,
			   "the 12.4 and 11.8 headers and CUPTI fixtures");
}

TS_TEST(test_other_abis, "the 12.4- and 11.8-ABI stubs on every release");

/* The sweep: every export, no library, the documented code, no crash. */
static void test_cupti_sweep(void)
{
	ts_real_sweep(CP_STUB, CP_SYMBOLS, "CUDASTUB_CUPTI_PATH", CUPTI_ERROR_NOT_INITIALIZED);
}

TS_TEST(test_cupti_sweep, "every export, no library: the code, no crash");

TS_REAL_MAIN("CUPTI through its stub, real libraries", calls_child)

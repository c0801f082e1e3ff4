/*
 * File names reach the JSON report through CUDASTUB_NVRTC_PATH, the tried
 * list and the error text. A name with quotes, backslashes, control
 * characters or bytes that are not UTF-8 must still give valid JSON, and a
 * valid name must come back unchanged.
 */
#include <string.h>

#include "cli_run.h"
#include "cli_suites.h"

static struct ts_child out;

/* Runs info --json with CUDASTUB_NVRTC_PATH=path; returns the nvrtc entry's
 * first tried path (decoded), checking the entry says the override failed. */
static struct jv *run_with_override(const char *path, const char **tried_path)
{
	char env_entry[512];
	const char *env[] = {env_entry, NULL};
	const struct jv *l, *tried;
	struct jv *doc;

	*tried_path = NULL;
	snprintf(env_entry, sizeof env_entry, "CUDASTUB_NVRTC_PATH=%s", path);
	doc = cli_info_json(env, &out);
	l = jv_library(doc, "nvrtc");
	CU_ASSERT_PTR_NOT_NULL_FATAL(l);
	CU_ASSERT_STRING_EQUAL(jv_str(l, "state"), "override failed");
	CU_ASSERT(jv_is_null(l, "path"));
	tried = jv_get(l, "tried");
	CU_ASSERT_FATAL(tried && tried->type == JV_ARRAY && tried->count == 1);
	*tried_path = jv_str(tried->items[0], "path");
	CU_ASSERT_PTR_NOT_NULL(*tried_path);
	return doc;
}

/* JSON text may hold no control character but the line breaks. */
static int no_raw_controls(const char *text)
{
	for (const unsigned char *p = (const unsigned char *)text; *p; p++)
		if ((*p < 0x20 && *p != '\n') || *p == 0x7f)
			return 0;
	return 1;
}

static void test_quotes_backslashes_controls(void)
{
	static const char path[] =
		"/nonexistent/say \"hi\" C:\\dir\ttab\x01\x1f\x7f/libnvrtc.so.13";
	const char *tried_path, *error;
	struct jv *doc = run_with_override(path, &tried_path);

	CU_ASSERT_STRING_EQUAL(tried_path, path);
	/* the tried path is data, exact; the error is a message, escaped */
	error = jv_str(jv_library(doc, "nvrtc"), "error");
	CU_ASSERT(error && strstr(error, "/nonexistent/say \"hi\" C:\\\\dir\\x09tab\\x01\\x1f"
					 "\\x7f/libnvrtc.so.13"));
	CU_ASSERT(error && !strchr(error, '\t'));
	/* the escapes themselves, as RFC 8259 spells them */
	CU_ASSERT_PTR_NOT_NULL(
		strstr(out.out, "say \\\"hi\\\" C:\\\\dir\\ttab\\u0001\\u001f\\u007f/libnvrtc"));
	CU_ASSERT(no_raw_controls(out.out));
	jv_free(doc);
}

static void test_utf8(void)
{
	static const char path[] = "/nonexistent/caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80/x.so";
	const char *tried_path;
	struct jv *doc = run_with_override(path, &tried_path);

	CU_ASSERT_STRING_EQUAL(tried_path, path);
	jv_free(doc);
}

static void test_invalid_utf8(void)
{
	/* a stray continuation byte, 0xff, an overlong '/', a surrogate */
	static const char path[] = "/nonexistent/a\x80z\xffz\xc0\xafz\xed\xa0\x80z/x.so";
	static const char fffd[] = "\xef\xbf\xbd";
	char expected[256];
	const char *tried_path;
	struct jv *doc = run_with_override(path, &tried_path);

	snprintf(expected, sizeof expected, "/nonexistent/a%sz%sz%s%sz%s%s%sz/x.so", fffd, fffd,
		 fffd, fffd, fffd, fffd, fffd);
	CU_ASSERT_STRING_EQUAL(tried_path, expected);
	jv_free(doc);
}

static void test_text_is_sanitised(void)
{
	static const char *const args[] = {"info", NULL};
	const char *env[] = {"CUDASTUB_NVRTC_PATH=/nonexistent/\x1b[2Jbell\x07/x.so", NULL};

	CU_ASSERT_EQUAL_FATAL(cli_run(E2E_CLI, args, env, &out), 0);
	CU_ASSERT_EQUAL(out.exit_code, 0);
	CU_ASSERT_TRUE(cli_text_row_has(out.out, "nvrtc", "override failed", ""));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "/nonexistent/?[2Jbell?/x.so"));
	CU_ASSERT_PTR_NULL(strchr(out.out, '\x1b'));
}

void register_cli_escaping(void)
{
	CU_pSuite s = CU_add_suite("cli_escaping", NULL, NULL);

	CU_add_test(s, "quotes, backslashes, controls: valid JSON, exact round trip",
		    test_quotes_backslashes_controls);
	CU_add_test(s, "UTF-8 file names pass through unchanged", test_utf8);
	CU_add_test(s, "bytes that are not UTF-8 become U+FFFD, JSON stays valid",
		    test_invalid_utf8);
	CU_add_test(s, "the text report prints no control characters", test_text_is_sanitised);
}

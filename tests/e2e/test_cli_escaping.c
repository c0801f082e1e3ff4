/*
 * File names reach the reports through an override (CUDASTUB_<LIB>_PATH),
 * the tried list and the error text. Whatever bytes a name holds (quotes,
 * backslashes, C0 and C1 controls, DEL, bytes that are not UTF-8), the
 * text report and the CUDASTUB_DEBUG lines must hold none of them raw, the
 * JSON report must stay valid JSON, and both must show the name in the
 * one escaped form (stubs/loader/platform/loader_escape.h: \xNN, \\), which a JSON
 * reader gets back exactly. Valid UTF-8 names pass unchanged.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_run.h"
#include "cli_suites.h"
#include "ts_files.h"
#include "ts_utf8.h"

static struct ts_child out, strings;

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

/* Whether text, a whole output, is valid UTF-8 holding no raw control but
 * its line breaks; prints where it is not. */
static int clean_output(const char *what, const char *text)
{
	for (const unsigned char *p = (const unsigned char *)text; *p;) {
		size_t len = ts_clean_character(p, 1);

		if (!len) {
			fprintf(stderr, "%s: raw byte %02x at %zu: ...%.40s\n", what, *p,
				(size_t)(p - (const unsigned char *)text),
				(const char *)p - ((const char *)p - text > 40 ? 40 : 0));
			return 0;
		}
		p += len;
	}
	return 1;
}

/* Whether one line of lines (text split at '\n') is exactly want. */
static int has_line(const char *lines, const char *want)
{
	size_t len = strlen(want);

	for (const char *line = lines; line && *line; line = strchr(line, '\n')) {
		line += *line == '\n';
		if (!strncmp(line, want, len) && (line[len] == '\n' || !line[len]))
			return 1;
	}
	return 0;
}

static void test_quotes_backslashes_controls(void)
{
	static const char path[] =
		"/nonexistent/say \"hi\" C:\\dir\ttab\x01\x1f\x7f/libnvrtc.so.13";
	static const char shown[] =
		"/nonexistent/say \"hi\" C:\\\\dir\\x09tab\\x01\\x1f\\x7f/libnvrtc.so.13";
	const char *tried_path, *error;
	struct jv *doc = run_with_override(path, &tried_path);

	/* the tried path and the error show the name the same way */
	CU_ASSERT_STRING_EQUAL(tried_path, shown);
	error = jv_str(jv_library(doc, "nvrtc"), "error");
	CU_ASSERT(error && strstr(error, shown));
	/* JSON quotes the escapes' backslashes and the quotes, nothing else */
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out,
				      "say \\\"hi\\\" C:\\\\\\\\dir\\\\x09tab\\\\x01\\\\x1f"
				      "\\\\x7f/libnvrtc"));
	CU_ASSERT(clean_output("info --json", out.out));
	jv_free(doc);
}

static void test_utf8(void)
{
	static const char path[] = "/nonexistent/caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 "
				   "m\xc3\xbcller \xe6\x97\xa5\xe6\x9c\xac/x.so";
	const char *tried_path;
	struct jv *doc = run_with_override(path, &tried_path);

	CU_ASSERT_STRING_EQUAL(tried_path, path);
	jv_free(doc);
}

static void test_invalid_utf8(void)
{
	/* a stray continuation byte, 0xff, an overlong '/', a surrogate */
	static const char path[] = "/nonexistent/a\x80z\xffz\xc0\xafz\xed\xa0\x80z/x.so";
	const char *tried_path;
	struct jv *doc = run_with_override(path, &tried_path);

	CU_ASSERT_STRING_EQUAL(tried_path,
			       "/nonexistent/a\\x80z\\xffz\\xc0\\xafz\\xed\\xa0\\x80z/x.so");
	CU_ASSERT(clean_output("info --json", out.out));
	jv_free(doc);
}

static void test_text_is_escaped(void)
{
	static const char *const args[] = {"info", NULL};
	const char *env[] = {"CUDASTUB_NVRTC_PATH=/nonexistent/\x1b[2Jbell\x07/x.so", NULL};

	CU_ASSERT_EQUAL_FATAL(cli_run(E2E_CLI, args, env, &out), 0);
	CU_ASSERT_EQUAL(out.exit_code, 0);
	CU_ASSERT_TRUE(cli_text_row_has(out.out, "nvrtc", "override failed", ""));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "/nonexistent/\\x1b[2Jbell\\x07/x.so"));
	CU_ASSERT(clean_output("info", out.out));
}

/* The name of the report: two C1 controls (U+009B CSI, U+0085 NEL),
 * a byte that is never UTF-8, a line break and a backslash, in a folder. */
static const char odd_folder[] = "a\xc2\x9b"
				 "b\xc2\x85"
				 "c\xff"
				 "d\ne\\f";
static const char odd_folder_shown[] = "a\\xc2\\x9bb\\xc2\\x85c\\xffd\\x0ae\\\\f";

/* Runs info, as text with CUDASTUB_DEBUG=1 and as JSON, with
 * CUDASTUB_CUDART_PATH=<dir>/<odd folder>/libcudart.so.13, and checks
 * both for raw bytes and for the escaped name. In JSON the cudart entry
 * must say state, and its path (null unless loaded) and first tried path
 * must read back, through Python's json module too, as the escaped name. */
static void check_odd_override(const char *dir, const char *state, int loaded)
{
	static const char *const text_args[] = {"info", NULL};
	char file[4400], shown[4400], env_entry[4500];
	const char *env[] = {env_entry, "CUDASTUB_DEBUG=1", NULL};
	const struct jv *l, *tried;
	struct jv *doc;

	snprintf(file, sizeof file, "%s/%s/libcudart.so.13", dir, odd_folder);
	snprintf(shown, sizeof shown, "%s/%s/libcudart.so.13", dir, odd_folder_shown);
	snprintf(env_entry, sizeof env_entry, "CUDASTUB_CUDART_PATH=%s", file);

	CU_ASSERT_EQUAL_FATAL(cli_run(E2E_CLI, text_args, env, &out), 0);
	CU_ASSERT_EQUAL(out.exit_code, 0);
	CU_ASSERT_TRUE(cli_text_row_has(out.out, "cudart", state, ""));
	CU_ASSERT(clean_output("info", out.out));
	CU_ASSERT(clean_output("info's CUDASTUB_DEBUG lines", out.err));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, shown));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.err, shown));
	/* and escaped once: the summary's line too */
	CU_ASSERT_PTR_NULL(strstr(out.err, "\\\\xc2"));
	if (loaded) /* the table's PATH column, where C1 once went raw */
		CU_ASSERT_TRUE(cli_text_row_has(out.out, "cudart", state, shown));

	doc = cli_info_json(env, &out); /* asserts json.tool accepts it */
	CU_ASSERT(clean_output("info --json", out.out));
	l = jv_library(doc, "cudart");
	CU_ASSERT_PTR_NOT_NULL_FATAL(l);
	CU_ASSERT_STRING_EQUAL(jv_str(l, "state"), state);
	if (loaded)
		CU_ASSERT_STRING_EQUAL(jv_str(l, "path"), shown);
	tried = jv_get(l, "tried");
	CU_ASSERT_FATAL(tried && tried->type == JV_ARRAY && tried->count >= 1);
	CU_ASSERT_STRING_EQUAL(jv_str(tried->items[0], "path"), shown);
	jv_free(doc);
	/* an outside reader gets the same text back */
	CU_ASSERT_EQUAL_FATAL(e2e_json_strings(out.out, &strings), 0);
	CU_ASSERT_TRUE(has_line(strings.out, shown));
}

static void test_c1_and_invalid_bytes_not_found(void)
{
	check_odd_override("/nonexistent", "override failed", 0);
}

static void test_c1_and_invalid_bytes_loaded(void)
{
	const char *real =
		ts_present("/usr/local/cuda/lib64/libcudart.so.13", "install the CUDA 13 toolkit");
	char dir[4096], folder[4200], file[4300];

	if (!real)
		return;
	if (!ts_tmpdir("cli-escape", dir, sizeof dir)) {
		CU_FAIL("no temporary folder");
		return;
	}
	snprintf(folder, sizeof folder, "%s/%s", dir, odd_folder);
	snprintf(file, sizeof file, "%s/libcudart.so.13", folder);
	CU_ASSERT_EQUAL_FATAL(mkdir(folder, 0755), 0);
	CU_ASSERT_EQUAL_FATAL(ts_copy_file(real, file), 0);
	check_odd_override(dir, "loaded", 1);
	ts_remove_tree(dir);
}

/* Runs the command with args and no environment change; asserts it ran
 * and exited status, and that it printed nothing raw. */
static void run_clean(const char *const *args, int status)
{
	CU_ASSERT_EQUAL_FATAL(cli_run(E2E_CLI, args, NULL, &out), 0);
	CU_ASSERT_EQUAL(out.exit_code, status);
	CU_ASSERT(clean_output(args[0], out.out));
	CU_ASSERT(clean_output(args[0], out.err));
}

/* Usage errors name the argument they refuse, escaped. */
static void test_arguments_escaped(void)
{
	static const char *const command[] = {"\xc2\x9b"
					      "2J\n",
					      NULL};
	static const char *const info[] = {"info", "--\xff\xc2\x85", NULL};
	static const char *const patch[] = {"patch", "--\x1b[2J", NULL};

	run_clean(command, 2); /* a usage error */
	CU_ASSERT_PTR_NOT_NULL(strstr(out.err, "unknown command '\\xc2\\x9b2J\\x0a'"));
	run_clean(info, 2); /* a usage error */
	CU_ASSERT_PTR_NOT_NULL(strstr(out.err, "unknown argument '--\\xff\\xc2\\x85'"));
	run_clean(patch, 2); /* a usage error */
	CU_ASSERT_PTR_NOT_NULL(strstr(out.err, "unknown option '--\\x1b[2J'"));
}

/* Runs patchelf with args (NULL-terminated, after the program); 0 when it
 * succeeded. */
static int patchelf(const char *patchelf_path, const char *a, const char *b, const char *c)
{
	char *argv[] = {(char *)patchelf_path, (char *)a, (char *)b, (char *)c, NULL};
	struct ts_child *tool = malloc(sizeof *tool);
	int ok = tool && ts_run_program(argv, NULL, NULL, tool) == 0 && tool->exit_code == 0;

	free(tool);
	return ok ? 0 : -1;
}

/* cudastub patch names files, the entries patchelf reads from them and
 * their RUNPATH: each escaped, whatever bytes the folder and the RUNPATH
 * hold. --dry-run, so nothing changes. */
static void test_patch_messages_escaped(void)
{
	const char *patchelf_path = ts_present("/usr/bin/patchelf", "apt-get install patchelf");
	char dir[4096], folder[4200], prog[4300], text[4300], missing[4300], want[9000];
	const char *args[] = {"patch", "--dry-run", prog, NULL};
	FILE *f;

	if (!patchelf_path)
		return;
	if (!ts_tmpdir("cli-escape", dir, sizeof dir)) {
		CU_FAIL("no temporary folder");
		return;
	}
	snprintf(folder, sizeof folder, "%s/%s", dir, odd_folder);
	CU_ASSERT_EQUAL_FATAL(mkdir(folder, 0755), 0);
	/* a program that needs the runtime of the build's ABI, with an odd
	 * RUNPATH */
	snprintf(prog, sizeof prog, "%s/prog", folder);
	CU_ASSERT_EQUAL_FATAL(ts_copy_file("/usr/bin/true", prog), 0);
	CU_ASSERT_EQUAL_FATAL(patchelf(patchelf_path, "--add-needed", E2E_CUDART_SONAME, prog), 0);
	CU_ASSERT_EQUAL_FATAL(patchelf(patchelf_path, "--set-rpath", "/opt/r\xc2\x9bp\xff", prog),
			      0);
	run_clean(args, 0);
	snprintf(want, sizeof want,
		 "would patch %s/%s/prog: " E2E_CUDART_SONAME " -> " E2E_CUDART_STUB_NAME
		 "; RUNPATH "
		 "$ORIGIN:/opt/r\\xc2\\x9bp\\xff;",
		 dir, odd_folder_shown);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, want));
	/* a file that is not ELF, named */
	snprintf(text, sizeof text, "%s/notes.txt", folder);
	f = fopen(text, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("not a program\n", f);
	fclose(f);
	args[2] = text;
	run_clean(args, 0);
	snprintf(want, sizeof want,
		 "%s/%s/notes.txt: not an ELF executable or shared library; left alone", dir,
		 odd_folder_shown);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, want));
	/* a file that is not there */
	snprintf(missing, sizeof missing, "%s/missing", folder);
	args[2] = missing;
	run_clean(args, 1);
	snprintf(want, sizeof want, "cudastub patch: %s/%s/missing: ", dir, odd_folder_shown);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.err, want));
	ts_remove_tree(dir);
}

void register_cli_escaping(void)
{
	CU_pSuite s = CU_add_suite("cli_escaping", NULL, NULL);

	CU_add_test(s, "quotes, backslashes, controls: valid JSON, the escaped name",
		    test_quotes_backslashes_controls);
	CU_add_test(s, "UTF-8 file names pass through unchanged", test_utf8);
	CU_add_test(s, "bytes that are not UTF-8 become \\xNN, JSON stays valid",
		    test_invalid_utf8);
	CU_add_test(s, "the text report prints no control characters", test_text_is_escaped);
	CU_add_test(s, "C1, 0xff, a line break in a missing override: text, debug, JSON",
		    test_c1_and_invalid_bytes_not_found);
	CU_add_test(s, "C1, 0xff, a line break in the path loaded: text, debug, JSON",
		    test_c1_and_invalid_bytes_loaded);
	CU_add_test(s, "usage errors escape the argument they name", test_arguments_escaped);
	CU_add_test(s, "patch escapes file names, needed entries and RUNPATHs",
		    test_patch_messages_escaped);
}

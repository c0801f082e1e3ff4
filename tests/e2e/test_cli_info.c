/*
 * cudastub info, JSON and text, with the library found (an override to the
 * toolkit's real libnvrtc.so.13) and with nothing found (a pin to CUDA 11,
 * which these machines do not have).
 */
#include <string.h>

#include "cli_run.h"
#include "cudastub/cudastub.h"
#include "cli_suites.h"
#include "ts_driver.h"
#include "ts_files.h"

static struct ts_child out;

static const char *const pin_11[] = {"CUDASTUB_NVRTC_MAJOR=11", NULL};

static int is_state_name(const char *s)
{
	static const char *const names[] = {"loaded", "not found", "override failed", "not tried",
					    "not linked"};

	for (size_t i = 0; s && i < sizeof names / sizeof *names; i++)
		if (!strcmp(s, names[i]))
			return 1;
	return 0;
}

/* Every entry has every key, with the right type; one entry a library
 * (E2E_LIBRARY_COUNT: the generated list's, its numbers' holes left out),
 * in cudastub_lib order (cudart, nvrtc, cuda, then the others). */
static void check_shape(const struct jv *doc)
{
	static const char *const names[] = {"cudart", "nvrtc", "cuda"};
	static const char *const numbers[] = {"major",	   "minor",	    "abi_major",
					      "abi_minor", "tried_dropped", "dlopen_calls"};
	const struct jv *libs = jv_get(doc, "libraries");

	CU_ASSERT_STRING_EQUAL(jv_str(doc, "cudastub_version"), E2E_PROJECT_VERSION);
	CU_ASSERT_FATAL(libs && libs->type == JV_ARRAY && libs->count == E2E_LIBRARY_COUNT);
	for (size_t i = 0; i < libs->count; i++) {
		const struct jv *l = libs->items[i];

		if (i < sizeof names / sizeof *names)
			CU_ASSERT_STRING_EQUAL(jv_str(l, "name"), names[i]);
		CU_ASSERT(is_state_name(jv_str(l, "state")));
		CU_ASSERT_PTR_NOT_NULL(jv_str(l, "source"));
		for (size_t k = 0; k < sizeof numbers / sizeof *numbers; k++)
			CU_ASSERT(jv_num(l, numbers[k], -1) >= 0);
		CU_ASSERT(jv_str(l, "path") || jv_is_null(l, "path"));
		CU_ASSERT(jv_str(l, "error") || jv_is_null(l, "error"));
		CU_ASSERT(jv_get(l, "tried") && jv_get(l, "tried")->type == JV_ARRAY);
		CU_ASSERT_PTR_NOT_NULL(jv_str(l, "reason"));
		CU_ASSERT(jv_str(l, "driver_missing") || jv_is_null(l, "driver_missing"));
		CU_ASSERT(jv_str(l, "stub_path") || jv_is_null(l, "stub_path"));
	}
}

static void test_json_loaded(void)
{
	const char *nvrtc = cli_real_nvrtc();
	char override[4200];
	const char *env[] = {override, NULL};
	const struct jv *l, *tried, *first;
	struct jv *doc;

	if (!nvrtc)
		return;
	snprintf(override, sizeof override, "CUDASTUB_NVRTC_PATH=%s", nvrtc);
	doc = cli_info_json(env, &out);
	check_shape(doc);
	CU_ASSERT_PTR_NOT_NULL(strstr(cli_raw_entry(out.out, "nvrtc"), "\"state\": \"loaded\""));
	l = jv_library(doc, "nvrtc");
	CU_ASSERT_PTR_NOT_NULL_FATAL(l);
	CU_ASSERT_STRING_EQUAL(jv_str(l, "state"), "loaded");
	CU_ASSERT_EQUAL(jv_num(l, "major", -1), 13);
	CU_ASSERT_STRING_EQUAL(jv_str(l, "source"), "override");
	CU_ASSERT_STRING_EQUAL(jv_str(l, "path"), nvrtc);
	CU_ASSERT_EQUAL(jv_num(l, "abi_major", -1), E2E_ABI_MAJOR);
	CU_ASSERT_EQUAL(jv_num(l, "abi_minor", -1), E2E_ABI_MINOR);
	CU_ASSERT(jv_is_null(l, "error"));
	CU_ASSERT(jv_num(l, "dlopen_calls", -1) >= 1);
	/* the override chose: the reason says so, and the driver was not asked */
	CU_ASSERT_STRING_EQUAL(jv_str(l, "reason"), "override");
	CU_ASSERT(jv_is_null(l, "driver_missing"));
	CU_ASSERT_PTR_NOT_NULL(jv_str(l, "stub_path")
				       ? strstr(jv_str(l, "stub_path"), "/libnvrtc_stub_cu13-")
				       : NULL);
	/* the override comes first; companions it loads may follow */
	tried = jv_get(l, "tried");
	CU_ASSERT_FATAL(tried && tried->type == JV_ARRAY && tried->count >= 1);
	first = tried->items[0];
	CU_ASSERT_STRING_EQUAL(jv_str(first, "source"), "override");
	CU_ASSERT_STRING_EQUAL(jv_str(first, "path"), nvrtc);
	CU_ASSERT_NSTRING_EQUAL(jv_str(first, "outcome"), "loaded", 6);
	jv_free(doc);
}

static void test_json_not_found(void)
{
	const struct jv *l, *tried;
	struct jv *doc = cli_info_json(pin_11, &out);
	int standard_prefix = 0;

	check_shape(doc);
	l = jv_library(doc, "nvrtc");
	CU_ASSERT_PTR_NOT_NULL_FATAL(l);
	if (jv_num(l, "major", 0) == 11 && !ts_in_ci()) {
		fprintf(stderr, "SKIP: this machine has a CUDA 11 libnvrtc (%s)\n",
			jv_str(l, "path"));
		jv_free(doc);
		return;
	}
	CU_ASSERT_PTR_NOT_NULL(strstr(cli_raw_entry(out.out, "nvrtc"), "\"state\": \"not found\""));
	CU_ASSERT_STRING_EQUAL(jv_str(l, "state"), "not found");
	CU_ASSERT(jv_is_null(l, "path"));
	CU_ASSERT_EQUAL(jv_num(l, "major", -1), 0);
	CU_ASSERT_STRING_EQUAL(jv_str(l, "source"), "none");
	CU_ASSERT(jv_str(l, "error") && *jv_str(l, "error"));
	tried = jv_get(l, "tried");
	CU_ASSERT_FATAL(tried && tried->count > 0);
	for (size_t i = 0; i < tried->count; i++) {
		const char *path = jv_str(tried->items[i], "path");

		/* step 3's one line when it found no wheel folder at all */
		if (path && path[0] == '(' &&
		    strstr(jv_str(tried->items[i], "outcome"), "no nvidia/"))
			continue;
		CU_ASSERT(path && strstr(path, "libnvrtc.so.11.2"));
		CU_ASSERT_EQUAL(jv_num(tried->items[i], "major", -1), 11);
		CU_ASSERT_PTR_NOT_NULL(jv_str(tried->items[i], "outcome"));
		standard_prefix |= path && !strcmp(path, "/usr/local/cuda/lib64/libnvrtc.so.11.2");
	}
	CU_ASSERT(standard_prefix);
	jv_free(doc);
}

static void test_text_loaded(void)
{
	static const char *const args[] = {"info", NULL};
	const char *const *env = cli_real_nvrtc_env();

	if (!env)
		return;
	CU_ASSERT_EQUAL_FATAL(cli_run(E2E_CLI, args, env, &out), 0);
	CU_ASSERT_EQUAL(out.exit_code, 0);
	CU_ASSERT_TRUE(cli_text_row_has(out.out, "LIBRARY", "STATE", "VERSION"));
	/* the row, whatever width the other rows give the columns */
	CU_ASSERT_TRUE(cli_text_row_has(out.out, "nvrtc", "loaded", "13."));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "override"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, E2E_REAL_NVRTC));
	CU_ASSERT_PTR_NULL(strstr(out.out, "Set CUDASTUB_NVRTC_PATH"));
	/* the one reason that applied, not a list of possible ones */
	CU_ASSERT_PTR_NOT_NULL(strstr(
		out.out,
		"\n  release: no preference: the override CUDASTUB_NVRTC_PATH chose the file\n"));
	CU_ASSERT_PTR_NULL(strstr(out.out, "or a pin or an override chose"));
}

static void test_text_not_found(void)
{
	static const char *const args[] = {"info", NULL};

	CU_ASSERT_EQUAL_FATAL(cli_run(E2E_CLI, args, pin_11, &out), 0);
	CU_ASSERT_EQUAL(out.exit_code, 0);
	if (cli_text_row_has(out.out, "nvrtc", "loaded", "") && !ts_in_ci())
		return; /* a CUDA 11 libnvrtc here: test_json_not_found said SKIP */
	CU_ASSERT_TRUE(cli_text_row_has(out.out, "nvrtc", "not found", ""));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "nvrtc: not found: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "/usr/local/cuda/lib64/libnvrtc.so.11.2"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "Set CUDASTUB_NVRTC_PATH"));
	CU_ASSERT_STRING_EQUAL(out.err, "");
	CU_ASSERT_PTR_NOT_NULL(strstr(
		out.out,
		"\n  release: no preference: the pin CUDASTUB_NVRTC_MAJOR chose the major\n"));
}

/* No driver answered: the reason says so, and a line says why the driver
 * is missing. Here NVIDIA's link-time stub stands first on the path as
 * libcuda.so.1, so this holds on a machine with a driver too; it answers
 * cuDriverGetVersion with CUDA_ERROR_STUB_LIBRARY (34). */
static void test_driver_missing_code(void)
{
	static const char *const json[] = {"info", "cudart", "--json", NULL};
	static const char *const text[] = {"info", "cudart", NULL};
	const char *link_stub = ts_link_stub_libcuda();
	char dir[4096], copy[4200], path[4300];
	const char *env[] = {path, NULL};
	const struct jv *l;
	struct jv *doc;

	if (!link_stub || !ts_tmpdir("info-driver", dir, sizeof dir))
		return;
	snprintf(copy, sizeof copy, "%s/libcuda.so.1", dir);
	CU_ASSERT_EQUAL_FATAL(ts_copy_file(link_stub, copy), 0);
	snprintf(path, sizeof path, "LD_LIBRARY_PATH=%s", dir);
	doc = cli_json_run(E2E_CLI, json, env, CLI_EXIT_FOUND_OR_NOT, &out);
	l = jv_library(doc, "cudart");
	CU_ASSERT_PTR_NOT_NULL_FATAL(l);
	CU_ASSERT_STRING_EQUAL(jv_str(l, "reason"), "nothing answered");
	CU_ASSERT_EQUAL(jv_num(l, "driver_version", -1), 0);
	CU_ASSERT_PTR_NOT_NULL(
		jv_str(l, "driver_missing")
			? strstr(jv_str(l, "driver_missing"),
				 "libcuda.so.1: cuDriverGetVersion failed with code 34")
			: NULL);
	jv_free(doc);
	CU_ASSERT_EQUAL_FATAL(cli_run(E2E_CLI, text, env, &out), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "\n  release: no preference: no CUDA library in "
					       "the process and no driver answered"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "\n  driver: none: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "cuDriverGetVersion failed with code 34\n"));
	ts_remove_tree(dir);
}

/* On a machine without a driver: no libcuda.so.1 where the search looked. */
static void test_driver_missing_none(void)
{
	static const char *const text[] = {"info", "cudart", NULL};

	if (ts_machine_has_driver()) {
		ts_unavailable("this machine has a driver (libcuda.so.1); the no-driver line "
			       "needs a machine without one");
		return;
	}
	CU_ASSERT_EQUAL_FATAL(cli_run(E2E_CLI, text, NULL, &out), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "\n  driver: none: no libcuda.so.1 in the "
					       "process, nor a sound one where the loader looks"));
}

void register_cli_info(void)
{
	CU_pSuite s = CU_add_suite("cli_info", NULL, NULL);

	CU_add_test(s, "info --json, library found: loaded, 13, override", test_json_loaded);
	CU_add_test(s, "info --json, nothing found: not found, what was tried",
		    test_json_not_found);
	CU_add_test(s, "info, library found: the table names it", test_text_loaded);
	CU_add_test(s, "info, nothing found: the paths tried and what to set", test_text_not_found);
	CU_add_test(s, "a driver that answers an error: the reason and its code",
		    test_driver_missing_code);
	CU_add_test(s, "no driver: a line says none was found", test_driver_missing_none);
}

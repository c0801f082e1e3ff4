/*
 * cudastub info LIB... and --stub PATH: the report restricted to the
 * libraries named (and only those loaded), a stub file asked instead of
 * the command's own (a copy renamed as auditwheel renames), and the exit
 * status: 1 when a library asked for was not found, 2 for a file that is
 * not a cudastub stub.
 */
#define _GNU_SOURCE /* PATH_MAX */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli_run.h"
#include "cli_suites.h"
#include "ts_files.h"

/* The 13.0 runtime of the toolkit on the test machines. */
#define REAL_CUDART "/usr/local/cuda/lib64/libcudart.so.13"

static struct ts_child out;

/* The "libraries" array's entries' names, in order, joined by spaces. */
static const char *names_of(const struct jv *doc)
{
	static char names[512];
	const struct jv *libs = jv_get(doc, "libraries");

	names[0] = '\0';
	for (size_t i = 0; libs && i < libs->count; i++)
		snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? " " : "",
			 jv_str(libs->items[i], "name"));
	return names;
}

/* info cudart: only the runtime is reported, and only its search runs
 * (the old command refused the name, and loaded all ten). */
static void test_one_library(void)
{
	static const char *const args[] = {"info", "cudart", "--json", NULL};
	static const char *const debug[] = {"CUDASTUB_DEBUG=1", NULL};
	struct jv *doc = cli_json_run(E2E_CLI, args, debug, 0, &out);

	CU_ASSERT_STRING_EQUAL(names_of(doc), "cudart");
	/* every search step is traced: none of another stub ran */
	CU_ASSERT_PTR_NOT_NULL(strstr(out.err, "cudastub[cudart]: searching"));
	CU_ASSERT_PTR_NULL(strstr(out.err, "cudastub[nvrtc]"));
	CU_ASSERT_PTR_NULL(strstr(out.err, "cudastub[cuda]"));
	CU_ASSERT_PTR_NULL(strstr(out.err, "cudastub[cublas]"));
	jv_free(doc);
}

/* Names in any order and case, and the CMake target's word for the
 * driver; the report keeps cudastub_lib order. */
static void test_names(void)
{
	static const char *const args[] = {"info", "NVRTC", "cuda_driver", "--json", NULL};
	static const char *const missing[] = {"CUDASTUB_CUDA_PATH=/nonexistent/libcuda.so.1",
					      "CUDASTUB_NVRTC_PATH=/nonexistent/libnvrtc.so.13",
					      NULL};
	struct jv *doc = cli_json_run(E2E_CLI, args, missing, 1, &out);

	CU_ASSERT_STRING_EQUAL(names_of(doc), "nvrtc cuda");
	jv_free(doc);
}

/* A named library not found: exit 1, the report still printed. */
static void test_not_found_exit(void)
{
	static const char *const args[] = {"info", "nvrtc", "--json", NULL};
	static const char *const text[] = {"info", "nvrtc", NULL};
	static const char *const every[] = {"info", NULL};
	static const char *const missing[] = {"CUDASTUB_NVRTC_PATH=/nonexistent/libnvrtc.so.13",
					      NULL};
	struct jv *doc = cli_json_run(E2E_CLI, args, missing, 1, &out);
	const struct jv *l = jv_library(doc, "nvrtc");

	CU_ASSERT_PTR_NOT_NULL_FATAL(l);
	CU_ASSERT_STRING_EQUAL(jv_str(l, "state"), "override failed");
	jv_free(doc);
	CU_ASSERT_EQUAL_FATAL(cli_run(E2E_CLI, text, missing, &out), 0);
	CU_ASSERT_EQUAL(out.exit_code, 1);
	CU_ASSERT_TRUE(cli_text_row_has(out.out, "nvrtc", "override failed", ""));
	/* no name, no library asked for: the report ran, exit 0 */
	CU_ASSERT_EQUAL_FATAL(cli_run(E2E_CLI, every, missing, &out), 0);
	CU_ASSERT_EQUAL(out.exit_code, 0);
}

/* A named library found: exit 0. */
static void test_found_exit(void)
{
	static const char *const args[] = {"info", "nvrtc", NULL};
	const char *const *env = cli_real_nvrtc_env();

	if (!env)
		return;
	CU_ASSERT_EQUAL_FATAL(cli_run(E2E_CLI, args, env, &out), 0);
	CU_ASSERT_EQUAL(out.exit_code, 0);
	CU_ASSERT_TRUE(cli_text_row_has(out.out, "nvrtc", "loaded", "13."));
}

#ifdef E2E_CUDART_STUB
/* The runtime stub copied to a fresh folder as auditwheel names it. */
static const char *renamed_stub(char *dir, size_t dir_size, char *copy, size_t copy_size)
{
	if (!ts_tmpdir("info-stub", dir, dir_size))
		return NULL;
	snprintf(copy, copy_size, "%s/libcudart_stub-1a2b3c4d.so", dir);
	CU_ASSERT_EQUAL_FATAL(ts_copy_file(E2E_CUDART_STUB, copy), 0);
	return copy;
}

/* --stub=PATH: the copy answers (its path, not the command's own stub),
 * and its library is told by its exports; the override it was given
 * failed, so exit 1. */
static void test_stub_renamed(void)
{
	static const char *const missing[] = {"CUDASTUB_CUDART_PATH=/nonexistent/libcudart.so.13",
					      NULL};
	char dir[PATH_MAX], copy[PATH_MAX + 64], option[PATH_MAX + 80];
	const char *args[] = {"info", option, "--json", NULL};
	const struct jv *l;
	struct jv *doc;

	CU_ASSERT_PTR_NOT_NULL_FATAL(renamed_stub(dir, sizeof dir, copy, sizeof copy));
	snprintf(option, sizeof option, "--stub=%s", copy);
	doc = cli_json_run(E2E_CLI, args, missing, 1, &out);
	CU_ASSERT_STRING_EQUAL(names_of(doc), "cudart");
	l = jv_library(doc, "cudart");
	CU_ASSERT_PTR_NOT_NULL_FATAL(l);
	CU_ASSERT_STRING_EQUAL(jv_str(l, "stub_path"), copy);
	CU_ASSERT_STRING_EQUAL(jv_str(l, "state"), "override failed");
	CU_ASSERT_STRING_EQUAL(jv_str(l, "reason"), "override");
	jv_free(doc);
	ts_remove_tree(dir);
}

/* --stub PATH (two words), loaded: exit 0, the text names the copy. */
static void test_stub_loaded(void)
{
	char dir[PATH_MAX], copy[PATH_MAX + 64];
	const char *args[] = {"info", "--stub", copy, NULL};
	const char *env[] = {"CUDASTUB_CUDART_PATH=" REAL_CUDART, NULL};
	char line[PATH_MAX + 80];

	if (!ts_present(REAL_CUDART, "install the CUDA 13 toolkit"))
		return;
	CU_ASSERT_PTR_NOT_NULL_FATAL(renamed_stub(dir, sizeof dir, copy, sizeof copy));
	CU_ASSERT_EQUAL_FATAL(cli_run(E2E_CLI, args, env, &out), 0);
	CU_ASSERT_EQUAL(out.exit_code, 0);
	CU_ASSERT_TRUE(cli_text_row_has(out.out, "cudart", "loaded", "13."));
	snprintf(line, sizeof line, "\n  stub: %s\n", copy);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, line));
	CU_ASSERT_PTR_NULL(strstr(out.out, E2E_CUDART_STUB));
	ts_remove_tree(dir);
}
#endif

/* A file that is no cudastub stub: exit 2, why on stderr, no report. */
static void expect_not_a_stub(const char *path, const char *why)
{
	const char *args[] = {"info", "--stub", path, NULL};

	CU_ASSERT_EQUAL_FATAL(cli_run(E2E_CLI, args, NULL, &out), 0);
	CU_ASSERT_EQUAL(out.exit_code, 2);
	CU_ASSERT_STRING_EQUAL(out.out, "");
	CU_ASSERT_PTR_NOT_NULL(strstr(out.err, "cudastub info: --stub "));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.err, why));
}

static void test_not_a_stub(void)
{
	char dir[PATH_MAX], text[PATH_MAX + 16];
	const char *nvrtc = cli_real_nvrtc();
	FILE *f;

	CU_ASSERT_PTR_NOT_NULL_FATAL(ts_tmpdir("info-nostub", dir, sizeof dir));
	snprintf(text, sizeof text, "%s/notes.so", dir);
	f = fopen(text, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("not a library\n", f);
	fclose(f);
	expect_not_a_stub(text, "is not an ELF file, so not a cudastub stub");
	/* NVIDIA's own library in place of the stub: ELF, but no entry point */
	if (nvrtc)
		expect_not_a_stub(nvrtc, "not a cudastub stub");
	expect_not_a_stub("/nonexistent/libcudart_stub.so", "cannot be opened");
	ts_remove_tree(dir);
}

void register_cli_info_select(void)
{
	CU_pSuite s = CU_add_suite("cli_info_select", NULL, NULL);

	CU_add_test(s, "info cudart: only the runtime reported and searched", test_one_library);
	CU_add_test(s, "info NVRTC cuda_driver: names in any case, the CMake word", test_names);
	CU_add_test(s, "a named library not found: exit 1; no name: exit 0", test_not_found_exit);
	CU_add_test(s, "a named library found: exit 0", test_found_exit);
#ifdef E2E_CUDART_STUB
	CU_add_test(s, "--stub= a renamed copy: the copy answers, exit 1 when not found",
		    test_stub_renamed);
	CU_add_test(s, "--stub a renamed copy, loaded: exit 0, its path", test_stub_loaded);
#endif
	CU_add_test(s, "--stub a file that is no stub: exit 2", test_not_a_stub);
}

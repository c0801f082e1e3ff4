/*
 * libcudastub_cu13.so, every stub of the ABI in one file (a process that
 * links ten stubs would pay the dynamic loader ten times):
 *   - it exports exactly what the stubs export, each symbol in its
 *     library's version node; a library without versions (the driver,
 *     NVML, NCCL) in a node named by its SONAME;
 *   - a program linked against it prints what the same program prints
 *     linked against the separate stubs (programs/combined_calls.c);
 *   - under the real SONAMEs (a folder of links to the one file, the
 *     drop-in form) it is one object in the process, where the shims are
 *     three, and the program prints the same;
 *   - `cudastub patch --combined` points the shims' program at it, needs
 *     by symbol version and all, and it prints the same again.
 */
#define _GNU_SOURCE
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_support.h"
#include "ts_files.h"

enum { MAX_EXPORTS = 16384, LINE = 512 };

struct exports {
	char **line; /* "kind name@version", sorted */
	size_t count;
};

static int by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Appends the functions and data that file defines, as nm -D names them;
 * a symbol without a version gets node's. 0, or -1. */
static int read_exports(const char *file, const char *node, struct exports *e)
{
	char command[LINE * 2], line[LINE], kind[8], name[LINE];
	FILE *nm;

	snprintf(command, sizeof command, "%s -D --defined-only '%s'", E2E_NM, file);
	if (!(nm = popen(command, "r")))
		return -1;
	while (fgets(line, sizeof line, nm)) {
		char *at, entry[LINE * 2];

		if (sscanf(line, "%*s %7s %511s", kind, name) != 2 || !strcmp(kind, "A"))
			continue; /* the version nodes themselves */
		at = strchr(name, '@');
		if (at) {
			*at++ = '\0';
			at += *at == '@';
		}
		snprintf(entry, sizeof entry, "%s %s@%s", kind, name, at ? at : node);
		if (e->count == MAX_EXPORTS || !(e->line[e->count++] = strdup(entry))) {
			pclose(nm);
			return -1;
		}
	}
	return pclose(nm) == 0 ? 0 : -1;
}

static void free_exports(struct exports *e)
{
	for (size_t i = 0; i < e->count; i++)
		free(e->line[i]);
	e->count = 0;
}

static void test_exports_are_the_stubs(void)
{
	static char *combined_lines[MAX_EXPORTS], *parts_lines[MAX_EXPORTS];
	struct exports combined = {combined_lines, 0}, parts = {parts_lines, 0};
	char *list = strdup(E2E_COMBINED_PARTS), *part, *saved = NULL;
	size_t differ = 0, libraries = 0;

	CU_ASSERT_FATAL(list != NULL);
	/* "path=node:path=node...", each stub and its node in libcudastub_cu13.so */
	for (part = strtok_r(list, ":", &saved); part; part = strtok_r(NULL, ":", &saved)) {
		char *node = strchr(part, '=');

		CU_ASSERT_FATAL(node != NULL);
		*node++ = '\0';
		CU_ASSERT_EQUAL(read_exports(part, node, &parts), 0);
		libraries++;
	}
	free(list);
	CU_ASSERT(libraries >= 3);
	CU_ASSERT_EQUAL(read_exports(E2E_COMBINED, "(none)", &combined), 0);
	qsort(combined.line, combined.count, sizeof *combined.line, by_text);
	qsort(parts.line, parts.count, sizeof *parts.line, by_text);
	printf("\n  libcudastub_cu13.so: %zu exports; %zu stubs: %zu\n", combined.count, libraries,
	       parts.count);
	CU_ASSERT_EQUAL(combined.count, parts.count);
	for (size_t i = 0; i < combined.count && i < parts.count; i++)
		if (strcmp(combined.line[i], parts.line[i]) && differ++ < 5)
			printf("  first difference: %s (libcudastub_cu13.so) against %s (the "
			       "stubs)\n",
			       combined.line[i], parts.line[i]);
	CU_ASSERT_EQUAL(differ, 0);
	free_exports(&combined);
	free_exports(&parts);
}

TS_TEST(test_exports_are_the_stubs,
	"exports what the stubs export, each in its library's version node");

/* The program's output, with LD_LIBRARY_PATH=folder when folder is set. */
static int run(const char *program, const char *folder, struct ts_child *out)
{
	char *argv[] = {(char *)program, "count", NULL};
	char path[LINE];
	const char *env[] = {path, NULL};

	snprintf(path, sizeof path, "LD_LIBRARY_PATH=%s", folder ? folder : "");
	return ts_run_program(argv, folder ? env : NULL, NULL, out) == 0 && out->exit_code == 0
		       ? 0
		       : -1;
}

/* out's text less its last line (the count of stub objects) */
static const char *without_count(char *text)
{
	char *last = strstr(text, "cudastub objects:");

	if (last)
		*last = '\0';
	return text;
}

static void test_same_as_the_stubs(void)
{
	static struct ts_child separate, combined;

	if (!ts_present(E2E_TOOLKIT_LIB "/libcudart.so.13", "the CUDA 13 toolkit"))
		return;
	CU_ASSERT_EQUAL_FATAL(run(E2E_SEPARATE_PROGRAM, NULL, &separate), 0);
	CU_ASSERT_EQUAL_FATAL(run(E2E_COMBINED_PROGRAM, NULL, &combined), 0);
	CU_ASSERT_PTR_NOT_NULL(
		strstr(combined.out, "cudaGetErrorName(2): cudaErrorMemoryAllocation"));
	CU_ASSERT_PTR_NOT_NULL(strstr(combined.out, "cudart: loaded, CUDA 13."));
	CU_ASSERT_PTR_NOT_NULL(strstr(combined.out, "nvrtc: loaded, CUDA 13."));
	CU_ASSERT_PTR_NOT_NULL(strstr(separate.out, "cudastub objects: 3"));
	CU_ASSERT_PTR_NOT_NULL(strstr(combined.out, "cudastub objects: 1"));
	CU_ASSERT_STRING_EQUAL(without_count(combined.out), without_count(separate.out));
}

TS_TEST(test_same_as_the_stubs, "a program linked against it prints what the separate stubs print");

static void test_one_object_under_the_real_sonames(void)
{
	static const char *const sonames[] = {E2E_CUDART_SONAME, E2E_NVRTC_SONAME,
					      E2E_DRIVER_SONAME};
	static struct ts_child shims, dropped_in;
	char folder[LINE], link_path[LINE * 2];

	if (!ts_present(E2E_TOOLKIT_LIB "/libcudart.so.13", "the CUDA 13 toolkit"))
		return;
	CU_ASSERT_PTR_NOT_NULL_FATAL(ts_tmpdir("combined", folder, sizeof folder));
	for (size_t i = 0; i < sizeof sonames / sizeof *sonames; i++) {
		snprintf(link_path, sizeof link_path, "%s/%s", folder, sonames[i]);
		CU_ASSERT_EQUAL(symlink(E2E_COMBINED, link_path), 0);
	}
	CU_ASSERT_EQUAL(run(E2E_SHIM_PROGRAM, NULL, &shims), 0);
	CU_ASSERT_EQUAL(run(E2E_SHIM_PROGRAM, folder, &dropped_in), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(shims.out, "cudastub objects: 3"));
	CU_ASSERT_PTR_NOT_NULL(strstr(dropped_in.out, "cudastub objects: 1"));
	CU_ASSERT_PTR_NOT_NULL(strstr(dropped_in.out, "cudart: loaded, CUDA 13."));
	CU_ASSERT_STRING_EQUAL(without_count(dropped_in.out), without_count(shims.out));
	ts_remove_tree(folder);
}

TS_TEST(test_one_object_under_the_real_sonames,
	"under the real SONAMEs: one object where the shims are three");

/* cudastub patch --combined of the program linked against the shims,
 * whose symbols it needs by version (cudaGetErrorName@libcudart.so.13):
 * every such name becomes libcudastub_cu13.so, the program runs on that one
 * file, and prints what it prints through the shims. */
static void test_patched_combined(void)
{
	static struct ts_child shims, patched, cli;
	char folder[LINE], copy[LINE * 2], stubs[LINE * 2];
	char *argv[] = {E2E_CLI, "patch", "--combined", "--stub-dir", stubs, copy, NULL};
	char *count[] = {copy, "count", NULL};

	if (!ts_present(E2E_TOOLKIT_LIB "/libcudart.so.13", "the CUDA 13 toolkit"))
		return;
	CU_ASSERT_PTR_NOT_NULL_FATAL(ts_tmpdir("combined-patch", folder, sizeof folder));
	snprintf(copy, sizeof copy, "%s/program", folder);
	snprintf(stubs, sizeof stubs, "%s/lib", folder);
	CU_ASSERT_EQUAL_FATAL(ts_copy_file(E2E_SHIM_PROGRAM, copy), 0);
	CU_ASSERT_EQUAL(ts_run_program(argv, NULL, NULL, &cli), 0);
	CU_ASSERT_EQUAL(cli.exit_code, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(cli.out, E2E_CUDART_SONAME " -> libcudastub_cu13-"));
	CU_ASSERT_EQUAL(run(E2E_SHIM_PROGRAM, NULL, &shims), 0);
	CU_ASSERT_EQUAL(ts_run_program(count, NULL, NULL, &patched), 0);
	CU_ASSERT_EQUAL(patched.exit_code, 0);
	if (patched.exit_code)
		fprintf(stderr, "the patched program:\n%s%s\n", patched.out, patched.err);
	CU_ASSERT_PTR_NOT_NULL(strstr(patched.out, "cudastub objects: 1"));
	CU_ASSERT_STRING_EQUAL(without_count(patched.out), without_count(shims.out));
	ts_remove_tree(folder);
}

TS_TEST(test_patched_combined,
	"cudastub patch --combined of a program with versioned needs: it runs");

TS_MAIN_SUITE("e2e: libcudastub_cu13.so, every stub in one file", NULL, NULL, NULL)

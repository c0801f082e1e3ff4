/*
 * `cudastub shim DIR`: the shims made from the stubs where they are wanted
 * (a wheel ships the stubs once, without them) are the build's own shims
 * in all but the build ID:
 *   - the same files in the same layout (cu<N>/, cu<N>/driver/, cu<N>/nvml/);
 *   - each under NVIDIA's SONAME, with the build's shim's dynamic symbols,
 *     versions and needed libraries;
 *   - a program linked against the shims, its RUNPATH removed, cannot
 *     start without them, and through them prints what it prints through
 *     the build's shims;
 *   - run again, each shim is replaced, and a link planted at a shim's name
 *     is replaced, never written through.
 */
#define _GNU_SOURCE
#include <CUnit/CUnit.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_support.h"
#include "ts_elf.h"
#include "ts_files.h"

enum { LINE = 1024 };

/* Adds every regular file below root/rel to files, as "rel/name". */
static void list_files(const char *root, const char *rel, struct ts_names *files)
{
	char path[LINE], sub[LINE];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof path, "%s%s%s", root, *rel ? "/" : "", rel);
	if (!(d = opendir(path)))
		return;
	while ((e = readdir(d))) {
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		if (snprintf(sub, sizeof sub, "%s%s%s", rel, *rel ? "/" : "", e->d_name) >=
			    (int)sizeof sub ||
		    snprintf(path, sizeof path, "%s/%s", root, sub) >= (int)sizeof path ||
		    lstat(path, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode))
			list_files(root, sub, files);
		else
			ts_names_add(files, sub);
	}
	closedir(d);
}

/* `cudastub shim folder`, its output in out; the exit status. */
static int make_shims(const char *folder, struct ts_child *out)
{
	char *argv[] = {E2E_CLI, "shim", (char *)folder, NULL};

	CU_ASSERT_EQUAL_FATAL(ts_run_program(argv, NULL, NULL, out), 0);
	if (out->exit_code)
		fprintf(stderr, "cudastub shim:\n%s%s\n", out->out, out->err);
	return out->exit_code;
}

static void test_same_as_the_build(void)
{
	static struct ts_child made;
	struct ts_names built = {0}, ours = {0};
	char folder[LINE];

	CU_ASSERT_PTR_NOT_NULL_FATAL(ts_tmpdir("shim-command", folder, sizeof folder));
	CU_ASSERT_EQUAL(make_shims(folder, &made), 0);
	list_files(E2E_BUILD_SHIMS, "", &built);
	list_files(folder, "", &ours);
	printf("\n  %zu shims made, %zu in the build", ours.count, built.count);
	CU_ASSERT(built.count >= 3);
	TS_EXPECT_SAME_NAMES(&built, &ours, "the shims' files");
	for (size_t i = 0; i < built.count && i < ours.count; i++) {
		struct ts_names a[3] = {{0}}, b[3] = {{0}};
		static const char *const tags[] = {"SONAME", "NEEDED"};
		char x[LINE * 2], y[LINE * 2];

		CU_ASSERT_FATAL(snprintf(x, sizeof x, "%s/%s", E2E_BUILD_SHIMS, built.names[i]) <
				(int)sizeof x);
		CU_ASSERT_FATAL(snprintf(y, sizeof y, "%s/%s", folder, built.names[i]) <
				(int)sizeof y);
		CU_ASSERT_EQUAL(ts_names_dynamic_symbols(&a[0], x), 0);
		CU_ASSERT_EQUAL(ts_names_dynamic_symbols(&b[0], y), 0);
		for (int t = 0; t < 2; t++) {
			CU_ASSERT_EQUAL(ts_names_dynamic(&a[t + 1], x, tags[t]), 0);
			CU_ASSERT_EQUAL(ts_names_dynamic(&b[t + 1], y, tags[t]), 0);
		}
		for (int t = 0; t < 3; t++) {
			TS_EXPECT_SAME_NAMES(&a[t], &b[t], built.names[i]);
			ts_names_free(&a[t]);
			ts_names_free(&b[t]);
		}
	}
	ts_names_free(&built);
	ts_names_free(&ours);
	ts_remove_tree(folder);
}

TS_TEST(test_same_as_the_build, "the build's shims: the same files, names, symbols and versions");

/* The program, LD_LIBRARY_PATH=folders, its output in out; its exit. */
static int run(const char *program, const char *folders, struct ts_child *out)
{
	char *argv[] = {(char *)program, NULL};
	char path[LINE * 2];
	const char *env[] = {path, NULL};

	snprintf(path, sizeof path, "LD_LIBRARY_PATH=%s", folders);
	CU_ASSERT_EQUAL_FATAL(ts_run_program(argv, folders ? env : NULL, NULL, out), 0);
	return out->exit_code;
}

static void test_a_program_runs_through_them(void)
{
	static struct ts_child made, built, bare, ours;
	char folder[LINE], copy[LINE * 2], folders[LINE * 3], cmd[LINE * 4];

	CU_ASSERT_PTR_NOT_NULL_FATAL(ts_tmpdir("shim-program", folder, sizeof folder));
	CU_ASSERT_EQUAL(make_shims(folder, &made), 0);
	snprintf(copy, sizeof copy, "%s/program", folder);
	CU_ASSERT_EQUAL_FATAL(ts_copy_file(E2E_SHIM_PROGRAM, copy), 0);
	snprintf(cmd, sizeof cmd, "patchelf --remove-rpath '%s'", copy);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	snprintf(folders, sizeof folders, "%s/cu%d:%s/cu%d/driver", folder, E2E_ABI_MAJOR, folder,
		 E2E_ABI_MAJOR);
	CU_ASSERT_EQUAL(run(E2E_SHIM_PROGRAM, NULL, &built), 0);
	CU_ASSERT_NOT_EQUAL(run(copy, NULL, &bare), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(bare.err, "cannot open shared object file"));
	CU_ASSERT_EQUAL(run(copy, folders, &ours), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(ours.out, "cudart: "));
	CU_ASSERT_STRING_EQUAL(ours.out, built.out);
	ts_remove_tree(folder);
}

TS_TEST(test_a_program_runs_through_them,
	"a program linked against the shims runs through them as through the build's");

static void test_made_again_over_a_link(void)
{
	static struct ts_child first, again;
	char folder[LINE], shim[LINE * 2], victim[LINE * 2], target[LINE * 2];
	struct stat st;
	FILE *f;

	CU_ASSERT_PTR_NOT_NULL_FATAL(ts_tmpdir("shim-again", folder, sizeof folder));
	CU_ASSERT_EQUAL(make_shims(folder, &first), 0);
	snprintf(shim, sizeof shim, "%s/cu%d/%s", folder, E2E_ABI_MAJOR, E2E_CUDART_SONAME);
	snprintf(victim, sizeof victim, "%s/victim", folder);
	CU_ASSERT_FATAL((f = fopen(victim, "w")) != NULL);
	fputs("not to be written\n", f);
	fclose(f);
	CU_ASSERT_EQUAL(unlink(shim), 0);
	CU_ASSERT_EQUAL(symlink(victim, shim), 0);
	CU_ASSERT_EQUAL(make_shims(folder, &again), 0);
	CU_ASSERT_STRING_EQUAL(again.out, first.out);
	CU_ASSERT(lstat(shim, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0777) == 0755);
	CU_ASSERT(stat(victim, &st) == 0 && st.st_size == 18);
	/* nothing of the private folders is left */
	snprintf(target, sizeof target, "ls -a '%s/cu%d' | grep -q '^\\.cudastub-'", folder,
		 E2E_ABI_MAJOR);
	CU_ASSERT_NOT_EQUAL(system(target), 0);
	ts_remove_tree(folder);
}

TS_TEST(test_made_again_over_a_link,
	"made again: each replaced, a link at a name never written through");

static void test_usage(void)
{
	static struct ts_child none, bad_abi, help;
	char *no_folder[] = {E2E_CLI, "shim", NULL};
	char *abi[] = {E2E_CLI, "shim", "/nonexistent", "--abi", "7", NULL};
	char *usage[] = {E2E_CLI, "shim", "--help", NULL};

	CU_ASSERT_EQUAL(ts_run_program(no_folder, NULL, NULL, &none), 0);
	CU_ASSERT_EQUAL(none.exit_code, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(none.err, "no folder given"));
	CU_ASSERT_EQUAL(ts_run_program(abi, NULL, NULL, &bad_abi), 0);
	CU_ASSERT_EQUAL(bad_abi.exit_code, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(bad_abi.err, "no stubs of that ABI"));
	CU_ASSERT(access("/nonexistent", F_OK) != 0);
	CU_ASSERT_EQUAL(ts_run_program(usage, NULL, NULL, &help), 0);
	CU_ASSERT_EQUAL(help.exit_code, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(help.out, "Usage: cudastub shim DIR"));
}

TS_TEST(test_usage, "usage: no folder, an ABI it has no stubs of, --help");

TS_MAIN_SUITE("e2e: cudastub shim, the shims made from the stubs", NULL, NULL, NULL)

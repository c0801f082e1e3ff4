/*
 * Every name the README and the docs give a user exists in the build:
 *   - each lib<x>_stub_cu<major>.so is a file the build made (the link
 *     name of the stub lib<x>_stub_cu<major>-<tag>.so), and so is each
 *     libcudastub_cu<major>.so (lib<x>_stub_cu<N>.so: one of the ABIs);
 *   - each CMake target cudastub::<alias>, or cudastub::<alias>_cu<major>,
 *     names a library of the generated list (generated/cmake/libraries.cmake);
 *   - each pkg-config package cudastub-<x>[-cu<major>] (on a line that
 *     says pkg-config, or written with .pc) is a .pc file the build wrote.
 * A stub's name without its ABI (lib<x>_stub.so) names nothing.
 */
#define _GNU_SOURCE
#include <CUnit/CUnit.h>
#include <ctype.h>
#include <ftw.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_support.h"

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	long size;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (text = calloc(1, (size_t)size + 1)) != NULL &&
	    fread(text, 1, (size_t)size, f) != (size_t)size) {
		free(text);
		text = NULL;
	}
	fclose(f);
	return text;
}

static const char *wanted_file;
static int wanted_found;

static int find_file(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	if ((type == FTW_F || type == FTW_SL) && !strcmp(path + ftw->base, wanted_file))
		wanted_found = 1;
	return wanted_found;
}

static int built_file_exists(const char *name)
{
	static const char *const folders[] = {"lib", "pkgconfig"};
	char root[4096];

	wanted_file = name;
	wanted_found = 0;
	for (size_t i = 0; i < sizeof folders / sizeof *folders && !wanted_found; i++) {
		snprintf(root, sizeof root, "%s/%s", ts_build_dir(), folders[i]);
		nftw(root, find_file, 32, FTW_PHYS);
	}
	return wanted_found;
}

/* Whether the build made the file name, which a document may write for
 * every ABI (lib<x>_stub_cu<N>.so) or with its tag
 * (lib<x>_stub_cu13-<tag>.so: the build made it where it made the link
 * lib<x>_stub_cu13.so); after is the text after name. */
static int built_name_exists(const char *name, const char *after)
{
	size_t len = strlen(name);
	char each[300];

	if (len < 3 || strcmp(name + len - 3, "_cu") || strncmp(after, "<N>", 3)) {
		if (*after != '-')
			return built_file_exists(name);
		snprintf(each, sizeof each, "%s.so", name);
		return built_file_exists(each);
	}
	for (int abi = 11; abi <= 13; abi++) {
		snprintf(each, sizeof each, "%s%d.so", name, abi);
		if (built_file_exists(each))
			return 1;
	}
	return 0;
}

/* The token of identifier characters (and dots) at p, in out. */
static void token_at(const char *p, const char *extra, char *out, size_t size)
{
	size_t n = 0;

	while (p[n] && n + 1 < size && (isalnum((unsigned char)p[n]) || strchr(extra, p[n])))
		n++;
	memcpy(out, p, n);
	out[n] = '\0';
}

static int line_has(const char *text, const char *at, const char *word)
{
	const char *start = at, *end = strchr(at, '\n');
	size_t len;
	char line[2048];

	while (start > text && start[-1] != '\n')
		start--;
	len = (size_t)((end ? end : at + strlen(at)) - start);
	if (len >= sizeof line)
		len = sizeof line - 1;
	memcpy(line, start, len);
	line[len] = '\0';
	return strstr(line, word) != NULL;
}

static void check_document(const char *path, const char *cmake_list, int *names)
{
	char *text = read_all(path);
	char name[256], want[300];

	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	for (const char *p = text; (p = strstr(p, "lib")) != NULL; p++) {
		token_at(p, "_.", name, sizeof name);
		if (strlen(name) < 12 || (!strstr(name, "_stub.so") && !strstr(name, "_stub_cu") &&
					  strncmp(name, "libcudastub_cu", 14)))
			continue;
		(*names)++;
		if (!built_name_exists(name, p + strlen(name)))
			fprintf(stderr, "%s names %s, which the build did not make\n", path, name);
		CU_ASSERT(built_name_exists(name, p + strlen(name)));
	}
	for (const char *p = text; (p = strstr(p, "cudastub::")) != NULL; p++) {
		char *abi;

		token_at(p + 10, "_", name, sizeof name);
		if (!*name) /* cudastub::<target>: any of them */
			continue;
		/* cudastub::cublas_cu12: the library's, for one ABI */
		if ((abi = strstr(name, "_cu")) && abi[3] >= '0' && abi[3] <= '9')
			*abi = '\0';
		snprintf(want, sizeof want, "_alias %s)", name);
		(*names)++;
		if (!strcmp(name, "all")) /* every stub of an ABI in one file */
			continue;
		if (!strstr(cmake_list, want))
			fprintf(stderr, "%s names cudastub::%s, which is no target\n", path, name);
		CU_ASSERT_PTR_NOT_NULL(strstr(cmake_list, want));
	}
	for (const char *p = text; (p = strstr(p, "cudastub-")) != NULL; p++) {
		token_at(p + 9, "_-", name, sizeof name);
		if (!*name ||
		    (strncmp(p + 9 + strlen(name), ".pc", 3) && !line_has(text, p, "pkg-config")))
			continue;
		snprintf(want, sizeof want, "cudastub-%s.pc", name);
		(*names)++;
		if (!built_file_exists(want))
			fprintf(stderr,
				"%s names pkg-config's cudastub-%s, which has no .pc file\n", path,
				name);
		CU_ASSERT(built_file_exists(want));
	}
	free(text);
}

static void test_documented_names_exist(void)
{
	char *cmake_list = read_all(GENERATED_DIR "/cmake/libraries.cmake");
	const char *patterns[] = {SOURCE_DIR "/README.md", SOURCE_DIR "/docs/*.md",
				  SOURCE_DIR "/docs/*/*.md", SOURCE_DIR "/examples/*/README.md"};
	int names = 0, documents = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(cmake_list);
	for (size_t i = 0; i < sizeof patterns / sizeof *patterns; i++) {
		glob_t found;

		if (glob(patterns[i], 0, NULL, &found) != 0)
			continue;
		for (size_t k = 0; k < found.gl_pathc; k++, documents++)
			check_document(found.gl_pathv[k], cmake_list, &names);
		globfree(&found);
	}
	free(cmake_list);
	CU_ASSERT(documents >= 4);
	/* each stub's file, target and package is named somewhere */
	CU_ASSERT(names >= 20);
}

TS_TEST(test_documented_names_exist, "every stub, target and package the docs name exists");

TS_MAIN_SUITE("doc_names", NULL, NULL, NULL)

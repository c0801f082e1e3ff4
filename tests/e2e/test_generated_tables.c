/*
 * e2e_generated_tables: what the generator wrote says what the stubs do.
 *
 *   - every code in each stub's ABI tables (docs/reference/functions/, one
 *     page a library, one section a stub ABI) is the one that stub returns
 *     for that reason: absent in an older
 *     major, dropped by a newer one, or a different ABI. Before the codes
 *     came from each spec, the NVRTC and driver tables showed the runtime's
 *     36 and 801;
 *   - each export the runtime stub forwards without a prototype has a row
 *     of its own, so that when it cannot forward it answers for that row
 *     (all answered for the first row before; the bind now reads the row
 *     of the slot it is given).
 */
#define _GNU_SOURCE
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudastub/cudastub.h"
#include "test_support.h"

struct stub_codes {
	const char *lib; /* the spec's name: docs/reference/functions/<lib>.md */
	int absent, removed, abi;
};

static const struct stub_codes stubs[] = {
	{"cudart", cudaErrorCallRequiresNewerDriver, cudaErrorNotSupported, cudaErrorNotSupported},
	{"nvrtc", CUDASTUB_NVRTC_ERROR_NOT_FOUND, CUDASTUB_NVRTC_ERROR_NOT_FOUND,
	 CUDASTUB_NVRTC_ERROR_NOT_SUPPORTED},
	{"cuda", CUDA_ERROR_NOT_FOUND, CUDA_ERROR_NOT_FOUND, CUDA_ERROR_NOT_SUPPORTED},
};

/* The whole file, or NULL (then a failed assertion names it). */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t size = 0;

	if (f) {
		FILE *mem = open_memstream(&text, &size);
		int ch;

		while (mem && (ch = fgetc(f)) != EOF)
			fputc(ch, mem);
		if (mem)
			fclose(mem);
		fclose(f);
	}
	if (!text)
		fprintf(stderr, "cannot read %s\n", path);
	return text;
}

/* Counts the cells "<n> (<why>)" of a table whose n is not want. */
static int wrong_cells(const char *table, const char *why, int want, int *seen, char *first,
		       size_t size)
{
	char pattern[64];
	int wrong = 0;

	snprintf(pattern, sizeof pattern, " (%s) |", why);
	for (const char *at = strstr(table, pattern); at; at = strstr(at + 1, pattern)) {
		const char *start = at;

		while (start > table && start[-1] >= '0' && start[-1] <= '9')
			start--;
		(*seen)++;
		if (atoi(start) != want && !wrong++)
			snprintf(first, size, "%.*s", (int)(at - start) + (int)strlen(pattern) - 2,
				 start);
	}
	return wrong;
}

/* The section of the CUDA major's ABI in a library's page, cut out of page
 * (its end replaced by a NUL); NULL when the page has none. */
static char *abi_section(char *page, int major)
{
	static const char title[] = "\n## The CUDA ";
	char *start = page, *end;

	while ((start = strstr(start, title)) && atoi(start + sizeof title - 1) != major)
		start++;
	if (!start)
		return NULL;
	if ((end = strstr(start + 1, "\n## ")))
		*end = '\0';
	return start;
}

static void test_table_codes(void)
{
	for (size_t s = 0; s < sizeof stubs / sizeof *stubs; s++) {
		for (int major = 11; major <= 13; major++) {
			char path[PATH_MAX], first[64] = "", msg[PATH_MAX + 128];
			int seen = 0, wrong;
			char *page, *table;

			snprintf(path, sizeof path, "%s/docs/reference/functions/%s.md",
				 CUDASTUB_TEST_SOURCE_DIR, stubs[s].lib);
			page = slurp(path);
			CU_ASSERT_PTR_NOT_NULL_FATAL(page);
			table = abi_section(page, major);
			CU_ASSERT_PTR_NOT_NULL_FATAL(table);
			wrong = wrong_cells(table, "absent", stubs[s].absent, &seen, first,
					    sizeof first) +
				wrong_cells(table, "removed", stubs[s].removed, &seen, first,
					    sizeof first) +
				wrong_cells(table, "ABI differs", stubs[s].abi, &seen, first,
					    sizeof first);
			snprintf(msg, sizeof msg, "%s: %d cells name another stub's code (%s)",
				 path, wrong, first);
			CU_assertImplementation(wrong == 0, __LINE__, msg, __FILE__, "", CU_FALSE);
			/* every stub's 13.0 ABI has functions 11.x lacks */
			if (major == 13)
				CU_ASSERT(seen > 0);
			free(page);
		}
	}
}

TS_TEST(test_table_codes, "ABI tables show each stub's own codes");

/* One ABI's lines of a file every ABI reads (its other lines are under
 * #if CUDASTUB_ABI_MAJOR), comments kept, as the compiler sees them. */
static char *preprocess(const char *path, int major)
{
	char command[PATH_MAX + 96], *text = NULL;
	size_t size = 0;
	FILE *pipe, *out = open_memstream(&text, &size);

	snprintf(command, sizeof command, "cc -E -P -C -DCUDASTUB_ABI_MAJOR=%d -x c '%s'", major,
		 path);
	pipe = popen(command, "r");
	if (!pipe || !out) {
		if (pipe)
			pclose(pipe);
		if (out)
			fclose(out);
		free(text);
		return NULL;
	}
	for (int c; (c = fgetc(pipe)) != EOF;)
		fputc(c, out);
	fclose(out);
	if (pclose(pipe) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* In each ABI's cudart_rows.h, the exports no header declares come after
 * the line that says so, one CUDASTUB_ROW_OPAQUE each: every name there once, and
 * no name a declared row has too. */
static void test_opaque_rows(void)
{
	char path[PATH_MAX];

	snprintf(path, sizeof path, "%s/cudart/cudart_rows.h", CUDASTUB_TEST_GENERATED_DIR);
	for (int major = 11; major <= 13; major++) {
		char names[64][128];
		const char *at, *opaque;
		int count = 0, twice = 0;
		char *text = preprocess(path, major);

		CU_ASSERT_PTR_NOT_NULL_FATAL(text);
		opaque = strstr(text, "No header declares these");
		CU_ASSERT_PTR_NOT_NULL_FATAL(opaque);
		for (at = strstr(opaque, "\nCUDASTUB_ROW_OPAQUE("); at && count < 64;
		     at = strstr(at + 1, "\nCUDASTUB_ROW_OPAQUE(")) {
			char row[160];

			if (sscanf(at, "\nCUDASTUB_ROW_OPAQUE(%127[^,]", names[count]) != 1)
				break;
			for (int i = 0; i < count; i++)
				twice += strcmp(names[i], names[count]) == 0;
			/* a declared row of the same name would come first */
			snprintf(row, sizeof row, "(%.128s,", names[count]);
			CU_ASSERT(strstr(text, row) > opaque);
			count++;
		}
		CU_ASSERT(count >= 2);
		CU_ASSERT_EQUAL(twice, 0);
		free(text);
	}
}

TS_TEST(test_opaque_rows, "each opaque export has a row of its own");

TS_MAIN_SUITE("e2e: generated tables and fallbacks", NULL, NULL, NULL)

/*
 * Every function cuda_runtime_api.h declares, as the C compiler itself
 * parses it (gcc -aux-info lists each prototype with the header it came
 * from), is exported: the stub's list does not rest on the generator's
 * parsing alone. The CUDA 13.0 header declares 310.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exports.h"
#include "ts_files.h"

#ifndef CT_CC
#define CT_CC "cc"
#endif

/* The header folder of the stub ABI under test; NULL after reporting. */
static const char *include_dir(char *buf, size_t size)
{
	const char *root;

	if (ex_abi == CT_ABI_MAJOR) {
		snprintf(buf, size, "%s", CT_CUDA_INCLUDE_DIR);
		return buf;
	}
	root = ts_fixture(ex_abi == 12 ? "headers-12.4" : "headers-11.8");
	if (!root)
		return NULL;
	snprintf(buf, size, "%s/usr/include", root);
	return buf;
}

/* "/ * /x/cuda_runtime_api.h:330:NC * / extern cudaError_t cudaDeviceReset (void);"
 * -> "cudaDeviceReset", when the line comes from cuda_runtime_api.h */
static int declared_name(const char *line, char *name, size_t size)
{
	const char *end = strstr(line, "*/"), *open, *start;

	if (!end || !strstr(line, "/cuda_runtime_api.h:") ||
	    strstr(line, "/cuda_runtime_api.h:") > end)
		return 0;
	open = strstr(end, " (");
	if (!open)
		return 0;
	start = open;
	while (start > end && (isalnum((unsigned char)start[-1]) || start[-1] == '_'))
		start--;
	snprintf(name, size, "%.*s", (int)(open - start), start);
	return open > start;
}

/* The header's functions, by compiling a file that includes it. */
static int header_functions(const char *include, struct ts_names *out)
{
	char dir[PATH_MAX], src[PATH_MAX + 16], aux[PATH_MAX + 16], cmd[4 * PATH_MAX];
	char line[4096], name[256];
	FILE *f;
	int rc = -1;

	if (!ts_tmpdir("cudart-header", dir, sizeof dir))
		return -1;
	snprintf(src, sizeof src, "%s/h.c", dir);
	snprintf(aux, sizeof aux, "%s/aux.txt", dir);
	f = fopen(src, "w");
	if (f) {
		fputs("#include <cuda_runtime_api.h>\n", f);
		fclose(f);
		snprintf(cmd, sizeof cmd, "'%s' -fsyntax-only -aux-info '%s' -I'%s' '%s'", CT_CC,
			 aux, include, src);
		if (system(cmd) == 0 && (f = fopen(aux, "r"))) {
			while (fgets(line, sizeof line, f))
				if (declared_name(line, name, sizeof name))
					ts_names_add(out, name);
			fclose(f);
			rc = 0;
		}
	}
	ts_remove_tree(dir);
	return rc;
}

void ex_test_header_functions(void)
{
	struct ts_names declared = {0}, symbols = {0};
	char include[PATH_MAX];

	if (!include_dir(include, sizeof include))
		return;
	CU_ASSERT_EQUAL_FATAL(header_functions(include, &declared), 0);
	ex_symbols(&symbols, 0);
	printf("  %s/cuda_runtime_api.h declares %zu functions\n", include, declared.count);
	CU_ASSERT(declared.count > 250);
	for (size_t i = 0; i < declared.count; i++)
		CU_assertImplementation(ts_names_has(&symbols, declared.names[i]), __LINE__,
					declared.names[i], __FILE__, "exported", CU_FALSE);
	if (ex_abi == 13 && CT_ABI_MINOR == 0)
		CU_ASSERT_EQUAL(declared.count, 310);
	ts_names_free(&declared);
	ts_names_free(&symbols);
}

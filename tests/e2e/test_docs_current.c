/*
 * e2e_docs_current: the reference tables under docs/reference are what the
 * generator renders from specs/ and data/ now (gen_stubs.py docs, Python's
 * standard library only), byte for byte: a spec or a record changed
 * without rendering them again fails here, never drifts.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "test_support.h"

static void test_reference_is_current(void)
{
	char tmp[] = "/tmp/cudastub-docs-XXXXXX", script[4096], specs[4096], data[4096];
	char committed[4096];
	const char *src = CUDASTUB_TEST_SOURCE_DIR;
	char *render[] = {DC_PYTHON, script, "docs",  "--specs", specs,
			  "--data",  data,   "--out", tmp,	 NULL};
	char *diff[] = {"/usr/bin/diff", "-r", committed, tmp, NULL};
	struct ts_child out;

	snprintf(script, sizeof script, "%s/tools/gen_stubs/gen_stubs.py", src);
	snprintf(specs, sizeof specs, "%s/specs", src);
	snprintf(data, sizeof data, "%s/data", src);
	snprintf(committed, sizeof committed, "%s/docs/reference", src);
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(tmp));
	CU_ASSERT_FATAL(ts_run_program_ok(render, "gen_stubs.py docs", &out));
	CU_ASSERT_EQUAL_FATAL(ts_run_program(diff, NULL, NULL, &out), 0);
	if (out.exit_code != 0)
		fprintf(stderr,
			"docs/reference differs from what specs/ and data/ render (run: %s %s docs "
			"--specs specs --data data --out docs/reference):\n%.4000s\n",
			DC_PYTHON, script, out.out);
	CU_ASSERT_EQUAL(out.exit_code, 0);
	ts_remove_tree(tmp);
}

TS_TEST(test_reference_is_current, "the rendered tables equal the committed ones");

TS_MAIN_SUITE("docs/reference is current", NULL, NULL, NULL)

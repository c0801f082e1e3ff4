/*
 * ld_main_rows: a table's rows as CUnit tests (loader_test.h). CUnit's
 * test functions take no argument, so the one function every row runs
 * asks CUnit which test is running and finds the row of that name.
 */
#include "loader_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
	const char *rows;
	size_t size, count;
	void (*run_row)(const void *row);
} table;

static const char *row_name(size_t i)
{
	return *(const char *const *)(const void *)(table.rows + i * table.size);
}

static void run_current_row(void)
{
	CU_pTest test = CU_get_current_test();

	for (size_t i = 0; test && i < table.count; i++)
		if (!strcmp(row_name(i), test->pName)) {
			table.run_row(table.rows + i * table.size);
			return;
		}
	CU_FAIL("no row is named as the running test");
}

int ld_main_rows(int argc, char **argv, const struct ts_scenario *scenarios,
		 const struct ts_suite *suite, const void *rows, size_t size,
		 void (*run_row)(const void *row))
{
	struct ts_suite with_rows = *suite;
	struct ts_test *tests;
	size_t own = 0, i;
	int rc;

	table.rows = rows;
	table.size = size;
	table.run_row = run_row;
	for (table.count = 0; row_name(table.count); table.count++)
		for (i = 0; i < table.count; i++)
			if (!strcmp(row_name(i), row_name(table.count))) {
				fprintf(stderr, "ld_main_rows: two rows named \"%s\"\n",
					row_name(i));
				abort();
			}
	while (suite->tests && suite->tests[own].name)
		own++;
	tests = calloc(table.count + own + 1, sizeof *tests);
	if (!tests)
		return 1;
	for (i = 0; i < table.count; i++)
		tests[i] = (struct ts_test){row_name(i), run_current_row};
	for (i = 0; i < own; i++)
		tests[table.count + i] = suite->tests[i];
	with_rows.tests = tests;
	rc = ts_main_suite(argc, argv, scenarios, &with_rows);
	free(tests);
	return rc;
}

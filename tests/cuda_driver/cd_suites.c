/*
 * The same tests in a suite per library under test (the stub, the shim)
 * and, where a binary has several, per way to find it: every driver suite
 * runs its cases for both libraries, and names them the same way.
 * ts_main's register function takes no argument, so what cd_main was
 * given waits here.
 */
#include <stdio.h>

#include "cuda_driver_test.h"

struct cd_selection cd_selected;

static struct {
	const char *title;
	const char *const *ways;
	int way_count;
	const struct ts_test *tests;
} added;

static void name_selection(int i, char *label, size_t size)
{
	const struct cd_lib *lib = &cd_libs()[i / added.way_count];

	if (added.ways)
		snprintf(label, size, "%s, %s", lib->label, added.ways[i % added.way_count]);
	else
		snprintf(label, size, "%s", lib->label);
}

static void suite_name(int i, char *buf, size_t size)
{
	char label[sizeof cd_selected.label];

	name_selection(i, label, sizeof label);
	snprintf(buf, size, "%s: %s", added.title, label);
}

static void select_suite(int i)
{
	cd_selected.lib = &cd_libs()[i / added.way_count];
	cd_selected.way = i % added.way_count;
	name_selection(i, cd_selected.label, sizeof cd_selected.label);
}

static void register_suites(void)
{
	ts_add_selected_suites(CD_LIB_COUNT * added.way_count, suite_name, select_suite,
			       added.tests);
}

int cd_main(int argc, char **argv, const struct ts_scenario *scenarios, const char *title,
	    const char *const *ways, const struct ts_test *tests)
{
	added.title = title;
	added.ways = ways;
	added.way_count = 1;
	while (ways && ways[added.way_count])
		added.way_count++;
	added.tests = tests;
	return ts_main(argc, argv, scenarios, register_suites);
}

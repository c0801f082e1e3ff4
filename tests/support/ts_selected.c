/*
 * The same tests run once per selection (a library, an ABI, a way to
 * find it), each in a suite of its own: test_support.h,
 * ts_add_selected_suites. CUnit's init function takes no argument, so the
 * one init here asks CUnit which suite is starting.
 */
#include <stdio.h>
#include <stdlib.h>

#include "test_support.h"

static struct {
	int count;
	CU_pSuite suites[TS_SELECTIONS];
	void (*select)(int i);
} selected;

static int select_current(void)
{
	CU_pSuite now = CU_get_current_suite();

	for (int i = 0; i < selected.count; i++)
		if (selected.suites[i] == now) {
			selected.select(i);
			return 0;
		}
	return 1;
}

void ts_add_selected_suites(int count, void (*name)(int i, char *buf, size_t size),
			    void (*select)(int i), const struct ts_test *tests)
{
	if (count > TS_SELECTIONS) {
		fprintf(stderr, "ts_add_selected_suites: %d selections, TS_SELECTIONS is %d\n",
			count, TS_SELECTIONS);
		abort();
	}
	selected.select = select;
	for (int i = 0; i < count; i++) {
		char title[128];
		CU_pSuite s;

		name(i, title, sizeof title);
		if (!title[0])
			continue;
		s = CU_add_suite(title, select_current, NULL);
		selected.suites[selected.count++] = s;
		for (const struct ts_test *t = tests; s && t->name; t++)
			CU_add_test(s, t->name, t->run);
	}
}

/* The tests a file registers where it writes them (TS_TEST), in the order
 * of their lines: constructors run in an order C does not fix. */
#include <stdio.h>
#include <stdlib.h>

#include "test_support.h"

enum { MOST_TESTS = 64 };

static struct ts_test tests[MOST_TESTS + 1];
static int lines[MOST_TESTS];
static int count;

void ts_register_test(const char *name, CU_TestFunc run, int line)
{
	int at = count;

	if (count == MOST_TESTS) {
		fprintf(stderr, "ts_register_test: more than %d tests in one binary\n", MOST_TESTS);
		abort();
	}
	while (at > 0 && lines[at - 1] > line) {
		tests[at] = tests[at - 1];
		lines[at] = lines[at - 1];
		at--;
	}
	tests[at] = (struct ts_test){name, run};
	lines[at] = line;
	count++;
}

const struct ts_test *ts_registered_tests(void)
{
	return tests; /* the entry after the last is {NULL, NULL} */
}

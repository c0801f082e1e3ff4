/* What the export suites share: the stub ABI under test and its files. */
#define _GNU_SOURCE
#include <stdio.h>

#include "exports.h"

int ex_abi;

void ex_symbols(struct ts_names *s, int with_info)
{
	CU_ASSERT_EQUAL_FATAL(ts_names_read_list(s, ct_symbols_file(ex_abi)), 0);
	if (with_info) {
		ts_names_add(s, "cudastub_cudart_info");
		ts_names_add(s, "cudastub_cudart_load");
	}
}

void ex_prototyped(struct ts_names *s)
{
	static struct ts_abi_fn fns[TS_ABI_MAX];
	int n = ts_abi_functions(ct_abi_record(ex_abi), fns, TS_ABI_MAX);

	CU_ASSERT_FATAL(n > 0);
	for (int i = 0; i < n; i++)
		ts_names_add(s, fns[i].name);
}

const char *ex_stub(int shim)
{
	const char *path = shim ? ct_abi_shim(ex_abi) : ct_abi_stub(ex_abi);
	char why[256];

	if (path)
		return path;
	if (shim && ex_abi == CT_ABI_MAJOR) { /* a choice, not a missing prerequisite */
		printf("SKIP: no shim in this build (CUDASTUB_BUILD_SHIMS=OFF)\n");
		return NULL;
	}
	snprintf(why, sizeof why,
		 "the %d-ABI runtime %s was not built; run tests/fixtures/fetch.sh before "
		 "configuring",
		 ex_abi, shim ? "shim" : "stub");
	ts_unavailable(why);
	return NULL;
}

static const int abis[] = {CT_ABI_MAJOR, 12, 11};

#define SELECT(i)                                                                                  \
	static int select_##i(void)                                                                \
	{                                                                                          \
		ex_abi = abis[i];                                                                  \
		return 0;                                                                          \
	}
SELECT(0)
SELECT(1)
SELECT(2)
static int (*const selectors[])(void) = {select_0, select_1, select_2};

void ex_register(const char *title, const struct ex_test *tests, size_t count)
{
	for (size_t i = 0; i < sizeof abis / sizeof *abis; i++) {
		char name[96];
		CU_pSuite suite;

		if (i > 0 && abis[i] == CT_ABI_MAJOR)
			continue; /* the build's own ABI is suite 0 */
		snprintf(name, sizeof name, "%s: %d-ABI", title, abis[i]);
		suite = CU_add_suite(name, selectors[i], NULL);
		for (size_t t = 0; suite && t < count; t++)
			CU_add_test(suite, tests[t].name, tests[t].fn);
	}
}

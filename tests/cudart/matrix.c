/*
 * The runtime stub's ABI matrix: the stub built on the 11.8, 12.4 and 13.0
 * headers, each with the real 11.8, 12.4 and 13.0 runtimes loaded (nine
 * cells; on aarch64 the six of the arm64 11.8 and 12.4 runtimes). In each
 * cell every export is what the ABI's gating table says for that major
 * (tests/support/ts_matrix.h): forwarded names exported by the runtime,
 * routes that reach it, and every gated export, called, answering 36
 * (older runtime), 801 (newer runtime dropped it, or its ABI differs)
 * without calling the runtime. cudaRuntimeGetVersion through the stub
 * gives what the runtime gives.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>

#include "cudart_test.h"
#include "ts_matrix.h"

static const struct ts_matrix_lib cudart = {"cudart", "cudaRuntimeGetVersion", 1};

/* The ABI records the stubs are built from, by major. */
static const char *abi_version(int abi)
{
	return abi == 11 ? "11.8" : abi == 12 ? "12.4" : "13.0";
}

static void row(int abi)
{
	const char *stub = ct_abi_stub(abi);
	char why[128];

	if (!stub) {
		snprintf(why, sizeof why,
			 "no %d-ABI runtime stub: fetch the headers "
			 "(tests/fixtures/fetch.sh), then configure again",
			 abi);
		ts_unavailable(why);
		return;
	}
	for (int i = 0; i < CT_RUNTIME_COUNT; i++) {
		const struct ct_runtime *rt = &ct_runtimes[i];
		struct ts_matrix_cell cell = {&cudart, abi,	  abi_version(abi), stub,
					      NULL,    rt->major, rt->version};
		char file[PATH_MAX], label[64];

		if (!ct_runtime_file(rt, file, sizeof file))
			continue;
		cell.library = file;
		snprintf(label, sizeof label, "%d-ABI stub, runtime %s", abi, rt->version);
		ts_matrix_run(label, &cell, NULL);
	}
	printf("\n");
}

static void test_abi_13(void)
{
	row(13);
}

static void test_abi_12(void)
{
	row(12);
}

static void test_abi_11(void)
{
	row(11);
}

static const struct ts_test tests[] = {
	{"13-ABI stub on runtimes 11.8, 12.4, 13.0", test_abi_13},
	{"12-ABI stub on runtimes 11.8, 12.4, 13.0", test_abi_12},
	{"11-ABI stub on runtimes 11.8, 12.4, 13.0", test_abi_11},
	{NULL, NULL},
};

static const struct ts_suite suite = {"cudart matrix: stub ABI x real runtime", NULL, NULL, tests};

static const struct ts_scenario scenarios[] = {TS_MATRIX_SCENARIO, {NULL, NULL}};

int main(int argc, char **argv)
{
	return ts_main_suite(argc, argv, scenarios, &suite);
}

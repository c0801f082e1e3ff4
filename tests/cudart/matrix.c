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

static void row(int abi)
{
	const char *stub = ct_abi_stub(abi);

	if (!stub) {
		ts_matrix_no_stub(abi, "runtime");
		return;
	}
	for (int i = 0; i < CT_RUNTIME_COUNT; i++) {
		const struct ct_runtime *rt = &ct_runtimes[i];
		struct ts_matrix_cell cell = {&cudart,	  abi,	ts_matrix_abi_version(abi),
					      stub,	  NULL, rt->major,
					      rt->version};
		char file[PATH_MAX], label[64];

		if (!ct_runtime_file(rt, file, sizeof file))
			continue;
		cell.library = file;
		snprintf(label, sizeof label, "%d-ABI stub, runtime %s", abi, rt->version);
		ts_matrix_run(label, &cell, NULL);
	}
	printf("\n");
}

int main(int argc, char **argv)
{
	static const struct ts_matrix_suite suite = {"cudart matrix: stub ABI x real runtime",
						     "runtimes 11.8, 12.4, 13.0", row, NULL, NULL};

	return ts_matrix_main(argc, argv, &suite);
}

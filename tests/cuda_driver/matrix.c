/*
 * The driver stub's ABI matrix: the stub built on the 11.8, 12.4 and 13.0
 * headers, each with Debian's real driver 550 loaded (it supports CUDA
 * 12.4, so the driver's major is 12). In each cell every export is what
 * the ABI's gating table says for major 12 (tests/support/ts_matrix.h):
 * forwarded names exported by the driver, and every gated export, called,
 * answering 500 (the driver lacks it) or 801 (its ABI differs) without
 * calling the driver. cuDriverGetVersion through the stub gives what the
 * driver gives.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "cuda_driver_test.h"
#include "ts_matrix.h"

static const struct ts_matrix_lib cuda = {"cuda", "cuDriverGetVersion", 1};

/* The driver stub of an ABI, or NULL when it was not built. */
static const char *stub_of(int abi)
{
	static char paths[3][PATH_MAX];
	char *path = paths[abi % 3];

	if (abi == CD_BUILD_ABI)
		return cd_stub();
	snprintf(path, PATH_MAX, "%s/abi-%d/libcuda_stub.so", CD_ABI_STUBS_DIR, abi);
	return access(path, F_OK) == 0 ? path : NULL;
}

static void row(int abi)
{
	struct ts_matrix_cell c = {&cuda, abi,	 ts_matrix_abi_version(abi), stub_of(abi), NULL,
				   12,	  "12.4"};
	char file[PATH_MAX], label[64];

	if (!c.stub) {
		ts_matrix_no_stub(abi, "driver");
		return;
	}
	if (!cd_driver_file(file, sizeof file))
		return;
	c.library = file;
	snprintf(label, sizeof label, "%d-ABI stub, driver 550 (12.4)", abi);
	ts_matrix_run(label, &c, NULL);
	printf("\n");
}

int main(int argc, char **argv)
{
	static const struct ts_matrix_suite suite = {"driver matrix: stub ABI x real driver",
						     "driver 550", row, NULL, NULL};

	return ts_matrix_main(argc, argv, &suite);
}

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

static void cell(int abi, const char *version)
{
	struct ts_matrix_cell c = {&cuda, abi, version, stub_of(abi), NULL, 12, "12.4"};
	char file[PATH_MAX], label[64], why[128];

	if (!c.stub) {
		snprintf(why, sizeof why,
			 "no %d-ABI driver stub: fetch the headers "
			 "(tests/fixtures/fetch.sh), then configure again",
			 abi);
		ts_unavailable(why);
		return;
	}
	if (!cd_driver_file(file, sizeof file))
		return;
	c.library = file;
	snprintf(label, sizeof label, "%d-ABI stub, driver 550 (12.4)", abi);
	ts_matrix_run(label, &c, NULL);
	printf("\n");
}

static void test_abi_13(void)
{
	cell(13, "13.0");
}

static void test_abi_12(void)
{
	cell(12, "12.4");
}

static void test_abi_11(void)
{
	cell(11, "11.8");
}

static const struct ts_test tests[] = {
	{"13-ABI stub on driver 550", test_abi_13},
	{"12-ABI stub on driver 550", test_abi_12},
	{"11-ABI stub on driver 550", test_abi_11},
	{NULL, NULL},
};

static const struct ts_suite suite = {"driver matrix: stub ABI x real driver", NULL, NULL, tests};

static const struct ts_scenario scenarios[] = {TS_MATRIX_SCENARIO, {NULL, NULL}};

int main(int argc, char **argv)
{
	return ts_main_suite(argc, argv, scenarios, &suite);
}

/*
 * A cross build exports what the native build exports: every stub, shim
 * and other-ABI stub of this (aarch64) build against the same file of an
 * x86-64 build of the same sources (CUDASTUB_NATIVE_BUILD), symbol by
 * symbol, with its kind and version node as nm -D shows them. (A build
 * without assembly forwarders would lose the runtime's exports that no
 * header declares; tests/cudart's wrapper-shape suite counts them.)
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "test_support.h"
#include "ts_elf.h"

#ifndef CROSS_NATIVE_BUILD
#define CROSS_NATIVE_BUILD ""
#endif

/* The stubs both builds make, relative to the build folder. */
static const char *const files[] = {
	"stubs/nvrtc/libnvrtc_stub.so",
	"stubs/cudart/libcudart_stub.so",
	"stubs/cuda_driver/libcuda_stub.so",
	"shim/libnvrtc.so.13",
	"shim/libcudart.so.13",
	"shim/driver/libcuda.so.1",
	"tests/abi-12/libnvrtc_stub.so",
	"tests/abi-12/libcudart_stub.so",
	"tests/abi-12/libcuda_stub.so",
	"tests/abi-12/shim/libnvrtc.so.12",
	"tests/abi-12/shim/libcudart.so.12",
	"tests/abi-12/shim/driver/libcuda.so.1",
	"tests/abi-11/libnvrtc_stub.so",
	"tests/abi-11/libcudart_stub.so",
	"tests/abi-11/libcuda_stub.so",
	"tests/abi-11/shim/libnvrtc.so.11.2",
	"tests/abi-11/shim/libcudart.so.11.0",
	"tests/abi-11/shim/driver/libcuda.so.1",
};

static void test_same_exports(void)
{
	int compared = 0, total = 0;

	if (!CROSS_NATIVE_BUILD[0]) {
		ts_unavailable("no native build to compare with; configure with "
			       "-DCUDASTUB_NATIVE_BUILD=<an x86-64 build folder of these sources>");
		return;
	}
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		char here[PATH_MAX], there[PATH_MAX], label[PATH_MAX + 32];
		struct ts_names mine = {0}, native = {0};

		snprintf(here, sizeof here, "%s/%s", ts_build_dir(), files[i]);
		snprintf(there, sizeof there, "%s/%s", CROSS_NATIVE_BUILD, files[i]);
		if (access(here, F_OK) != 0 || access(there, F_OK) != 0) {
			char why[2 * PATH_MAX + 64];

			snprintf(why, sizeof why, "%s or %s missing: build both first", here,
				 there);
			ts_unavailable(why);
			continue;
		}
		CU_ASSERT_EQUAL(ts_names_dynamic_symbols(&mine, here), 0);
		CU_ASSERT_EQUAL(ts_names_dynamic_symbols(&native, there), 0);
		snprintf(label, sizeof label, "%s, this build against the native one", files[i]);
		TS_EXPECT_SAME_NAMES(&native, &mine, label);
		CU_ASSERT(mine.count > 10);
		printf("\n  %-40s %4zu exported here, %4zu in the native build", files[i],
		       mine.count, native.count);
		compared++;
		total += (int)mine.count;
		ts_names_free(&mine);
		ts_names_free(&native);
	}
	printf("\n  %d files, %d exports, the same in both builds\n", compared, total);
}

static void register_suites(void)
{
	CU_pSuite s = CU_add_suite("cross build exports", NULL, NULL);

	CU_add_test(s, "every stub exports what the native build's exports", test_same_exports);
}

int main(int argc, char **argv)
{
	return ts_main(argc, argv, NULL, register_suites);
}

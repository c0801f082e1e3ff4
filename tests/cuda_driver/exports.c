/*
 * What the driver stub exports, and what its exports are made of:
 *
 *  - nm -D --defined-only of libcuda_stub.so is cuda.symbols plus
 *    cudastub_cuda_info and cudastub_cuda_load, nothing else; the shim
 *    <build>/shim/driver/libcuda.so.1 the same, under SONAME libcuda.so.1 and with
 *    no symbol versions at all (no VERDEF), as the real driver has none;
 *  - cuda.symbols is exactly the functions of the build's ABI record (every
 *    export has a prototype: the driver stub has no opaque forwarders);
 *  - the cost contract, from the disassembly: every export is the forwarder
 *    of stubs/loader/bind/forwarder.h (x86-64: one jmp *slot(%rip); aarch64:
 *    adrp/ldr/br) through a slot of its own,
 *    whatever its prototype (char and short arguments, stack arguments,
 *    structs by value). Not checked in a sanitizer build, whose
 *    instrumentation changes every function.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "cuda_driver_test.h"
#include "ts_elf.h"

#ifndef CD_SANITIZE
#define CD_SANITIZE ""
#endif

/* Exported names of the 13.0 headers' ABI: every name cuda.h declares. */
enum { CD_EXPORTS_13 = 673 };

static void symbols(struct ts_names *s, int with_info)
{
	CU_ASSERT_EQUAL_FATAL(ts_names_read_list(s, cd_symbols_file()), 0);
	if (with_info) {
		ts_names_add(s, "cudastub_cuda_info");
		ts_names_add(s, "cudastub_cuda_load");
	}
}

static int abi_is_13(void)
{
	return strstr(cd_abi_record(), "/cuda-13.") != NULL;
}

static void check_exports(const char *lib, const char *label)
{
	struct ts_names want = {0}, got = {0};
	int unversioned = -1;

	symbols(&want, 1);
	CU_ASSERT_EQUAL(ts_names_exported(&got, lib, NULL, &unversioned), 0);
	TS_EXPECT_SAME_NAMES(&want, &got, label);
	if (abi_is_13())
		CU_ASSERT_EQUAL(got.count, CD_EXPORTS_13 + 2);
	ts_names_free(&want);
	ts_names_free(&got);
}

static void test_stub_exports(void)
{
	check_exports(cd_stub(), "libcuda_stub.so");
}

static void test_shim_exports(void)
{
	const struct cd_lib *shim = &cd_libs()[1];
	struct ts_names soname = {0}, verdef = {0}, none = {0};

	if (!cd_lib_path(shim))
		return;
	CU_ASSERT_PTR_NOT_NULL(strstr(shim->path, "/driver/libcuda.so.1"));
	check_exports(shim->path, "shim/driver/libcuda.so.1");
	CU_ASSERT_EQUAL(ts_names_dynamic(&soname, shim->path, "SONAME"), 0);
	CU_ASSERT_EQUAL(soname.count, 1);
	CU_ASSERT(ts_names_has(&soname, "libcuda.so.1"));
	/* no version node, and so no symbol carries a version */
	CU_ASSERT_EQUAL(ts_names_dynamic(&verdef, shim->path, "VERDEF"), 0);
	TS_EXPECT_SAME_NAMES(&none, &verdef, "shim/driver/libcuda.so.1 VERDEF entries");
	ts_names_free(&soname);
	ts_names_free(&verdef);
}

static void test_symbols_are_the_record(void)
{
	static struct ts_abi_fn fns[TS_ABI_MAX];
	struct ts_names want = {0}, got = {0};
	int n = ts_abi_functions(cd_abi_record(), fns, TS_ABI_MAX);

	CU_ASSERT_FATAL(n > 0);
	for (int i = 0; i < n; i++) {
		ts_names_add(&want, fns[i].name);
		CU_assertImplementation(!strcmp(fns[i].ret, "CUresult"), __LINE__, fns[i].name,
					__FILE__, "returns CUresult", CU_FALSE);
	}
	symbols(&got, 0);
	TS_EXPECT_SAME_NAMES(&want, &got, "cuda.symbols vs the ABI record's functions");
	if (abi_is_13())
		CU_ASSERT_EQUAL(got.count, CD_EXPORTS_13);
	printf("  %zu exported names (%s)\n", got.count, cd_abi_record());
	ts_names_free(&want);
	ts_names_free(&got);
}

/* ---- the wrappers' shape ---- */

static void check_shape(const char *lib)
{
	struct ts_forwarders f = {0};
	struct ts_names names = {0};
	char counts[32];
	int visited;

	if (!lib)
		return;
	symbols(&names, 0);
	visited = ts_each_shape(lib, &names, ts_judge_forwarder, &f);
	CU_ASSERT(visited >= 0);
	CU_ASSERT_EQUAL(visited, (int)names.count);
	CU_ASSERT_EQUAL(f.judged, (int)names.count);
	/* the slots are named when the symbol table is there (not stripped) */
	CU_ASSERT(f.slots.count == 0 || (int)f.slots.count == f.judged);
	snprintf(counts, sizeof counts, "%d wrappers", f.judged);
	ts_forwarders_print(&f, lib, counts);
	ts_names_free(&names);
	ts_forwarders_free(&f);
}

static void test_stub_shape(void)
{
	check_shape(cd_stub());
}

static void test_shim_shape(void)
{
	check_shape(cd_lib_path(&cd_libs()[1]));
}

static void register_suites(void)
{
	CU_pSuite s = CU_add_suite("driver stub exports", NULL, NULL);

	CU_add_test(s, "cuda.symbols is the ABI record's functions, each returning CUresult",
		    test_symbols_are_the_record);
	CU_add_test(s, "libcuda_stub.so exports cuda.symbols and its info entry points",
		    test_stub_exports);
	CU_add_test(s, "shim/driver/libcuda.so.1 exports the same, with no symbol versions",
		    test_shim_exports);
	if (TS_FORWARDER_KNOWN && !CD_SANITIZE[0]) {
		s = CU_add_suite("driver stub wrapper shape", NULL, NULL);
		CU_add_test(s, "stub exports are tail jumps through their own slots",
			    test_stub_shape);
		CU_add_test(s, "shim exports are tail jumps through their own slots",
			    test_shim_shape);
		return;
	}
	printf("SKIP: wrapper shape: x86-64 and aarch64 builds without sanitizers only "
	       "(this: '%s')\n",
	       CD_SANITIZE);
}

int main(int argc, char **argv)
{
	return ts_main(argc, argv, NULL, register_suites);
}

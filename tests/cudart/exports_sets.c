/*
 * The exported set, four ways: the stub's and the shim's nm -D against
 * cudart.symbols; cudart.symbols against the committed export list and
 * against nm -D of the real runtime of the same major; and which exports
 * have a prototype in the ABI record (all but the opaque forwarders).
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "exports.h"

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static const char *soname(int major)
{
	return major == 11   ? "libcudart.so.11.0"
	       : major == 12 ? "libcudart.so.12"
			     : "libcudart.so.13";
}

static void check_library(const char *lib, const char *node)
{
	struct ts_names want = {0}, got = {0};
	int unversioned = -1;

	ex_symbols(&want, 1);
	CU_ASSERT_EQUAL(ts_names_exported(&got, lib, node, &unversioned), 0);
	TS_EXPECT_SAME_NAMES(&want, &got, base_name(lib));
	if (node)
		CU_ASSERT_EQUAL(unversioned, 0);
	if (ex_abi == 13)
		CU_ASSERT_EQUAL(got.count, 422 + 2);
	ts_names_free(&want);
	ts_names_free(&got);
}

void ex_test_stub_exports(void)
{
	const char *stub = ex_stub(0);

	/* the real library's version node, as the shim's: a binary patched
	 * from libcudart.so.N to the stub finds its versioned references */
	if (stub)
		check_library(stub, soname(ex_abi));
}

void ex_test_shim_exports(void)
{
	const char *shim = ex_stub(1);

	if (!shim)
		return;
	CU_ASSERT_STRING_EQUAL(base_name(shim), soname(ex_abi));
	check_library(shim, base_name(shim));
}

void ex_test_committed_list(void)
{
	struct ts_names symbols = {0}, committed = {0};
	char label[64];

	ex_symbols(&symbols, 0);
	CU_ASSERT_EQUAL_FATAL(ts_names_read_list(&committed, ct_exports_file(ex_abi)), 0);
	snprintf(label, sizeof label, "cuda-%d/cudart.symbols vs the exports list", ex_abi);
	TS_EXPECT_SAME_NAMES(&committed, &symbols, label);
	if (ex_abi == 13)
		CU_ASSERT_EQUAL(symbols.count, 422);
	ts_names_free(&symbols);
	ts_names_free(&committed);
}

void ex_test_real_exports(void)
{
	const struct ct_runtime *rt = ct_runtime_of_major(ex_abi);
	struct ts_names symbols = {0}, real = {0};
	char file[PATH_MAX], label[PATH_MAX + 32];
	int unversioned = -1;

	if (!rt || !ct_runtime_file(rt, file, sizeof file))
		return;
	ex_symbols(&symbols, 0);
	CU_ASSERT_EQUAL(ts_names_exported(&real, file, soname(ex_abi), &unversioned), 0);
	snprintf(label, sizeof label, "nm -D %s vs cuda-%d/cudart.symbols", file, ex_abi);
	TS_EXPECT_SAME_NAMES(&real, &symbols, label);
	/* every name under the version node the shim defines too */
	CU_ASSERT_EQUAL(unversioned, 0);
	ts_names_free(&symbols);
	ts_names_free(&real);
}

void ex_test_prototypes(void)
{
	static const char *const opaque_13[] = {"__cudaGetProcAddress", "__cudaRegisterHostVar",
						"__cudaRegisterUnifiedTable"};
	struct ts_names symbols = {0}, prototyped = {0}, opaque = {0}, want = {0};

	ex_symbols(&symbols, 0);
	ex_prototyped(&prototyped);
	for (size_t i = 0; i < prototyped.count; i++)
		CU_assertImplementation(ts_names_has(&symbols, prototyped.names[i]), __LINE__,
					prototyped.names[i], __FILE__, "exported", CU_FALSE);
	for (size_t i = 0; i < symbols.count; i++)
		if (!ts_names_has(&prototyped, symbols.names[i]))
			ts_names_add(&opaque, symbols.names[i]);
	printf("  %d-ABI: %zu exports, %zu with a prototype, %zu opaque\n", ex_abi, symbols.count,
	       prototyped.count, opaque.count);
	if (ex_abi == 13) {
		for (size_t i = 0; i < 3; i++)
			ts_names_add(&want, opaque_13[i]);
		TS_EXPECT_SAME_NAMES(&want, &opaque, "13-ABI opaque exports");
		CU_ASSERT_EQUAL(prototyped.count, 419);
	}
	ts_names_free(&symbols);
	ts_names_free(&prototyped);
	ts_names_free(&opaque);
	ts_names_free(&want);
}

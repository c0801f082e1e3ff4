/*
 * What the stub and the shim export, and what an exported wrapper is.
 *
 *  - `nm -D --defined-only` lists exactly the generated nvrtc.symbols plus
 *    cudastub_nvrtc_info and cudastub_nvrtc_load: no loader internals. The
 *    symbols of the stub and of the shim all carry the real library's
 *    version node (the shim's SONAME), which nm also shows as one absolute
 *    symbol of that name.
 *  - The cost contract: each generated wrapper is the forwarder of
 *    forwarder.h, an indirect jump through its slot (x86-64: one
 *    jmp *slot(%rip), optionally after endbr64; aarch64: adrp/ldr/br,
 *    optionally after bti c), then padding.
 *    nvrtcGetErrorString is hand-written and exempt. Not checked in a
 *    sanitizer build, whose instrumentation changes every function.
 */
#define _GNU_SOURCE
#include "loader_test.h"

#include <CUnit/CUnit.h>
#include <string.h>

#include "ts_elf.h"

static void expected_symbols(struct ts_names *s)
{
	CU_ASSERT_EQUAL_FATAL(ts_names_read_list(s, LD_SYMBOLS_FILE), 0);
	ts_names_add(s, "cudastub_nvrtc_info");
	ts_names_add(s, "cudastub_nvrtc_load");
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static void check_exports(const char *lib, const char *node)
{
	struct ts_names want = {0}, got = {0};
	int unversioned;

	expected_symbols(&want);
	CU_ASSERT_EQUAL(ts_names_exported(&got, lib, node, &unversioned), 0);
	TS_EXPECT_SAME_NAMES(&want, &got, base_name(lib));
	CU_ASSERT_EQUAL(unversioned, 0);
	ts_names_free(&want);
	ts_names_free(&got);
}

/* The link-target stub carries the real library's version node too, so a
 * binary patched from libnvrtc.so.N to it loads without a warning. */
static void test_stub_exports(void)
{
	check_exports(ld_stub(), LD_ABI_MAJOR == 11   ? "libnvrtc.so.11.2"
				 : LD_ABI_MAJOR == 12 ? "libnvrtc.so.12"
						      : "libnvrtc.so.13");
}

static void test_shim_exports(void)
{
	check_exports(ld_shim(), base_name(ld_shim()));
}

/* ---- wrapper shape ---- */

static int is_wrapper(const char *name)
{
	return !strncmp(name, "nvrtc", 5) && strcmp(name, "nvrtcGetErrorString");
}

static void judge(const struct ts_function_shape *shape, void *ctx)
{
	int *checked = ctx;

	if (!is_wrapper(shape->name))
		return;
	/* the cost contract: one indirect jump through its slot */
	CU_assertImplementation(shape->kind == TS_FORWARDER_SHAPE, __LINE__,
				ld_fmt("not %s: %s (%d instructions)", TS_FORWARDER_WORDS,
				       shape->name, shape->count),
				__FILE__, "", CU_FALSE);
	(*checked)++;
}

static void check_shape(const char *lib)
{
	struct ts_names want = {0};
	int wrappers = 0, checked = 0;

	expected_symbols(&want);
	for (size_t i = 0; i < want.count; i++)
		wrappers += is_wrapper(want.names[i]);
	CU_ASSERT_TRUE(wrappers > 0);
	CU_ASSERT_TRUE(ts_each_shape(lib, &want, judge, &checked) >= 0);
	CU_ASSERT_EQUAL(checked, wrappers);
	ts_names_free(&want);
}

static void test_stub_wrapper_shape(void)
{
	check_shape(ld_stub());
}

static void test_shim_wrapper_shape(void)
{
	check_shape(ld_shim());
}

/* The checker itself: what it must accept and refuse. */
static void test_shape_checker(void)
{
	char good1[][TS_INSN] = {"mov 0x98c9(%rip),%rax", "jmp *%rax", "nopl 0x0(%rax)"};
	char good2[][TS_INSN] = {"endbr64", "jmp *0x2fe2(%rip)"};
	char good3[][TS_INSN] = {"adrp x16, 59000", "ldr x16, [x16, #304]", "br x16", "nop"};
	char good4[][TS_INSN] = {"bti c", "adrp x16, 59000", "ldr x16, [x16]", "br x16"};
	char bad1[][TS_INSN] = {"push %rbx", "mov 0x98c9(%rip),%rax", "jmp *%rax"};
	char bad2[][TS_INSN] = {"mov 0x98c9(%rip),%rax", "jmp *%rdx"};
	char bad3[][TS_INSN] = {"mov 0x98c9(%rip),%rax", "call *%rax", "ret"};
	char bad4[][TS_INSN] = {"adrp x16, 59000", "ldr x16, [x16, #304]", "br x17"};
	char bad5[][TS_INSN] = {"adrp x16, 59000", "ldr x16, [x16, #304]", "blr x16", "ret"};
	char bad6[][TS_INSN] = {"stp x29, x30, [sp, #-16]!", "adrp x16, 59000",
				"ldr x16, [x16, #304]", "br x16"};

	CU_ASSERT_EQUAL(ts_shape_of(good1, 3), TS_SHAPE_SLOT_JUMP);
	CU_ASSERT_EQUAL(ts_shape_of(good2, 2), TS_SHAPE_RIP_JUMP);
	CU_ASSERT_EQUAL(ts_shape_of(good3, 4), TS_SHAPE_PAGE_JUMP);
	CU_ASSERT_EQUAL(ts_shape_of(good4, 4), TS_SHAPE_PAGE_JUMP);
	CU_ASSERT_EQUAL(ts_shape_of(bad1, 3), TS_SHAPE_OTHER);
	CU_ASSERT_EQUAL(ts_shape_of(bad2, 2), TS_SHAPE_OTHER);
	CU_ASSERT_EQUAL(ts_shape_of(bad3, 3), TS_SHAPE_OTHER);
	CU_ASSERT_EQUAL(ts_shape_of(bad4, 3), TS_SHAPE_OTHER);
	CU_ASSERT_EQUAL(ts_shape_of(bad5, 4), TS_SHAPE_OTHER);
	CU_ASSERT_EQUAL(ts_shape_of(bad6, 4), TS_SHAPE_OTHER);
}

static void register_suites(void)
{
	CU_pSuite s = CU_add_suite("exports", NULL, NULL);

	CU_add_test(s, "stub exports exactly the ABI", test_stub_exports);
	if (ld_shim())
		CU_add_test(s, "shim exports exactly the ABI", test_shim_exports);
	CU_add_test(s, "shape checker", test_shape_checker);
	if (TS_FORWARDER_KNOWN && !LD_SANITIZE[0]) {
		CU_add_test(s, "stub exports are the forwarder: " TS_FORWARDER_WORDS,
			    test_stub_wrapper_shape);
		if (ld_shim())
			CU_add_test(s, "shim exports are the forwarder: " TS_FORWARDER_WORDS,
				    test_shim_wrapper_shape);
	} else {
		printf("SKIP: wrapper shape in a sanitizer build or on an architecture without "
		       "a forwarder (%s)\n",
		       LD_SANITIZE);
	}
}

int main(int argc, char **argv)
{
	return ts_main(argc, argv, NULL, register_suites);
}

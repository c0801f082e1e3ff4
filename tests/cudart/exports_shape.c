/*
 * The cost contract, read from the disassembly: every export but the
 * hand-written registration entry points (which record until the runtime is
 * live, and map the stub's module handles after) is the forwarder of
 * stubs/loader/bind/forwarder.h, through a slot of its own (x86-64: one
 * jmp *slot(%rip); aarch64: adrp/ldr/br), the exports no header declares
 * included.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "exports.h"

#ifndef CT_SANITIZE
#define CT_SANITIZE ""
#endif

struct judging {
	struct ts_names prototyped;
	struct ts_forwarders forwarders;
	int visited, wrappers, opaque, handwritten;
};

/* The spec's `handwritten` names (stubs/cudart/cudart.spec). */
static const char *const handwritten_names[] = {
	"__cudaRegisterFatBinary", "__cudaRegisterFatBinaryEnd", "__cudaUnregisterFatBinary",
	"__cudaRegisterFunction",  "__cudaRegisterVar",		 "__cudaRegisterManagedVar",
	"__cudaRegisterTexture",   "__cudaRegisterSurface",	 "__cudaInitModule",
};

static int handwritten(const char *name)
{
	for (size_t i = 0; i < sizeof handwritten_names / sizeof *handwritten_names; i++)
		if (!strcmp(name, handwritten_names[i]))
			return 1;
	return 0;
}

static void judge(const struct ts_function_shape *shape, void *ctx)
{
	struct judging *j = ctx;

	j->visited++;
	if (handwritten(shape->name)) {
		j->handwritten++;
		return;
	}
	if (!ts_names_has(&j->prototyped, shape->name))
		j->opaque++;
	else
		j->wrappers++;
	ts_judge_forwarder(shape, &j->forwarders);
}

static void check_shape(const char *lib)
{
	struct judging j = {0};
	struct ts_names symbols = {0};
	char counts[64];

	if (!lib)
		return;
	ex_symbols(&symbols, 0);
	ex_prototyped(&j.prototyped);
	CU_ASSERT(ts_each_shape(lib, &symbols, judge, &j) >= 0);
	CU_ASSERT_EQUAL(j.visited, (int)symbols.count);
	CU_ASSERT_EQUAL(j.wrappers + j.opaque + j.handwritten, (int)symbols.count);
	/* 7 registration entry points (9 with the texture and surface
	 * references of 11) */
	CU_ASSERT_EQUAL(j.handwritten, ex_abi == 11 ? 9 : 7);
	/* the slots are named when the symbol table is there (not stripped) */
	CU_ASSERT(j.forwarders.slots.count == 0 ||
		  (int)j.forwarders.slots.count == j.wrappers + j.opaque);
	if (ex_abi == 13)
		CU_ASSERT_EQUAL(j.opaque, 3);
	snprintf(counts, sizeof counts, "%d wrappers, %d opaque", j.wrappers, j.opaque);
	ts_forwarders_print(&j.forwarders, lib, counts);
	ts_names_free(&symbols);
	ts_names_free(&j.prototyped);
	ts_forwarders_free(&j.forwarders);
}

static void test_stub_shape(void)
{
	check_shape(ex_stub(0));
}

static void test_shim_shape(void)
{
	check_shape(ex_stub(1));
}

static void register_suites(void)
{
	static const struct ex_test tests[] = {
		{"stub exports are " TS_FORWARDER_WORDS ", each its own slot", test_stub_shape},
		{"shim exports are " TS_FORWARDER_WORDS ", each its own slot", test_shim_shape},
	};

	if (TS_FORWARDER_KNOWN && !CT_SANITIZE[0]) {
		ex_register("cudart wrapper shape", tests, sizeof tests / sizeof *tests);
		return;
	}
	printf("SKIP: wrapper shape: x86-64 and aarch64 builds without sanitizers only "
	       "(this: '%s')\n",
	       CT_SANITIZE);
}

int main(int argc, char **argv)
{
	return ts_main(argc, argv, NULL, register_suites);
}

/*
 * What the runtime stub exports: one suite per stub ABI (the build's, and
 * the 12- and 11-ABI stubs of tests/abi_stubs.cmake), the same tests in
 * each.
 */
#include "exports.h"

static const struct ex_test tests[] = {
	{"the stub exports cudart.symbols and its info entry points", ex_test_stub_exports},
	{"the shim exports the same under its SONAME's version", ex_test_shim_exports},
	{"cudart.symbols is the committed export list of the real runtime", ex_test_committed_list},
	{"cudart.symbols is what the real runtime exports (nm -D)", ex_test_real_exports},
	{"every export has a prototype in the ABI record but the opaque ones", ex_test_prototypes},
	{"every function cuda_runtime_api.h declares is exported", ex_test_header_functions},
};

static void register_suites(void)
{
	ex_register("cudart exports", tests, sizeof tests / sizeof *tests);
}

int main(int argc, char **argv)
{
	return ts_main(argc, argv, NULL, register_suites);
}

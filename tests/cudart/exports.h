/*
 * The exported set (cudart_exports) and the wrappers' shape
 * (cudart_wrapper_shape), two executables:
 *   exports_common.c  what both share: the ABI under test, its lists, its
 *                     stubs, one suite per stub ABI
 *   exports_main.c    the set tests: exports_sets.c (nm -D of the stubs,
 *                     shims and real runtimes against cudart.symbols and
 *                     the committed export lists) and exports_header.c (the
 *                     header's functions, parsed by the C compiler)
 *   exports_shape.c   each export is a tail jump through its own slot
 * Each test runs for the build's ABI and the 12- and 11-ABI stubs of
 * tests/abi_stubs.cmake.
 */
#ifndef CUDASTUB_CUDART_EXPORTS_H
#define CUDASTUB_CUDART_EXPORTS_H

#include "cudart_test.h"
#include "ts_elf.h"

/* The stub ABI under test (set by each suite's init). */
extern int ex_abi;

/* cudart.symbols of ex_abi, plus the introspection entry points when
 * with_info; a CUnit failure when unreadable. */
void ex_symbols(struct ts_names *s, int with_info);

/* The names the ABI record of ex_abi declares with a prototype. */
void ex_prototyped(struct ts_names *s);

/* A stub of ex_abi (shim: the one under the real SONAME), or NULL after
 * reporting it unavailable. */
const char *ex_stub(int shim);

struct ex_test {
	const char *name;
	void (*fn)(void);
};

/* One suite per stub ABI (the build's, 12, 11), each with every test. */
void ex_register(const char *title, const struct ex_test *tests, size_t count);

void ex_test_stub_exports(void);
void ex_test_shim_exports(void);
void ex_test_committed_list(void);
void ex_test_real_exports(void);
void ex_test_prototypes(void);
void ex_test_header_functions(void);

#endif

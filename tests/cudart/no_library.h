/*
 * The runtime stub without a runtime: CUDASTUB_CUDART_PATH=/nonexistent,
 * or a pin to a major this machine lacks. The parent
 * (no_library_main.c) runs each stub ABI (the build's, and the 12- and
 * 11-ABI stubs of tests/abi_stubs.cmake) in both ways; the children open
 * the stub by path:
 *
 *   no_library_exports.c  every export, called once with zero arguments
 *   no_library_child.c    the probes, the error names and strings, the
 *                         sticky last error, and what info says
 */
#ifndef CUDASTUB_NO_LIBRARY_H
#define CUDASTUB_NO_LIBRARY_H

#include "cudart_test.h"

/* The child's environment. */
#define NL_STUB_VAR    "CT_STUB"    /* the stub to dlopen */
#define NL_SYMBOLS_VAR "CT_SYMBOLS" /* its cudart.symbols */
#define NL_ABI_VAR     "CT_ABI"	    /* the ABI record of its headers */
#define NL_REAL_VAR    "CT_REAL"    /* the real runtime of that major, if any */

/* In a child: the stub named by CT_STUB, opened; NULL after a message. */
void *nl_open_stub(void);

int nl_scenario_every_export(void);		/* no_library_exports.c */
extern const struct ts_scenario nl_scenarios[]; /* no_library_child.c */

#endif

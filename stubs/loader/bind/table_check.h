/*
 * A library's checks, from its rows: every export's type, as its row
 * forwards it, against NVIDIA's declaration in the headers the stub is
 * built with, one _Static_assert per export. A mismatch fails the build,
 * never a test. Included once by each generated <lib>_checks.c, after the
 * stub's header (NVIDIA's headers), which defines first:
 *   CUDASTUB_TABLE_ROWS  its rows file ("curand_rows.h")
 * The rows' format is table_define.h's.
 *
 * Unlike the table's, the checks expand the name they check: a header that
 * maps a name to another by a macro (cudaMemcpy to cudaMemcpy_ptds, under a
 * define the stubs do not set) is checked as a program calling it sees it.
 */
#ifndef CUDASTUB_TABLE_CHECK_H
#define CUDASTUB_TABLE_CHECK_H

/* naming a deprecated function is what checking it takes */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#define CUDASTUB_CHECK_TYPE(...) __VA_ARGS__
#define CUDASTUB_CHECK(declared, type)                                                             \
	_Static_assert(                                                                            \
		__builtin_types_compatible_p(__typeof__(&declared), CUDASTUB_CHECK_TYPE type),     \
		#declared);

#define CUDASTUB_ROW(name, same, later, other, fallback, type) CUDASTUB_CHECK(name, type)
#define CUDASTUB_ROW_X(name, same, later, other, fallback, kind, flags, typed, adapt, route,       \
		       declared, type)                                                             \
	CUDASTUB_CHECK(declared, type)
/* no header declares it: nothing to check it against */
#define CUDASTUB_ROW_OPAQUE(...)
#include CUDASTUB_TABLE_ROWS
#undef CUDASTUB_ROW
#undef CUDASTUB_ROW_X
#undef CUDASTUB_ROW_OPAQUE

#endif

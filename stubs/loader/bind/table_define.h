/*
 * A library's table, slots and forwarders, from its rows. Included once, at
 * its end, by each generated <lib>_table.c, which defines first:
 *   CUDASTUB_TABLE_LIB   the library's short name (curand), for identifiers
 *   CUDASTUB_TABLE_NAME  the same as a string ("curand"), for the assembly
 *   CUDASTUB_TABLE_ROWS  its rows file ("curand_rows.h")
 * and declares its typed fallbacks.
 *
 * A rows file holds one line per export and stub ABI (a line that is not
 * every ABI's is under #if CUDASTUB_ABI_MAJOR), in the order of the F_<name>
 * enum (<lib>_generated.h):
 *   CUDASTUB_ROW(name, (same), (later), (other), FALLBACK, (type))
 *   CUDASTUB_ROW_X(name, (same), (later), (other), FALLBACK, KIND, flags,
 *                  typed, adapt, route, declared, (type))
 *   CUDASTUB_ROW_OPAQUE(name, (same), (later), (other), FALLBACK)
 * same, later and other are the majors of struct cudastub_function
 * (loader_core.h), as a parenthesized list ((0) for none); FALLBACK is
 * CODE, NEGATIVE, ZERO or TYPED (enum cudastub_fallback); KIND is EXPORTED
 * or HANDWRITTEN (the C export is hand-written: the row gets a slot and no
 * assembly export); flags are CUDASTUB_ROW_*; typed, adapt and route are
 * functions or 0 (struct cudastub_row); type is the function type the
 * export is forwarded with, which table_check.h compares with the headers'
 * declaration of declared. CUDASTUB_ROW is CUDASTUB_ROW_X with KIND
 * EXPORTED, the rest 0 and declared the name itself; CUDASTUB_ROW_OPAQUE is
 * an export no header declares (forwarded without a prototype).
 *
 * The rows file is read five times: the names, the rows, the forwarders
 * (whose slots follow one another in the rows' order: forwarder.h), in
 * <lib>_generated.h the enum, and in <lib>_checks.c the checks. An export's name is only ever
 * pasted or quoted, never expanded, so that a header's macro of the same name (cuda.h's cuMemAlloc,
 * for one) cannot change it.
 */
#include <stddef.h>

#include "forwarder.h"
#include "table.h"

#define CUDASTUB_TABLE_CAT_(a, b, c) a##b##c
#define CUDASTUB_TABLE_CAT(a, b, c)  CUDASTUB_TABLE_CAT_(a, b, c)
#define CUDASTUB_TABLE_ID(what)	     CUDASTUB_TABLE_CAT(cudastub_, CUDASTUB_TABLE_LIB, what)

/* (11, 12, 13) as a mask of CUDASTUB_MAJOR_BIT; eight majors at most (the
 * generator refuses more) */
#define CUDASTUB_MAJOR_OR_NONE(m) ((m) ? CUDASTUB_MAJOR_BIT(m) : 0)
#define CUDASTUB_MAJORS_(a, b, c, d, e, f, g, h, ...)                                              \
	(CUDASTUB_MAJOR_OR_NONE(a) | CUDASTUB_MAJOR_OR_NONE(b) | CUDASTUB_MAJOR_OR_NONE(c) |       \
	 CUDASTUB_MAJOR_OR_NONE(d) | CUDASTUB_MAJOR_OR_NONE(e) | CUDASTUB_MAJOR_OR_NONE(f) |       \
	 CUDASTUB_MAJOR_OR_NONE(g) | CUDASTUB_MAJOR_OR_NONE(h))
#define CUDASTUB_MAJORS(...) CUDASTUB_MAJORS_(__VA_ARGS__, 0, 0, 0, 0, 0, 0, 0, 0)
#define CUDASTUB_GATE(same, later, other)                                                          \
	{                                                                                          \
		CUDASTUB_MAJORS same, CUDASTUB_MAJORS later, CUDASTUB_MAJORS other                 \
	}

/* ---- the names, one string after another ---- */
#define CUDASTUB_ROW(name, ...)	       char n_##name[sizeof #name];
#define CUDASTUB_ROW_X(name, ...)      char n_##name[sizeof #name];
#define CUDASTUB_ROW_OPAQUE(name, ...) char n_##name[sizeof #name];
struct cudastub_table_names {
#include CUDASTUB_TABLE_ROWS
};
#undef CUDASTUB_ROW
#undef CUDASTUB_ROW_X
#undef CUDASTUB_ROW_OPAQUE

#define CUDASTUB_ROW(name, ...)	       #name,
#define CUDASTUB_ROW_X(name, ...)      #name,
#define CUDASTUB_ROW_OPAQUE(name, ...) #name,
static const struct cudastub_table_names cudastub_table_names = {
#include CUDASTUB_TABLE_ROWS
};
#undef CUDASTUB_ROW
#undef CUDASTUB_ROW_X
#undef CUDASTUB_ROW_OPAQUE

/* ---- the rows ---- */
/* field and class come pasted (n_<name>, CUDASTUB_FALLBACK_<class>), so
 * that no header's macro can expand them on the way */
#define CUDASTUB_ROW_ENTRY(field, same, later, other, class)                                       \
	{CUDASTUB_GATE(same, later, other),                                                        \
	 offsetof(struct cudastub_table_names, field),                                             \
	 class,                                                                                    \
	 0,                                                                                        \
	 0,                                                                                        \
	 0,                                                                                        \
	 0},
#define CUDASTUB_ROW(name, same, later, other, fallback, type)                                     \
	CUDASTUB_ROW_ENTRY(n_##name, same, later, other, CUDASTUB_FALLBACK_##fallback)
#define CUDASTUB_ROW_OPAQUE(name, same, later, other, fallback)                                    \
	CUDASTUB_ROW_ENTRY(n_##name, same, later, other, CUDASTUB_FALLBACK_##fallback)
#define CUDASTUB_ROW_X(name, same, later, other, fallback, kind, flags, typed, adapt, route, ...)  \
	{CUDASTUB_GATE(same, later, other), offsetof(struct cudastub_table_names, n_##name),       \
	 CUDASTUB_FALLBACK_##fallback,	    flags,                                                 \
	 (cudastub_any_fn)(typed),	    (cudastub_any_fn)(adapt),                              \
	 (cudastub_any_fn)(route)},
const struct cudastub_row CUDASTUB_TABLE_ID(_rows)[] = {
#include CUDASTUB_TABLE_ROWS
};
#undef CUDASTUB_ROW
#undef CUDASTUB_ROW_X
#undef CUDASTUB_ROW_OPAQUE
#undef CUDASTUB_ROW_ENTRY
_Static_assert(sizeof CUDASTUB_TABLE_ID(_rows) / sizeof *CUDASTUB_TABLE_ID(_rows) == F_COUNT,
	       "one row per F_<name>");

/* ---- the forwarders, and the slots in the rows' order ---- */
#define CUDASTUB_KIND_EXPORTED	  CUDASTUB_ROW_FORWARDER
#define CUDASTUB_KIND_HANDWRITTEN CUDASTUB_ROW_SLOT_ONLY
CUDASTUB_SLOTS_BEGIN(CUDASTUB_TABLE_NAME);
#define CUDASTUB_ROW(name, ...)	       CUDASTUB_ROW_FORWARDER(CUDASTUB_TABLE_NAME, #name);
#define CUDASTUB_ROW_OPAQUE(name, ...) CUDASTUB_ROW_FORWARDER(CUDASTUB_TABLE_NAME, #name);
#define CUDASTUB_ROW_X(name, same, later, other, fallback, kind, ...)                              \
	CUDASTUB_KIND_##kind(CUDASTUB_TABLE_NAME, #name);
#include CUDASTUB_TABLE_ROWS
#undef CUDASTUB_ROW
#undef CUDASTUB_ROW_X
#undef CUDASTUB_ROW_OPAQUE
extern _Atomic(void *) CUDASTUB_TABLE_ID(_slots)[] CUDASTUB_HIDDEN;

/* ---- what a row without a function of its own answers, by reason ---- */
#define CUDASTUB_TABLE_CODE(why) (CUDASTUB_TABLE_ID(_library).codes[CUDASTUB_UNAVAILABLE_##why])
static long cudastub_table_code_library(void)
{
	return CUDASTUB_TABLE_CODE(LIBRARY);
}
static long cudastub_table_code_function(void)
{
	return CUDASTUB_TABLE_CODE(FUNCTION);
}
static long cudastub_table_code_abi(void)
{
	return CUDASTUB_TABLE_CODE(ABI);
}
static long cudastub_table_code_removed(void)
{
	return CUDASTUB_TABLE_CODE(REMOVED);
}
static long cudastub_table_negative_library(void)
{
	return -(long)CUDASTUB_TABLE_CODE(LIBRARY);
}
static long cudastub_table_negative_function(void)
{
	return -(long)CUDASTUB_TABLE_CODE(FUNCTION);
}
static long cudastub_table_negative_abi(void)
{
	return -(long)CUDASTUB_TABLE_CODE(ABI);
}
static long cudastub_table_negative_removed(void)
{
	return -(long)CUDASTUB_TABLE_CODE(REMOVED);
}

/* ---- the table, and its address where the bind finds it (loader_bind.c):
 * the section holds pointers, not the tables, so that the tables of
 * several libraries linked into one object (libcudastub.so) lie in it
 * without the padding that each table's own alignment would put between
 * them ---- */
static const struct cudastub_table cudastub_table = {
	.lib = &CUDASTUB_TABLE_ID(_library),
	.slots = CUDASTUB_TABLE_ID(_slots),
	.rows = CUDASTUB_TABLE_ID(_rows),
	.names = (const char *)&cudastub_table_names,
	.count = F_COUNT,
	.code = {cudastub_table_code_library, cudastub_table_code_function, cudastub_table_code_abi,
		 cudastub_table_code_removed},
	.negative = {cudastub_table_negative_library, cudastub_table_negative_function,
		     cudastub_table_negative_abi, cudastub_table_negative_removed},
};
static const struct cudastub_table *const cudastub_table_entry
	__attribute__((used, section("cudastub_tables"))) = &cudastub_table;

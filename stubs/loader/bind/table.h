/*
 * A library's generated table: one row per export, read by the one bind
 * (loader_bind.c). The generator writes, per library and ABI, the rows as
 * data (<lib>_rows.h, one CUDASTUB_ROW line an export) and
 * table_define.h turns them into this table, the slots and the
 * forwarders; nothing per export is code, except the few typed fallbacks a
 * spec asks for.
 */
#ifndef CUDASTUB_TABLE_H
#define CUDASTUB_TABLE_H

#include <stdatomic.h>
#include <stdint.h>

#include "loader.h"

/* What a call answers when it cannot forward (its row's fallback). The
 * first three need no function of their own: their answer depends only on
 * the library and the reason (cudastub_unavailable), and a handful of
 * returners per library give it. */
enum cudastub_fallback {
	CUDASTUB_FALLBACK_CODE,	    /* the library's code for the reason */
	CUDASTUB_FALLBACK_NEGATIVE, /* that code negated (spec: negative_status) */
	CUDASTUB_FALLBACK_ZERO,	    /* 0 in the return register: void, NULL, an integer */
	CUDASTUB_FALLBACK_TYPED,    /* the row's own function (typed) */
};

/* A row's flags. */
enum {
	/* ask the adapter before the loader (spec: adapter_first) */
	CUDASTUB_ROW_ADAPTER_FIRST = 1,
	/* answered by its typed fallback, nothing loaded (spec: in_place,
	 * error_string_in_place) */
	CUDASTUB_ROW_IN_PLACE = 2,
};

/* Any function, as a row holds it (each kind is called as its own type). */
typedef void (*cudastub_any_fn)(void);

struct cudastub_row {
	struct cudastub_function gate; /* majors: loader_core.h */
	uint32_t name;		       /* offset of the name in the table's names */
	uint8_t fallback;	       /* enum cudastub_fallback */
	uint8_t flags;
	cudastub_any_fn typed; /* CUDASTUB_FALLBACK_TYPED: the fallback itself */
	/* void *adapt(const struct cudastub_release *): the library's one
	 * hook of its translators registered by name (cudart:
	 * adapt_registry.c); X_fn route(const struct cudastub_release *): the
	 * export's other names or translated structs (<lib>_routes.c). Each
	 * answers for the release the bind read, or NULL. */
	cudastub_any_fn adapt, route;
};

/* A function returning a fixed value whatever it is called with: the
 * answer of a row whose fallback needs no function of its own. */
typedef long (*cudastub_returner)(void);

/* One library's table, as the bind finds it: the address of every table is
 * placed in the section cudastub_tables of the object that holds it. */
struct cudastub_table {
	struct cudastub_library *lib;
	_Atomic(void *) *slots; /* count of them, in the order of rows */
	const struct cudastub_row *rows;
	const char *names;
	unsigned long count;
	/* by cudastub_unavailable */
	cudastub_returner code[CUDASTUB_UNAVAILABLE_COUNT];
	cudastub_returner negative[CUDASTUB_UNAVAILABLE_COUNT];
};

/* One value of a library's status type with its name in the headers: a
 * table's status names, from which its cudastub_<lib>_result_name answers. */
struct cudastub_status_name {
	int value;
	const char *name;
};

/* The name of code among count names (the first that has it), or NULL. */
static inline const char *cudastub_status_name_of(const struct cudastub_status_name *names,
						  unsigned long count, int code)
{
	for (unsigned long i = 0; i < count; i++)
		if (names[i].value == code)
			return names[i].name;
	return NULL;
}

/* loader_bind.c: binds the export whose slot this is (the resolvers call
 * it, stubs/arch/<arch>/loader_resolve_<arch>.S); returns what the slot now holds, or what
 * this call jumps to when the answer is not final. */
CUDASTUB_HIDDEN void *cudastub_bind_slot(_Atomic(void *) *slot);
/* The answer of CUDASTUB_FALLBACK_ZERO. */
CUDASTUB_HIDDEN long cudastub_return_zero(void);

#endif /* CUDASTUB_TABLE_H */

/*
 * What the adapters (stubs/cudart/adapt_*.c) are: translators registered by
 * name.
 *
 * A family of adapters (a file) defines translators, each a function with
 * its caller's prototype and the cell where the bind stores the runtime
 * function it calls (struct adapt_translator), and a table of entries
 * (struct adapt_entry): for which export a translator (or a runtime
 * function as it is) stands in, for which caller, on which runtime, and
 * which runtime export it calls. Callers and runtimes are told apart by
 * forms, generated from every major's records (cudart_forms.h): the form
 * of a name in a major is the first major whose headers declare it with
 * that ABI. The build's form of the export is its caller's; the loaded
 * runtime's form of the export (or of the name the entry judges by) is
 * the runtime's.
 *
 * Every adapted row names the one hook, cudastub_cudart_adapt
 * (adapt_registry.c), which the bind (stubs/common/loader_row.c) calls
 * with the release it read once. It takes the first entry for the export
 * that applies and whose callee the runtime exports. Every translator
 * compiles in every build: it spells the runtime's types as the records
 * give them (own structs, checked against cudart_layouts.h), never as one
 * major's headers do. So nothing here depends on the build's ABI: the
 * entries say which way a build translates, and a build runs those whose
 * caller form is its own.
 */
#ifndef CUDASTUB_CUDART_ADAPT_LOADED_H
#define CUDASTUB_CUDART_ADAPT_LOADED_H

#include <stdatomic.h>

#include "cudart_layouts.h"
#include "cudart_stub.h"

/* A translator: the stand-in an export's slot gets, and the runtime
 * function it calls, stored by the registry before the stand-in is handed
 * out. Translators that differ only in the function they call (a name and
 * its _ptsz) are two translators over one body (ADAPT_TWINS). */
struct adapt_translator {
	void *fn;
	_Atomic(void *) callee;
};
#define ADAPT_VIA(f)                                                                               \
	{                                                                                          \
		(void *)(f), NULL                                                                  \
	}

/* The runtime function translator t calls. */
static inline void *adapt_callee(struct adapt_translator *t)
{
	return atomic_load_explicit(&t->callee, memory_order_acquire);
}

/* What an entry asks of the loaded runtime, beside exporting its callee. */
enum adapt_when {
	/* its form of the judged name is `on` (0: any form, even none) */
	ADAPT_ON_FORM,
	/* ... is `on`, and it is another major than the build's (a runtime of
	 * the caller's prototype that answers for another version) */
	ADAPT_ON_OTHER_MAJOR,
	/* its form of the name is older, or newer, than the caller's */
	ADAPT_ON_OLDER,
	ADAPT_ON_NEWER,
};

struct adapt_entry {
	const char *name; /* the export it stands in for; NULL ends a table */
	int caller;	  /* the build's form of name it serves; 0: any */
	enum adapt_when when;
	int on;			      /* the runtime's form it serves (ADAPT_ON_FORM...) */
	const char *judge;	      /* whose form `on` reads; NULL: name's */
	const char *callee;	      /* the runtime export it calls */
	struct adapt_translator *via; /* NULL: the callee as it is */
	const char *how;	      /* its rule, for the debug log */
};

/* An entry, its fields in the order of struct adapt_entry. */
#define ADAPT_ENTRY(name, caller, when, on, judge, callee, via, how)                               \
	{                                                                                          \
		name, caller, when, on, judge, callee, via, how                                    \
	}

/* The families' tables, which adapt_registry.c reads in this order. */
extern const struct adapt_entry cudastub_cudart_adapt_capture_edges[] CUDASTUB_HIDDEN;
extern const struct adapt_entry cudastub_cudart_adapt_capture_info[] CUDASTUB_HIDDEN;
extern const struct adapt_entry cudastub_cudart_adapt_entry_point[] CUDASTUB_HIDDEN;
extern const struct adapt_entry cudastub_cudart_adapt_exec_update[] CUDASTUB_HIDDEN;
extern const struct adapt_entry cudastub_cudart_adapt_graph_edges[] CUDASTUB_HIDDEN;
extern const struct adapt_entry cudastub_cudart_adapt_graph_node_params[] CUDASTUB_HIDDEN;
extern const struct adapt_entry cudastub_cudart_adapt_instantiate[] CUDASTUB_HIDDEN;
extern const struct adapt_entry cudastub_cudart_adapt_launch_attributes[] CUDASTUB_HIDDEN;
extern const struct adapt_entry cudastub_cudart_adapt_mem_location[] CUDASTUB_HIDDEN;

/* Two translator bodies whose runtime functions share a prototype, and
 * which differ only in the function they call: defines first and second,
 * with the parameters params, as body(0, args) and body(1, args). params
 * and args are lists in parentheses. */
#define ADAPT_TWINS(ret, body, first, second, params, args)                                        \
	static ret first params                                                                    \
	{                                                                                          \
		return body(0, ADAPT_LIST args);                                                   \
	}                                                                                          \
	static ret second params                                                                   \
	{                                                                                          \
		return body(1, ADAPT_LIST args);                                                   \
	}
/* The twins of a name and its _ptsz form ([0] legacy stream, [1] _ptsz):
 * body_legacy and body_ptsz. */
#define ADAPT_PTSZ_TWINS(ret, body, params, args)                                                  \
	ADAPT_TWINS(ret, body, body##_legacy, body##_ptsz, params, args)
#define ADAPT_LIST(...) __VA_ARGS__

#endif

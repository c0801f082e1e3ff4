/*
 * What the adapters (stubs/cudart/adapt_*.c) are: translators registered by
 * name.
 *
 * A family of adapters (a file) defines translators, each a function with
 * its caller's prototype and a cell where the bind stores the runtime
 * function it calls, and a table of entries (struct adapt_entry): for
 * which export a translator (or a runtime function as it is) stands in,
 * for which caller, on which runtime, and which runtime export it calls.
 * Callers and runtimes are told apart by forms, generated from every
 * major's records (cudart_forms.h): the form of a name in a major is the
 * first major whose headers declare it with that ABI. The build's form of
 * the export is its caller's; the loaded runtime's form of the export (or
 * of the name the entry judges by) is the runtime's.
 *
 * Every adapted row names the one hook, cudastub_cudart_adapt
 * (adapt_registry.c), which the bind (stubs/loader/bind/loader_bind.c) calls
 * with the release it read once. It asks the export's family (the spec's
 * adapter line names it; ADAPT_FAMILY) for the first of its entries for
 * the export that applies and whose callee the runtime exports. Every translator compiles in every
 * build: it spells the runtime's types as the records give them (own structs, checked against
 * cudart_layouts.h), never as one major's headers do. So nothing here
 * depends on the build's ABI: the entries say which way a build
 * translates, and a build runs those whose caller form is its own.
 *
 * The tables hold numbers only (names by the generated enum below,
 * translators by their family's numbers), so that loading the stub
 * relocates none of them.
 */
#ifndef CUDASTUB_CUDART_ADAPT_LOADED_H
#define CUDASTUB_CUDART_ADAPT_LOADED_H

#include <stdatomic.h>
#include <stddef.h>

#include "cudart_layouts.h"
#include "cudart_stub.h"

/* The adapted names and those the adapters call (the spec's adapter and
 * adapter_calls lines), in the order of cudart_forms.h. */
enum adapt_name {
#define CUDASTUB_FORMS(name, ...) ADAPT_##name,
#include "cudart_forms.h"
#undef CUDASTUB_FORMS
	ADAPT_NAMES,
	ADAPT_SELF = ADAPT_NAMES /* an entry's judge: its own name */
};

/* The runtime function whose cell callee is. */
static inline void *adapt_callee(_Atomic(void *) *callee)
{
	return atomic_load_explicit(callee, memory_order_acquire);
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
	unsigned char name;   /* enum adapt_name: the export it stands in for */
	unsigned char caller; /* the build's form of name it serves; 0: any */
	unsigned char when;   /* enum adapt_when */
	unsigned char on;     /* the runtime's form it serves; 0: any */
	unsigned char judge;  /* whose form `on` reads (ADAPT_SELF: name's) */
	unsigned char callee; /* enum adapt_name: the runtime export it calls */
	signed char via;      /* its family's translator, or ADAPT_AS_IS */
};
enum { ADAPT_AS_IS = -1 /* the callee itself stands in */ };

/* An entry, its fields in the order of struct adapt_entry. */
#define ADAPT_ENTRY(name, caller, when, on, judge, callee, via)                                    \
	{                                                                                          \
		name, caller, when, on, judge, callee, via                                         \
	}

/* What the registry asks each family: the export's name, and its forms in
 * the build and in the loaded runtime (adapt_registry.c). */
struct adapt_request;

/* Defines family's answer to the registry, cudastub_cudart_adapt_<family>:
 * the first of its entries (an array) that applies, its callee stored in
 * callees[via] and translator(via) returned (or the callee, as it is). */
#define ADAPT_FAMILY(family, entries, translator, callees)                                         \
	void *cudastub_cudart_adapt_##family(const struct adapt_request *request)                  \
	{                                                                                          \
		return cudastub_cudart_adapt_choose(request, entries,                              \
						    sizeof entries / sizeof entries[0],            \
						    translator, callees);                          \
	}

CUDASTUB_HIDDEN void *cudastub_cudart_adapt_choose(const struct adapt_request *request,
						   const struct adapt_entry *entries, size_t count,
						   void *(*translator)(int via),
						   _Atomic(void *) *callees);

/* The families the spec names (cudart_forms.h): each an
 * adapt_<family>.c, which ADAPT_FAMILY defines the registry's question of. */
#define ADAPT_DECLARE_FAMILY(family)                                                               \
	CUDASTUB_HIDDEN void *cudastub_cudart_adapt_##family(const struct adapt_request *request);
CUDASTUB_CUDART_ADAPT_FAMILIES(ADAPT_DECLARE_FAMILY)
#undef ADAPT_DECLARE_FAMILY

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

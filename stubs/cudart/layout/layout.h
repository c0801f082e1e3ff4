/*
 * Structs whose layout differs between majors, and the functions that take
 * them, as data (tools/gen_stubs/layouts.py and routes.py write the tables;
 * the spec's `layout`, `layout_field`, `layout_query`, `inout` and
 * `same_function` lines say what they hold).
 *
 * A family is one struct (cudaDeviceProp) with the union of the fields its
 * majors define; a layout is one major's placement of them, field i of
 * every layout being the same field. Copying from one layout to another
 * goes field by field, by name:
 *   - a field both have: its bytes, up to the smaller size, zero-extended;
 *     a field that is itself a family (a struct held by value) is copied by
 *     the same rules, recursively;
 *   - a field only the destination has: 0, or when the struct is reported
 *     by the runtime and the family asks for it, the runtime's answer to a
 *     query (cudaDeviceGetAttribute for a cudaDeviceProp field);
 *   - a field, or the tail of one, only the source has: left out, unless it
 *     is non-zero and its policy refuses that; then nothing is copied and
 *     the caller's call fails with the stub's "ABI differs" code.
 * Bytes no field covers (padding, and fields the spec calls padding: the
 * reserved arrays each major sizes and places its own way) are 0 in the
 * destination. Nothing is written before every field has passed.
 *
 * "give" is the caller's struct on its way to the runtime, "report" the
 * runtime's on its way back to the caller.
 */
#ifndef CUDASTUB_LAYOUT_H
#define CUDASTUB_LAYOUT_H

#include <stdatomic.h>
#include <stdint.h>

#include "loader.h"

/* What a non-zero field does where the other layout has no room for it. */
enum cudastub_layout_policy {
	CUDASTUB_LAYOUT_GIVEN,	/* refused when given, left out when reported */
	CUDASTUB_LAYOUT_REFUSE, /* refused either way */
	CUDASTUB_LAYOUT_DROP	/* left out either way */
};

/* A family: how many fields, and each one's policy (an enum
 * cudastub_layout_policy, by field index; the generated table names the
 * fields in comments). */
struct cudastub_layout_family {
	unsigned field_count;
	const unsigned char *policies;
};

/* Where one field lies in one layout; size 0: this layout lacks it. */
struct cudastub_layout_place {
	uint16_t offset, size;
};

struct cudastub_layout {
	const struct cudastub_layout_family *family;
	int major;
	unsigned size;
	const struct cudastub_layout_place *places; /* [field_count] */
	/* [field_count]: the enumerator this major's headers ask for the field
	 * with, or -1; NULL when the family asks for nothing */
	const int *queries;
	/* [field_count]: the field's own layout when it is a family, else
	 * NULL; NULL when no field is */
	const struct cudastub_layout *const *nested;
};

/* The runtime's query: FUNCTION(&value, enumerator, argument), 0 when it
 * answered (cudaDeviceGetAttribute). */
typedef int (*cudastub_layout_query_fn)(int *value, int enumerator, int argument);

/* layout.c. Giving: room, holding src in the runtime's layout (room has
 * space for all of to->size), or NULL when a policy refused a value.
 * Reporting: dst gets all of to->size; 0, or -1 when a policy refused (dst
 * then untouched). from and to are layouts of one family. */
CUDASTUB_HIDDEN const void *cudastub_layout_give(const struct cudastub_layout *from,
						 const void *src, const struct cudastub_layout *to,
						 void *room);
CUDASTUB_HIDDEN int cudastub_layout_report(const struct cudastub_layout *from, const void *src,
					   const struct cudastub_layout *to, void *dst,
					   cudastub_layout_query_fn query, int argument);

/*
 * One name a function may be called under on one major: as it is (layouts
 * NULL: the same ABI, maybe under another name), or through the function's
 * generated translator, with layouts[j] the runtime's layout of the j-th
 * struct parameter it translates.
 */
struct cudastub_route {
	int major;
	const char *name;
	const struct cudastub_layout *const *layouts;
};

/* What a translator needs of the route chosen: set once by
 * cudastub_route_choose (a few times, alike, when threads race). */
struct cudastub_route_state {
	_Atomic(void *) function;
	_Atomic(const struct cudastub_route *) route;
	_Atomic(void *) query;
};

/* layout_route.c: for the release the bind read, the first route whose
 * name the library exports: its function when it is as it is, else
 * translator (its function, route and the library's query_name stored in
 * state); NULL when none applies. name is the stub's, for the debug log. */
CUDASTUB_HIDDEN void *cudastub_route_choose(const struct cudastub_release *release,
					    const char *name, const struct cudastub_route *routes,
					    struct cudastub_route_state *state, void *translator,
					    const char *query_name);

static inline void *cudastub_route_function(struct cudastub_route_state *state)
{
	return atomic_load_explicit(&state->function, memory_order_acquire);
}

static inline const struct cudastub_layout *const *
cudastub_route_layouts(struct cudastub_route_state *state)
{
	return atomic_load_explicit(&state->route, memory_order_acquire)->layouts;
}

static inline cudastub_layout_query_fn cudastub_route_query(struct cudastub_route_state *state)
{
	cudastub_layout_query_fn query;

	*(void **)&query = atomic_load_explicit(&state->query, memory_order_acquire);
	return query;
}

/* What a translated call returns when a policy refused: the library's
 * "ABI differs" code (cudaErrorNotSupported, CUDA_ERROR_NOT_SUPPORTED). */
static inline int cudastub_route_refused(const struct cudastub_library *lib)
{
	return lib->codes[CUDASTUB_UNAVAILABLE_ABI];
}

#endif /* CUDASTUB_LAYOUT_H */

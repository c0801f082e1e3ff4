/*
 * Graph edge data (cudaGraphEdgeData, 12.3+ and 13.x: 8 bytes {from_port,
 * to_port, type, reserved[5]}) on a runtime that knows only default edges
 * (11.x, 12.0-12.2): the adapters of adapt_graph_edges.c,
 * adapt_capture_edges.c and adapt_graph_node_params.c pass such a call on
 * only when every edge is the default one.
 *
 * The three share one rule for choosing a stand-in (the forms below): a
 * name NAME whose 12.3+ NAME_v2 took an edge-data parameter, which 13's
 * NAME has in its place.
 */
#ifndef CUDASTUB_ADAPT_EDGE_DATA_H
#define CUDASTUB_ADAPT_EDGE_DATA_H

#include <stdatomic.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "adapt_loaded.h"

/* Declared by 12.3+ headers; the 11-ABI stub only passes a NULL pointer to
 * it, to 13's functions. */
struct cudaGraphEdgeData_st;

#if CUDASTUB_ABI_MAJOR >= CUDA_MAJOR_EDGE_DATA_V2
#include "cudart_layouts.h"

_Static_assert(sizeof(cudaGraphEdgeData) == CUDASTUB_LAYOUT_cudaGraphEdgeData_st_12_SIZE &&
		       sizeof(cudaGraphEdgeData) == CUDASTUB_LAYOUT_cudaGraphEdgeData_st_13_SIZE,
	       "cudaGraphEdgeData: 8 bytes in 12.3+ and 13");

/* NULL (which 13 documents as default edges), or every entry all zero,
 * reserved bytes included. */
static inline int edges_are_default(const cudaGraphEdgeData *edgeData, size_t count)
{
	static const cudaGraphEdgeData default_edge;

	for (size_t i = 0; edgeData && i < count; i++)
		if (memcmp(&edgeData[i], &default_edge, sizeof default_edge) != 0)
			return 0;
	return 1;
}
#endif

/* The edge-data form (a 13-ABI NAME, a 12-ABI NAME_v2) where the runtime's
 * plain `name` has no edge data (plain_is_old: a row's word): the
 * translator over it, stored in slot; NULL elsewhere. 12.3+'s NAME_v2 and
 * 13's NAME, the same function under the other name, are generated routes
 * (cudart.spec: same_function), tried before the adapter. */
static inline void *edge_data_form(const struct cudastub_release *release, const char *stub_name,
				   const char *name, int plain_is_old, _Atomic(void *) *slot,
				   void *translator)
{
	return adapt_translate_if(plain_is_old, release, stub_name, name,
				  "the plain form, default edges only", slot, translator);
}

/* The plain form (a 12- or 11-ABI NAME) where the runtime declares NAME
 * with edge data (its row says another ABI: 13): the translator over it,
 * stored in slot, or NULL elsewhere. */
static inline void *plain_form_on_edge_data(const struct cudastub_release *release,
					    const char *name, _Atomic(void *) *slot,
					    void *translator)
{
	return adapt_translate_if(adapt_other_abi(release), release, name, name,
				  "13's, edge data NULL", slot, translator);
}

/* A 12-ABI NAME_v2, which neither the loader nor its route (13's NAME)
 * found, by the row of the plain NAME (plain_row, F_NAME): where NAME has
 * the build's prototype (11.x, 12.0-12.2) the translator over it. It
 * shares the plain name's slot: in a process with one runtime, only one of
 * the two stores there. */
static inline void *v2_form(const struct cudastub_release *release, const char *stub_name,
			    const char *name, int plain_row, _Atomic(void *) *slot,
			    void *translator)
{
	return edge_data_form(release, stub_name, name, adapt_row_same_abi(release, plain_row),
			      slot, translator);
}

#endif

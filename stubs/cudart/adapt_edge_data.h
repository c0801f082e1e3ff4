/*
 * Graph edge data (cudaGraphEdgeData, 12.3+ and 13.x: 8 bytes {from_port,
 * to_port, type, reserved[5]}) on a runtime that knows only default edges
 * (11.x, 12.0-12.2): the translators of adapt_graph_edges.c,
 * adapt_capture_edges.c and adapt_graph_node_params.c pass such a call on
 * only when every edge is the default one.
 *
 * The three share one set of entries: a name NAME whose 12.3+ NAME_v2
 * took an edge-data parameter, which 13's NAME has in its place. 12.3+'s
 * NAME_v2 and 13's NAME, the same function under the other name, are
 * generated routes (cudart.spec: same_function), tried before the
 * adapters, which only translate.
 */
#ifndef CUDASTUB_ADAPT_EDGE_DATA_H
#define CUDASTUB_ADAPT_EDGE_DATA_H

#include <string.h>

#include "adapt_loaded.h"

/* cudaGraphEdgeData as the 12.4 and 13.0 records give it; every build
 * spells it so (11.8's headers have none). */
struct adapt_edge_data {
	unsigned char from_port, to_port, type, reserved[5];
};
_Static_assert(sizeof(struct adapt_edge_data) == CUDASTUB_LAYOUT_cudaGraphEdgeData_st_12_SIZE &&
		       sizeof(struct adapt_edge_data) ==
			       CUDASTUB_LAYOUT_cudaGraphEdgeData_st_13_SIZE &&
		       CUDASTUB_LAYOUT_cudaGraphEdgeData_st_13_type == 2 &&
		       CUDASTUB_LAYOUT_cudaGraphEdgeData_st_13_reserved == 3,
	       "cudaGraphEdgeData: 8 bytes in 12.3+ and 13");

/* NULL (which 13 documents as default edges), or every entry all zero,
 * reserved bytes included. */
static inline int edges_are_default(const struct adapt_edge_data *edgeData, size_t count)
{
	static const struct adapt_edge_data default_edge;

	for (size_t i = 0; edgeData && i < count; i++)
		if (memcmp(&edgeData[i], &default_edge, sizeof default_edge) != 0)
			return 0;
	return 1;
}

/* The entries of an edge-data name (NAME, 13's and 12.3+'s NAME_v2) whose
 * translators call the runtime's NAME: on_plain (edge data to the plain
 * form, on 11.x and 12.0-12.2) and on_13 (the plain form to 13's, edge
 * data NULL). They stand in for
 *   a 13 caller of NAME where the runtime's NAME is the plain form;
 *   an 11 or 12 caller of NAME on 13;
 *   a 12 caller of NAME_v2 where the runtime's NAME is the plain form
 *   (12.3+'s NAME_v2 is the loader's own; 13's NAME, the route's). */
#define ADAPT_EDGE_DATA_ENTRIES(name, name_v2, on_plain, on_13)                                    \
	ADAPT_ENTRY(name, 13, ADAPT_ON_FORM, 11, ADAPT_SELF, name, on_plain),                      \
		ADAPT_ENTRY(name, 11, ADAPT_ON_FORM, 13, ADAPT_SELF, name, on_13),                 \
		ADAPT_ENTRY(name_v2, 12, ADAPT_ON_FORM, 11, name, name, on_plain)

#endif

/*
 * Graph edge data (cudaGraphEdgeData, 12.3+ and 13.x: 8 bytes {from_port,
 * to_port, type, reserved[5]}) on a runtime that knows only default edges
 * (11.x, 12.0-12.2): the adapters of adapt_graph_edges.c,
 * adapt_capture_edges.c and adapt_graph_node_params.c pass such a call on
 * only when every edge is the default one.
 */
#ifndef CUDASTUB_ADAPT_EDGE_DATA_H
#define CUDASTUB_ADAPT_EDGE_DATA_H

#include <string.h>

#include <cuda_runtime_api.h>

/* Declared by 12.3+ headers; the 11-ABI stub only passes a NULL pointer to
 * it, to 13's functions. */
struct cudaGraphEdgeData_st;

#if CUDART_VERSION >= 12000
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

#endif

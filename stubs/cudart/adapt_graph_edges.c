/*
 * Graph edges: five functions that gained edge data.
 *
 * CUDA 11.x and 12.x, the plain names:
 *   cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
 *                                        const cudaGraphNode_t *to, size_t numDependencies);
 *   cudaError_t cudaGraphRemoveDependencies(  the same parameters  );
 *   cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
 *                                 size_t *numEdges);
 *   cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t *pDependencies,
 *                                            size_t *pNumDependencies);
 *   cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node,
 *                                              cudaGraphNode_t *pDependentNodes,
 *                                              size_t *pNumDependentNodes);
 * CUDA 12.3 and later 12.x add NAME_v2, and CUDA 13 has only the plain
 * names with that _v2 prototype: one more parameter before the count,
 *   const cudaGraphEdgeData *edgeData  (Add, Remove)
 *   cudaGraphEdgeData *edgeData        (GetEdges, NodeGetDependencies, NodeGetDependentNodes)
 * cudaGraphEdgeData is 8 bytes {from_port, to_port, type, reserved[5]} in
 * 12.4 and 13.0 alike; all zero is the default edge, the only kind 11.x
 * and 12.0-12.2 know.
 *
 * The rule:
 *   13-ABI stub on 12.3+: 12's NAME_v2 has 13's prototype (the records give
 *     the same canonical types), so it is returned as is.
 *   13-ABI stub on 11.x or 12.0-12.2 (no _v2), and a 12-ABI NAME_v2 there:
 *     Add/Remove call the plain form when edgeData is NULL (13: "default
 *     edge data is assumed") or every entry is all zero; otherwise they
 *     return cudaErrorNotSupported and call nothing. The Get* functions call
 *     the plain form and fill edgeData with zeros: every edge such a runtime
 *     has is a default edge. As 13 does, a non-NULL edgeData without the node
 *     arrays is cudaErrorInvalidValue.
 *   12-ABI or 11-ABI stub on 13, the plain names: 13's function with edgeData
 *     NULL. 13 reads NULL as default edges for Add/Remove, and its Get*
 *     return cudaErrorLossyQuery for a non-default edge, as 12.3+'s plain
 *     forms do.
 *   12-ABI NAME_v2 on 13: 13's plain name, as is (the same prototype).
 */
#define _GNU_SOURCE
#include <string.h>

#include "adapt_edge_data.h"
#include "adapt_loaded.h"

/* The runtime's forms. */
typedef cudaError_t (*add_edges_plain_fn)(cudaGraph_t, const cudaGraphNode_t *,
					  const cudaGraphNode_t *, size_t);
typedef cudaError_t (*get_edges_plain_fn)(cudaGraph_t, cudaGraphNode_t *, cudaGraphNode_t *,
					  size_t *);
typedef cudaError_t (*node_edges_plain_fn)(cudaGraphNode_t, cudaGraphNode_t *, size_t *);
typedef cudaError_t (*add_edges_with_data_fn)(cudaGraph_t, const cudaGraphNode_t *,
					      const cudaGraphNode_t *,
					      const struct adapt_edge_data *, size_t);
typedef cudaError_t (*get_edges_with_data_fn)(cudaGraph_t, cudaGraphNode_t *, cudaGraphNode_t *,
					      struct adapt_edge_data *, size_t *);
typedef cudaError_t (*node_edges_with_data_fn)(cudaGraphNode_t, cudaGraphNode_t *,
					       struct adapt_edge_data *, size_t *);

/* The five functions; each has two translators, ON_PLAIN + f and ON_13 + f.
 * Names that share a prototype share a translator body (ADAPT_TWINS),
 * which takes the index from the first. */
enum edge_function {
	ADD_DEPENDENCIES,
	REMOVE_DEPENDENCIES,
	GET_EDGES,
	NODE_GET_DEPENDENCIES,
	NODE_GET_DEPENDENT_NODES,
	EDGE_FUNCTIONS
};
_Static_assert(REMOVE_DEPENDENCIES == ADD_DEPENDENCIES + 1 &&
		       NODE_GET_DEPENDENT_NODES == NODE_GET_DEPENDENCIES + 1,
	       "twins are adjacent");
enum { ON_PLAIN = 0, ON_13 = EDGE_FUNCTIONS, TRANSLATORS = 2 * EDGE_FUNCTIONS };
static _Atomic(void *) callees[TRANSLATORS];

/* ---- edge data on a runtime without it (11.x, 12.0-12.2) ---- */

/* inline: Add and Remove each stay the whole translator they were. */
static inline cudaError_t add_edges_on_plain(int which, cudaGraph_t graph,
					     const cudaGraphNode_t *from, const cudaGraphNode_t *to,
					     const struct adapt_edge_data *edgeData,
					     size_t numDependencies)
{
	add_edges_plain_fn plain;

	if (!edges_are_default(edgeData, numDependencies))
		return cudaErrorNotSupported;
	*(void **)&plain = adapt_callee(&callees[ON_PLAIN + ADD_DEPENDENCIES + which]);
	return plain(graph, from, to, numDependencies);
}

ADAPT_TWINS(cudaError_t, add_edges_on_plain, add_dependencies_on_plain,
	    remove_dependencies_on_plain,
	    (cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
	     const struct adapt_edge_data *edgeData, size_t numDependencies),
	    (graph, from, to, edgeData, numDependencies))

/* After a successful plain query for room entries: all default edges. */
static void fill_default_edges(struct adapt_edge_data *edgeData, size_t room)
{
	if (edgeData)
		memset(edgeData, 0, room * sizeof *edgeData);
}

static cudaError_t get_edges_on_plain(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
				      struct adapt_edge_data *edgeData, size_t *numEdges)
{
	get_edges_plain_fn plain;
	cudaError_t err;
	size_t room;

	if (edgeData && (!from || !to || !numEdges))
		return cudaErrorInvalidValue;
	room = edgeData ? *numEdges : 0;
	*(void **)&plain = adapt_callee(&callees[ON_PLAIN + GET_EDGES]);
	err = plain(graph, from, to, numEdges);
	if (err == cudaSuccess)
		fill_default_edges(edgeData, room);
	return err;
}

static cudaError_t node_edges_on_plain(int which, cudaGraphNode_t node, cudaGraphNode_t *nodes,
				       struct adapt_edge_data *edgeData, size_t *count)
{
	node_edges_plain_fn plain;
	cudaError_t err;
	size_t room;

	if (edgeData && (!nodes || !count))
		return cudaErrorInvalidValue;
	room = edgeData ? *count : 0;
	*(void **)&plain = adapt_callee(&callees[ON_PLAIN + NODE_GET_DEPENDENCIES + which]);
	err = plain(node, nodes, count);
	if (err == cudaSuccess)
		fill_default_edges(edgeData, room);
	return err;
}

ADAPT_TWINS(cudaError_t, node_edges_on_plain, node_get_dependencies_on_plain,
	    node_get_dependent_nodes_on_plain,
	    (cudaGraphNode_t node, cudaGraphNode_t *nodes, struct adapt_edge_data *edgeData,
	     size_t *count),
	    (node, nodes, edgeData, count))

/* ---- the plain form on 13 ---- */

static cudaError_t add_edges_on_13(int which, cudaGraph_t graph, const cudaGraphNode_t *from,
				   const cudaGraphNode_t *to, size_t numDependencies)
{
	add_edges_with_data_fn with_data;

	*(void **)&with_data = adapt_callee(&callees[ON_13 + ADD_DEPENDENCIES + which]);
	return with_data(graph, from, to, NULL, numDependencies);
}

ADAPT_TWINS(cudaError_t, add_edges_on_13, add_dependencies_on_13, remove_dependencies_on_13,
	    (cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
	     size_t numDependencies),
	    (graph, from, to, numDependencies))

static cudaError_t get_edges_on_13(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
				   size_t *numEdges)
{
	get_edges_with_data_fn with_data;

	*(void **)&with_data = adapt_callee(&callees[ON_13 + GET_EDGES]);
	return with_data(graph, from, to, NULL, numEdges);
}

static cudaError_t node_edges_on_13(int which, cudaGraphNode_t node, cudaGraphNode_t *nodes,
				    size_t *count)
{
	node_edges_with_data_fn with_data;

	*(void **)&with_data = adapt_callee(&callees[ON_13 + NODE_GET_DEPENDENCIES + which]);
	return with_data(node, nodes, NULL, count);
}

ADAPT_TWINS(cudaError_t, node_edges_on_13, node_get_dependencies_on_13,
	    node_get_dependent_nodes_on_13,
	    (cudaGraphNode_t node, cudaGraphNode_t *nodes, size_t *count), (node, nodes, count))

/* The translators by number, for the registry. */
static void *translator(int via)
{
	switch (via) {
	case ON_PLAIN + ADD_DEPENDENCIES: return (void *)add_dependencies_on_plain;
	case ON_PLAIN + REMOVE_DEPENDENCIES: return (void *)remove_dependencies_on_plain;
	case ON_PLAIN + GET_EDGES: return (void *)get_edges_on_plain;
	case ON_PLAIN + NODE_GET_DEPENDENCIES: return (void *)node_get_dependencies_on_plain;
	case ON_PLAIN + NODE_GET_DEPENDENT_NODES: return (void *)node_get_dependent_nodes_on_plain;
	case ON_13 + ADD_DEPENDENCIES: return (void *)add_dependencies_on_13;
	case ON_13 + REMOVE_DEPENDENCIES: return (void *)remove_dependencies_on_13;
	case ON_13 + GET_EDGES: return (void *)get_edges_on_13;
	case ON_13 + NODE_GET_DEPENDENCIES: return (void *)node_get_dependencies_on_13;
	case ON_13 + NODE_GET_DEPENDENT_NODES: return (void *)node_get_dependent_nodes_on_13;
	}
	return NULL;
}

#define EDGE_ENTRIES(name, f)                                                                      \
	ADAPT_EDGE_DATA_ENTRIES(ADAPT_##name, ADAPT_##name##_v2, ON_PLAIN + (f), ON_13 + (f))

static const struct adapt_entry entries[] = {
	EDGE_ENTRIES(cudaGraphAddDependencies, ADD_DEPENDENCIES),
	EDGE_ENTRIES(cudaGraphRemoveDependencies, REMOVE_DEPENDENCIES),
	EDGE_ENTRIES(cudaGraphGetEdges, GET_EDGES),
	EDGE_ENTRIES(cudaGraphNodeGetDependencies, NODE_GET_DEPENDENCIES),
	EDGE_ENTRIES(cudaGraphNodeGetDependentNodes, NODE_GET_DEPENDENT_NODES),
};

ADAPT_FAMILY(graph_edges, entries, translator, callees)

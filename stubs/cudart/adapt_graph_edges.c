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
#include <stdatomic.h>
#include <string.h>

#include "adapt_edge_data.h"
#include "adapt_loaded.h"

/* The runtime's forms, as the runtime declares them; edge data by its
 * struct tag, which the 11.x headers lack (adapt_edge_data.h). */
typedef cudaError_t (*add_edges_plain_fn)(cudaGraph_t, const cudaGraphNode_t *,
					  const cudaGraphNode_t *, size_t);
typedef cudaError_t (*get_edges_plain_fn)(cudaGraph_t, cudaGraphNode_t *, cudaGraphNode_t *,
					  size_t *);
typedef cudaError_t (*node_edges_plain_fn)(cudaGraphNode_t, cudaGraphNode_t *, size_t *);
typedef cudaError_t (*add_edges_with_data_fn)(cudaGraph_t, const cudaGraphNode_t *,
					      const cudaGraphNode_t *,
					      const struct cudaGraphEdgeData_st *, size_t);
typedef cudaError_t (*get_edges_with_data_fn)(cudaGraph_t, cudaGraphNode_t *, cudaGraphNode_t *,
					      struct cudaGraphEdgeData_st *, size_t *);
typedef cudaError_t (*node_edges_with_data_fn)(cudaGraphNode_t, cudaGraphNode_t *,
					       struct cudaGraphEdgeData_st *, size_t *);

/* The five functions, their names in 11 to 13 and (with edge data) in
 * 12.3+, and the
 * runtime functions the translators below call, stored before a translator
 * is handed to the resolver. Names that share a prototype share a
 * translator body (ADAPT_TWINS), which takes the index from the first. */
enum edge_function {
	ADD_DEPENDENCIES,
	REMOVE_DEPENDENCIES,
	GET_EDGES,
	NODE_GET_DEPENDENCIES,
	NODE_GET_DEPENDENT_NODES,
	EDGE_FUNCTIONS
};
static const struct adapt_names names[EDGE_FUNCTIONS] = {
	[ADD_DEPENDENCIES] = {"cudaGraphAddDependencies", "cudaGraphAddDependencies_v2"},
	[REMOVE_DEPENDENCIES] = {"cudaGraphRemoveDependencies", "cudaGraphRemoveDependencies_v2"},
	[GET_EDGES] = {"cudaGraphGetEdges", "cudaGraphGetEdges_v2"},
	[NODE_GET_DEPENDENCIES] = {"cudaGraphNodeGetDependencies",
				   "cudaGraphNodeGetDependencies_v2"},
	[NODE_GET_DEPENDENT_NODES] = {"cudaGraphNodeGetDependentNodes",
				      "cudaGraphNodeGetDependentNodes_v2"},
};
static _Atomic(void *) runtime[EDGE_FUNCTIONS];
_Static_assert(REMOVE_DEPENDENCIES == ADD_DEPENDENCIES + 1 &&
		       NODE_GET_DEPENDENT_NODES == NODE_GET_DEPENDENCIES + 1,
	       "twins are adjacent");

#if CUDASTUB_ABI_MAJOR >= CUDA_MAJOR_EDGE_DATA_V2
/* ---- the edge-data form on a runtime that may lack it (11.x, 12.0-12.2) ---- */

/* inline: Add and Remove each stay the whole translator they were. */
static inline cudaError_t add_edges_on_plain(int which, cudaGraph_t graph,
					     const cudaGraphNode_t *from, const cudaGraphNode_t *to,
					     const cudaGraphEdgeData *edgeData,
					     size_t numDependencies)
{
	add_edges_plain_fn plain;

	if (!edges_are_default(edgeData, numDependencies))
		return cudaErrorNotSupported;
	*(void **)&plain = adapt_slot_function(&runtime[ADD_DEPENDENCIES + which]);
	return plain(graph, from, to, numDependencies);
}

ADAPT_TWINS(cudaError_t, add_edges_on_plain, add_dependencies_on_plain,
	    remove_dependencies_on_plain,
	    (cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
	     const cudaGraphEdgeData *edgeData, size_t numDependencies),
	    (graph, from, to, edgeData, numDependencies))

/* After a successful plain query for room entries: all default edges. */
static void fill_default_edges(cudaGraphEdgeData *edgeData, size_t room)
{
	if (edgeData)
		memset(edgeData, 0, room * sizeof *edgeData);
}

static cudaError_t get_edges_on_plain(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
				      cudaGraphEdgeData *edgeData, size_t *numEdges)
{
	get_edges_plain_fn plain;
	cudaError_t err;
	size_t room;

	if (edgeData && (!from || !to || !numEdges))
		return cudaErrorInvalidValue;
	room = edgeData ? *numEdges : 0;
	*(void **)&plain = adapt_slot_function(&runtime[GET_EDGES]);
	err = plain(graph, from, to, numEdges);
	if (err == cudaSuccess)
		fill_default_edges(edgeData, room);
	return err;
}

static cudaError_t node_edges_on_plain(int which, cudaGraphNode_t node, cudaGraphNode_t *nodes,
				       cudaGraphEdgeData *edgeData, size_t *count)
{
	node_edges_plain_fn plain;
	cudaError_t err;
	size_t room;

	if (edgeData && (!nodes || !count))
		return cudaErrorInvalidValue;
	room = edgeData ? *count : 0;
	*(void **)&plain = adapt_slot_function(&runtime[NODE_GET_DEPENDENCIES + which]);
	err = plain(node, nodes, count);
	if (err == cudaSuccess)
		fill_default_edges(edgeData, room);
	return err;
}

ADAPT_TWINS(cudaError_t, node_edges_on_plain, node_get_dependencies_on_plain,
	    node_get_dependent_nodes_on_plain,
	    (cudaGraphNode_t node, cudaGraphNode_t *nodes, cudaGraphEdgeData *edgeData,
	     size_t *count),
	    (node, nodes, edgeData, count))
#endif

#if CUDASTUB_ABI_MAJOR < CUDA_MAJOR_EDGE_DATA
/* ---- the plain form on 13 ---- */

static cudaError_t add_edges_on_13(int which, cudaGraph_t graph, const cudaGraphNode_t *from,
				   const cudaGraphNode_t *to, size_t numDependencies)
{
	add_edges_with_data_fn with_data;

	*(void **)&with_data = adapt_slot_function(&runtime[ADD_DEPENDENCIES + which]);
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

	*(void **)&with_data = adapt_slot_function(&runtime[GET_EDGES]);
	return with_data(graph, from, to, NULL, numEdges);
}

static cudaError_t node_edges_on_13(int which, cudaGraphNode_t node, cudaGraphNode_t *nodes,
				    size_t *count)
{
	node_edges_with_data_fn with_data;

	*(void **)&with_data = adapt_slot_function(&runtime[NODE_GET_DEPENDENCIES + which]);
	return with_data(node, nodes, NULL, count);
}

ADAPT_TWINS(cudaError_t, node_edges_on_13, node_get_dependencies_on_13,
	    node_get_dependent_nodes_on_13,
	    (cudaGraphNode_t node, cudaGraphNode_t *nodes, size_t *count), (node, nodes, count))
#endif

/* ---- the stub's entry points, by the build's ABI (adapt_edge_data.h) ---- */

#if CUDASTUB_ABI_MAJOR >= CUDA_MAJOR_EDGE_DATA_V2
/* Edge-data callers on a runtime without edge data. */
static void *const on_plain[EDGE_FUNCTIONS] = {
	[ADD_DEPENDENCIES] = (void *)add_dependencies_on_plain,
	[REMOVE_DEPENDENCIES] = (void *)remove_dependencies_on_plain,
	[GET_EDGES] = (void *)get_edges_on_plain,
	[NODE_GET_DEPENDENCIES] = (void *)node_get_dependencies_on_plain,
	[NODE_GET_DEPENDENT_NODES] = (void *)node_get_dependent_nodes_on_plain,
};
#endif

#if CUDASTUB_ABI_MAJOR >= CUDA_MAJOR_EDGE_DATA
static void *stand_in(const struct cudastub_release *release, enum edge_function f)
{
	return edge_data_form(release, names[f].name, names[f].name, adapt_other_abi(release),
			      &runtime[f], on_plain[f]);
}
#else
static void *stand_in(const struct cudastub_release *release, enum edge_function f)
{
	static void *const on_13[EDGE_FUNCTIONS] = {
		[ADD_DEPENDENCIES] = (void *)add_dependencies_on_13,
		[REMOVE_DEPENDENCIES] = (void *)remove_dependencies_on_13,
		[GET_EDGES] = (void *)get_edges_on_13,
		[NODE_GET_DEPENDENCIES] = (void *)node_get_dependencies_on_13,
		[NODE_GET_DEPENDENT_NODES] = (void *)node_get_dependent_nodes_on_13,
	};

	return plain_form_on_edge_data(release, names[f].name, &runtime[f], on_13[f]);
}
#endif

ADAPT_HOOK(cudaGraphAddDependencies, stand_in(release, ADD_DEPENDENCIES))
ADAPT_HOOK(cudaGraphRemoveDependencies, stand_in(release, REMOVE_DEPENDENCIES))
ADAPT_HOOK(cudaGraphGetEdges, stand_in(release, GET_EDGES))
ADAPT_HOOK(cudaGraphNodeGetDependencies, stand_in(release, NODE_GET_DEPENDENCIES))
ADAPT_HOOK(cudaGraphNodeGetDependentNodes, stand_in(release, NODE_GET_DEPENDENT_NODES))

#if CUDASTUB_ABI_MAJOR == CUDA_MAJOR_EDGE_DATA_V2
/* NAME_v2, which neither the loader nor its route found, by the plain
 * NAME's row. */
static void *v2_stand_in(const struct cudastub_release *release, enum edge_function f)
{
	static const int plain_rows[EDGE_FUNCTIONS] = {
		[ADD_DEPENDENCIES] = F_cudaGraphAddDependencies,
		[REMOVE_DEPENDENCIES] = F_cudaGraphRemoveDependencies,
		[GET_EDGES] = F_cudaGraphGetEdges,
		[NODE_GET_DEPENDENCIES] = F_cudaGraphNodeGetDependencies,
		[NODE_GET_DEPENDENT_NODES] = F_cudaGraphNodeGetDependentNodes,
	};

	return v2_form(release, names[f].name_v2, names[f].name, plain_rows[f], &runtime[f],
		       on_plain[f]);
}

ADAPT_HOOK(cudaGraphAddDependencies_v2, v2_stand_in(release, ADD_DEPENDENCIES))
ADAPT_HOOK(cudaGraphRemoveDependencies_v2, v2_stand_in(release, REMOVE_DEPENDENCIES))
ADAPT_HOOK(cudaGraphGetEdges_v2, v2_stand_in(release, GET_EDGES))
ADAPT_HOOK(cudaGraphNodeGetDependencies_v2, v2_stand_in(release, NODE_GET_DEPENDENCIES))
ADAPT_HOOK(cudaGraphNodeGetDependentNodes_v2, v2_stand_in(release, NODE_GET_DEPENDENT_NODES))
#endif

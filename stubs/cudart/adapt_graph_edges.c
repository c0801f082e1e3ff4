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

/* The runtime functions the translators below call, one per name; stored
 * before the translator is handed to the resolver. */
static _Atomic(void *) runtime_add_dependencies;
static _Atomic(void *) runtime_remove_dependencies;
static _Atomic(void *) runtime_get_edges;
static _Atomic(void *) runtime_node_get_dependencies;
static _Atomic(void *) runtime_node_get_dependent_nodes;

#if CUDASTUB_ABI_MAJOR >= 12
/* ---- the edge-data form on a runtime that may lack it (11.x, 12.0-12.2) ---- */

static cudaError_t add_dependencies_on_plain(cudaGraph_t graph, const cudaGraphNode_t *from,
					     const cudaGraphNode_t *to,
					     const cudaGraphEdgeData *edgeData,
					     size_t numDependencies)
{
	add_edges_plain_fn plain;

	if (!edges_are_default(edgeData, numDependencies))
		return cudaErrorNotSupported;
	*(void **)&plain = adapt_slot_function(&runtime_add_dependencies);
	return plain(graph, from, to, numDependencies);
}

static cudaError_t remove_dependencies_on_plain(cudaGraph_t graph, const cudaGraphNode_t *from,
						const cudaGraphNode_t *to,
						const cudaGraphEdgeData *edgeData,
						size_t numDependencies)
{
	add_edges_plain_fn plain;

	if (!edges_are_default(edgeData, numDependencies))
		return cudaErrorNotSupported;
	*(void **)&plain = adapt_slot_function(&runtime_remove_dependencies);
	return plain(graph, from, to, numDependencies);
}

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
	*(void **)&plain = adapt_slot_function(&runtime_get_edges);
	err = plain(graph, from, to, numEdges);
	if (err == cudaSuccess)
		fill_default_edges(edgeData, room);
	return err;
}

static cudaError_t node_edges_on_plain(_Atomic(void *) *slot, cudaGraphNode_t node,
				       cudaGraphNode_t *nodes, cudaGraphEdgeData *edgeData,
				       size_t *count)
{
	node_edges_plain_fn plain;
	cudaError_t err;
	size_t room;

	if (edgeData && (!nodes || !count))
		return cudaErrorInvalidValue;
	room = edgeData ? *count : 0;
	*(void **)&plain = adapt_slot_function(slot);
	err = plain(node, nodes, count);
	if (err == cudaSuccess)
		fill_default_edges(edgeData, room);
	return err;
}

static cudaError_t node_get_dependencies_on_plain(cudaGraphNode_t node,
						  cudaGraphNode_t *pDependencies,
						  cudaGraphEdgeData *edgeData,
						  size_t *pNumDependencies)
{
	return node_edges_on_plain(&runtime_node_get_dependencies, node, pDependencies, edgeData,
				   pNumDependencies);
}

static cudaError_t node_get_dependent_nodes_on_plain(cudaGraphNode_t node,
						     cudaGraphNode_t *pDependentNodes,
						     cudaGraphEdgeData *edgeData,
						     size_t *pNumDependentNodes)
{
	return node_edges_on_plain(&runtime_node_get_dependent_nodes, node, pDependentNodes,
				   edgeData, pNumDependentNodes);
}

/* The edge-data form NAME for the loaded runtime: 12.3+'s name_v2 as is, or
 * on 11.x and 12.0-12.2 the translator over the plain NAME. name_v2 is NULL
 * when the caller already knows the runtime lacks it. */
static void *edge_data_form(const char *stub_name, const char *name, const char *name_v2,
			    _Atomic(void *) *slot, void *translator)
{
	int major = adapt_loaded_major();
	void *v2 = major == 12 && name_v2 ? adapt_loaded_symbol(name_v2) : NULL;

	if (v2)
		return adapt_chosen(stub_name, "12.3+'s _v2, as it is", v2);
	if (major != 11 && major != 12)
		return NULL;
	return adapt_chosen(stub_name, "the plain form, default edges only",
			    adapt_route_through(name, slot, translator));
}
#endif

#if CUDASTUB_ABI_MAJOR <= 12
/* ---- the plain form on 13 ---- */

static cudaError_t add_dependencies_on_13(cudaGraph_t graph, const cudaGraphNode_t *from,
					  const cudaGraphNode_t *to, size_t numDependencies)
{
	add_edges_with_data_fn with_data;

	*(void **)&with_data = adapt_slot_function(&runtime_add_dependencies);
	return with_data(graph, from, to, NULL, numDependencies);
}

static cudaError_t remove_dependencies_on_13(cudaGraph_t graph, const cudaGraphNode_t *from,
					     const cudaGraphNode_t *to, size_t numDependencies)
{
	add_edges_with_data_fn with_data;

	*(void **)&with_data = adapt_slot_function(&runtime_remove_dependencies);
	return with_data(graph, from, to, NULL, numDependencies);
}

static cudaError_t get_edges_on_13(cudaGraph_t graph, cudaGraphNode_t *from, cudaGraphNode_t *to,
				   size_t *numEdges)
{
	get_edges_with_data_fn with_data;

	*(void **)&with_data = adapt_slot_function(&runtime_get_edges);
	return with_data(graph, from, to, NULL, numEdges);
}

static cudaError_t node_get_dependencies_on_13(cudaGraphNode_t node, cudaGraphNode_t *pDependencies,
					       size_t *pNumDependencies)
{
	node_edges_with_data_fn with_data;

	*(void **)&with_data = adapt_slot_function(&runtime_node_get_dependencies);
	return with_data(node, pDependencies, NULL, pNumDependencies);
}

static cudaError_t node_get_dependent_nodes_on_13(cudaGraphNode_t node,
						  cudaGraphNode_t *pDependentNodes,
						  size_t *pNumDependentNodes)
{
	node_edges_with_data_fn with_data;

	*(void **)&with_data = adapt_slot_function(&runtime_node_get_dependent_nodes);
	return with_data(node, pDependentNodes, NULL, pNumDependentNodes);
}

/* The plain NAME on 13: the translator over 13's NAME, or NULL elsewhere. */
static void *plain_form_on_13(const char *name, _Atomic(void *) *slot, void *translator)
{
	if (adapt_loaded_major() != 13)
		return NULL;
	return adapt_chosen(name, "13's, edge data NULL",
			    adapt_route_through(name, slot, translator));
}
#endif

/* ---- the stub's entry points, by the build's ABI ---- */

#if CUDASTUB_ABI_MAJOR >= 13
cudaGraphAddDependencies_fn cudastub_cudart_adapt_cudaGraphAddDependencies(void)
{
	cudaGraphAddDependencies_fn fn;

	*(void **)&fn = edge_data_form("cudaGraphAddDependencies", "cudaGraphAddDependencies",
				       "cudaGraphAddDependencies_v2", &runtime_add_dependencies,
				       (void *)add_dependencies_on_plain);
	return fn;
}

cudaGraphRemoveDependencies_fn cudastub_cudart_adapt_cudaGraphRemoveDependencies(void)
{
	cudaGraphRemoveDependencies_fn fn;

	*(void **)&fn =
		edge_data_form("cudaGraphRemoveDependencies", "cudaGraphRemoveDependencies",
			       "cudaGraphRemoveDependencies_v2", &runtime_remove_dependencies,
			       (void *)remove_dependencies_on_plain);
	return fn;
}

cudaGraphGetEdges_fn cudastub_cudart_adapt_cudaGraphGetEdges(void)
{
	cudaGraphGetEdges_fn fn;

	*(void **)&fn =
		edge_data_form("cudaGraphGetEdges", "cudaGraphGetEdges", "cudaGraphGetEdges_v2",
			       &runtime_get_edges, (void *)get_edges_on_plain);
	return fn;
}

cudaGraphNodeGetDependencies_fn cudastub_cudart_adapt_cudaGraphNodeGetDependencies(void)
{
	cudaGraphNodeGetDependencies_fn fn;

	*(void **)&fn =
		edge_data_form("cudaGraphNodeGetDependencies", "cudaGraphNodeGetDependencies",
			       "cudaGraphNodeGetDependencies_v2", &runtime_node_get_dependencies,
			       (void *)node_get_dependencies_on_plain);
	return fn;
}

cudaGraphNodeGetDependentNodes_fn cudastub_cudart_adapt_cudaGraphNodeGetDependentNodes(void)
{
	cudaGraphNodeGetDependentNodes_fn fn;

	*(void **)&fn = edge_data_form(
		"cudaGraphNodeGetDependentNodes", "cudaGraphNodeGetDependentNodes",
		"cudaGraphNodeGetDependentNodes_v2", &runtime_node_get_dependent_nodes,
		(void *)node_get_dependent_nodes_on_plain);
	return fn;
}

#else /* the 12- and 11-ABI stubs: the plain names */
cudaGraphAddDependencies_fn cudastub_cudart_adapt_cudaGraphAddDependencies(void)
{
	cudaGraphAddDependencies_fn fn;

	*(void **)&fn = plain_form_on_13("cudaGraphAddDependencies", &runtime_add_dependencies,
					 (void *)add_dependencies_on_13);
	return fn;
}

cudaGraphRemoveDependencies_fn cudastub_cudart_adapt_cudaGraphRemoveDependencies(void)
{
	cudaGraphRemoveDependencies_fn fn;

	*(void **)&fn =
		plain_form_on_13("cudaGraphRemoveDependencies", &runtime_remove_dependencies,
				 (void *)remove_dependencies_on_13);
	return fn;
}

cudaGraphGetEdges_fn cudastub_cudart_adapt_cudaGraphGetEdges(void)
{
	cudaGraphGetEdges_fn fn;

	*(void **)&fn =
		plain_form_on_13("cudaGraphGetEdges", &runtime_get_edges, (void *)get_edges_on_13);
	return fn;
}

cudaGraphNodeGetDependencies_fn cudastub_cudart_adapt_cudaGraphNodeGetDependencies(void)
{
	cudaGraphNodeGetDependencies_fn fn;

	*(void **)&fn =
		plain_form_on_13("cudaGraphNodeGetDependencies", &runtime_node_get_dependencies,
				 (void *)node_get_dependencies_on_13);
	return fn;
}

cudaGraphNodeGetDependentNodes_fn cudastub_cudart_adapt_cudaGraphNodeGetDependentNodes(void)
{
	cudaGraphNodeGetDependentNodes_fn fn;

	*(void **)&fn = plain_form_on_13("cudaGraphNodeGetDependentNodes",
					 &runtime_node_get_dependent_nodes,
					 (void *)node_get_dependent_nodes_on_13);
	return fn;
}
#endif

#if CUDASTUB_ABI_MAJOR == 12
/* NAME_v2, which the loader did not find: 13's plain NAME as is; on 11.x and
 * 12.0-12.2 the translator over the plain form. It shares the plain name's
 * slot: in a process with one runtime, only one of the two stores there. */
static void *v2_form(const char *stub_name, const char *name, _Atomic(void *) *slot,
		     void *translator)
{
	if (adapt_loaded_major() == 13)
		return adapt_chosen(stub_name, "13's plain name, as it is",
				    adapt_loaded_symbol(name));
	return edge_data_form(stub_name, name, NULL, slot, translator);
}

cudaGraphAddDependencies_v2_fn cudastub_cudart_adapt_cudaGraphAddDependencies_v2(void)
{
	cudaGraphAddDependencies_v2_fn fn;

	*(void **)&fn = v2_form("cudaGraphAddDependencies_v2", "cudaGraphAddDependencies",
				&runtime_add_dependencies, (void *)add_dependencies_on_plain);
	return fn;
}

cudaGraphRemoveDependencies_v2_fn cudastub_cudart_adapt_cudaGraphRemoveDependencies_v2(void)
{
	cudaGraphRemoveDependencies_v2_fn fn;

	*(void **)&fn = v2_form("cudaGraphRemoveDependencies_v2", "cudaGraphRemoveDependencies",
				&runtime_remove_dependencies, (void *)remove_dependencies_on_plain);
	return fn;
}

cudaGraphGetEdges_v2_fn cudastub_cudart_adapt_cudaGraphGetEdges_v2(void)
{
	cudaGraphGetEdges_v2_fn fn;

	*(void **)&fn = v2_form("cudaGraphGetEdges_v2", "cudaGraphGetEdges", &runtime_get_edges,
				(void *)get_edges_on_plain);
	return fn;
}

cudaGraphNodeGetDependencies_v2_fn cudastub_cudart_adapt_cudaGraphNodeGetDependencies_v2(void)
{
	cudaGraphNodeGetDependencies_v2_fn fn;

	*(void **)&fn =
		v2_form("cudaGraphNodeGetDependencies_v2", "cudaGraphNodeGetDependencies",
			&runtime_node_get_dependencies, (void *)node_get_dependencies_on_plain);
	return fn;
}

cudaGraphNodeGetDependentNodes_v2_fn cudastub_cudart_adapt_cudaGraphNodeGetDependentNodes_v2(void)
{
	cudaGraphNodeGetDependentNodes_v2_fn fn;

	*(void **)&fn = v2_form("cudaGraphNodeGetDependentNodes_v2",
				"cudaGraphNodeGetDependentNodes", &runtime_node_get_dependent_nodes,
				(void *)node_get_dependent_nodes_on_plain);
	return fn;
}
#endif

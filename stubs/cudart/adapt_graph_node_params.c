/*
 * Generic graph nodes (12.2 and later): cudaGraphNodeParams is 256 bytes in
 * 12.x and 13.x, but two members of its union gained a field in 13, and
 * cudaGraphAddNode gained edge data.
 *
 *   12.2+  cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
 *                  const cudaGraphNode_t *pDependencies, size_t numDependencies,
 *                  struct cudaGraphNodeParams *nodeParams);
 *   12.3+  cudaGraphAddNode_v2: the same with const cudaGraphEdgeData *dependencyData
 *          before numDependencies; 13.x's cudaGraphAddNode has that prototype
 *   12.2+, 13.x:
 *          cudaError_t cudaGraphNodeSetParams(cudaGraphNode_t node,
 *                  struct cudaGraphNodeParams *nodeParams);
 *          cudaError_t cudaGraphExecNodeSetParams(cudaGraphExec_t graphExec, cudaGraphNode_t node,
 *                  struct cudaGraphNodeParams *nodeParams);
 *
 *   in the union (at offset 16):
 *   graph  cudaChildGraphNodeParams: 12.x {cudaGraph_t graph} (8 bytes); 13.x adds
 *          enum cudaGraphChildGraphNodeOwnership ownership at 8 (0: clone, 12's behaviour)
 *   alloc  cudaMemAllocNodeParamsV2.poolProps: 13.x adds unsigned short usage at 32
 *          where 12.x has reserved bytes (the spec's `layout cudaMemPoolProps`)
 *   12.x requires the union's unused bytes and the reserved bytes to be zero.
 *
 * The rule:
 *   13-ABI stub on 12.x: a child-graph node that moves its graph
 *     (ownership != clone) or an allocation node with usage != 0 cannot be
 *     honoured: cudaErrorNotSupported, nothing called. Otherwise the
 *     caller's struct is passed as it is (12 reads zeros where 13 put the new
 *     fields; outputs such as alloc.dptr land in the caller's struct). Adding
 *     a node goes to 12.3+'s cudaGraphAddNode_v2, or on 12.2 to the plain form
 *     when every edge is default (as adapt_graph_edges.c).
 *   12-ABI stub on 13.x: the struct as it is (its unused, zero bytes are
 *     13's new fields at their defaults); the plain cudaGraphAddNode goes to
 *     13's with dependencyData NULL (default edges), _v2 and the setters to
 *     13's functions as they are. Its _v2 on 12.2 (which lacks _v2): the
 *     plain form, default edges only. Adding a node thus takes the rule of
 *     the graph edges (adapt_edge_data.h).
 *   11.x has none of these functions.
 */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stddef.h>

#include "adapt_edge_data.h"
#include "adapt_loaded.h"
#include "cudart_layouts.h"

#if CUDASTUB_ABI_MAJOR >= CUDA_MAJOR_GRAPH_NODE_PARAMS
_Static_assert(sizeof(struct cudaGraphNodeParams) == CUDASTUB_LAYOUT_cudaGraphNodeParams_12_SIZE &&
		       sizeof(struct cudaGraphNodeParams) ==
			       CUDASTUB_LAYOUT_cudaGraphNodeParams_13_SIZE,
	       "256 bytes in 12 and 13");
/* The union: 232 bytes in both, every member at its start. The records give
 * no offset for an anonymous member; after type and reserved0[3] it is 16. */
_Static_assert(CUDASTUB_LAYOUT_cudaGraphNodeParams___anonymous_2__12_SIZE ==
			       CUDASTUB_LAYOUT_cudaGraphNodeParams___anonymous_2__13_SIZE &&
		       CUDASTUB_LAYOUT_cudaGraphNodeParams___anonymous_2__12_graph == 0 &&
		       CUDASTUB_LAYOUT_cudaGraphNodeParams___anonymous_2__13_graph == 0 &&
		       CUDASTUB_LAYOUT_cudaGraphNodeParams___anonymous_2__12_alloc == 0 &&
		       CUDASTUB_LAYOUT_cudaGraphNodeParams___anonymous_2__13_alloc == 0 &&
		       offsetof(struct cudaGraphNodeParams, graph) == 16,
	       "cudaGraphNodeParams' union");
_Static_assert(CUDASTUB_LAYOUT_cudaMemAllocNodeParamsV2_12_poolProps == 0 &&
		       CUDASTUB_LAYOUT_cudaMemAllocNodeParamsV2_13_poolProps == 0,
	       "poolProps first");
/* 13's new fields lie where 12 has unused or reserved bytes */
_Static_assert(CUDASTUB_LAYOUT_cudaChildGraphNodeParams_13_ownership >=
		       CUDASTUB_LAYOUT_cudaChildGraphNodeParams_12_SIZE,
	       "ownership is past 12's child graph member");
_Static_assert(CUDASTUB_LAYOUT_cudaMemPoolProps_13_usage ==
		       CUDASTUB_LAYOUT_cudaMemPoolProps_12_reserved,
	       "usage is in 12's reserved bytes");

/* The runtime's forms. */
typedef cudaError_t (*add_node_plain_fn)(cudaGraphNode_t *, cudaGraph_t, const cudaGraphNode_t *,
					 size_t, struct cudaGraphNodeParams *);
typedef cudaError_t (*add_node_with_data_fn)(cudaGraphNode_t *, cudaGraph_t,
					     const cudaGraphNode_t *, const cudaGraphEdgeData *,
					     size_t, struct cudaGraphNodeParams *);
typedef cudaError_t (*node_set_params_fn)(cudaGraphNode_t, struct cudaGraphNodeParams *);
typedef cudaError_t (*exec_node_set_params_fn)(cudaGraphExec_t, cudaGraphNode_t,
					       struct cudaGraphNodeParams *);

static _Atomic(void *) runtime_add_node;

#if CUDASTUB_ABI_MAJOR >= CUDA_MAJOR_NODE_PARAMS_OWNERSHIP_USAGE
/* Whether 12.x can honour a 13 node's parameters. */
static int node_params_fit_12(const struct cudaGraphNodeParams *p)
{
	if (!p)
		return 1;
	if (p->type == cudaGraphNodeTypeGraph &&
	    p->graph.ownership != cudaGraphChildGraphOwnershipClone)
		return 0;
	if (p->type == cudaGraphNodeTypeMemAlloc && p->alloc.poolProps.usage != 0)
		return 0;
	return 1;
}
#else
/* A 12-ABI caller's node parameters are 12's own. */
static int node_params_fit_12(const struct cudaGraphNodeParams *p)
{
	(void)p;
	return 1;
}
#endif

/* Adding a node on 12.2, which has no edge data (a 13-ABI cudaGraphAddNode,
 * a 12-ABI cudaGraphAddNode_v2): the plain form, default edges only. */
static cudaError_t add_node_on_plain(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
				     const cudaGraphNode_t *pDependencies,
				     const cudaGraphEdgeData *dependencyData,
				     size_t numDependencies, struct cudaGraphNodeParams *nodeParams)
{
	add_node_plain_fn add;

	if (!node_params_fit_12(nodeParams) || !edges_are_default(dependencyData, numDependencies))
		return cudaErrorNotSupported;
	*(void **)&add = adapt_slot_function(&runtime_add_node);
	return add(pGraphNode, graph, pDependencies, numDependencies, nodeParams);
}
#endif

#if CUDASTUB_ABI_MAJOR >= CUDA_MAJOR_NODE_PARAMS_OWNERSHIP_USAGE
static _Atomic(void *) runtime_node_set_params;
static _Atomic(void *) runtime_exec_node_set_params;

static cudaError_t add_node_on_12_v2(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
				     const cudaGraphNode_t *pDependencies,
				     const cudaGraphEdgeData *dependencyData,
				     size_t numDependencies, struct cudaGraphNodeParams *nodeParams)
{
	add_node_with_data_fn add;

	if (!node_params_fit_12(nodeParams))
		return cudaErrorNotSupported;
	*(void **)&add = adapt_slot_function(&runtime_add_node);
	return add(pGraphNode, graph, pDependencies, dependencyData, numDependencies, nodeParams);
}

static cudaError_t node_set_params_on_12(cudaGraphNode_t node,
					 struct cudaGraphNodeParams *nodeParams)
{
	node_set_params_fn set;

	if (!node_params_fit_12(nodeParams))
		return cudaErrorNotSupported;
	*(void **)&set = adapt_slot_function(&runtime_node_set_params);
	return set(node, nodeParams);
}

static cudaError_t exec_node_set_params_on_12(cudaGraphExec_t graphExec, cudaGraphNode_t node,
					      struct cudaGraphNodeParams *nodeParams)
{
	exec_node_set_params_fn set;

	if (!node_params_fit_12(nodeParams))
		return cudaErrorNotSupported;
	*(void **)&set = adapt_slot_function(&runtime_exec_node_set_params);
	return set(graphExec, node, nodeParams);
}

/* Adding a node where the row says another ABI (12.x): 12.3+'s _v2, else
 * 12.2's plain form. */
static void *add_node_on_12(const struct cudastub_release *release)
{
	void *fn;

	if (!adapt_other_abi(release))
		return NULL;
	fn = adapt_translate_to(release, "cudaGraphAddNode", "cudaGraphAddNode_v2",
				"12.3+'s _v2, parameters checked", &runtime_add_node,
				(void *)add_node_on_12_v2);
	if (!fn)
		fn = adapt_translate_to(release, "cudaGraphAddNode", "cudaGraphAddNode",
					"12.2's plain form, parameters checked, default edges",
					&runtime_add_node, (void *)add_node_on_plain);
	return fn;
}

ADAPT_HOOK(cudaGraphAddNode, add_node_on_12(release))
ADAPT_HOOK(cudaGraphNodeSetParams,
	   adapt_translate_if(adapt_other_abi(release), release, "cudaGraphNodeSetParams",
			      "cudaGraphNodeSetParams", "parameters checked",
			      &runtime_node_set_params, (void *)node_set_params_on_12))
ADAPT_HOOK(cudaGraphExecNodeSetParams,
	   adapt_translate_if(adapt_other_abi(release), release, "cudaGraphExecNodeSetParams",
			      "cudaGraphExecNodeSetParams", "parameters checked",
			      &runtime_exec_node_set_params, (void *)exec_node_set_params_on_12))

#elif CUDASTUB_ABI_MAJOR == CUDA_MAJOR_GRAPH_NODE_PARAMS
static cudaError_t add_node_on_13(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
				  const cudaGraphNode_t *pDependencies, size_t numDependencies,
				  struct cudaGraphNodeParams *nodeParams)
{
	add_node_with_data_fn add;

	*(void **)&add = adapt_slot_function(&runtime_add_node);
	return add(pGraphNode, graph, pDependencies, NULL, numDependencies, nodeParams);
}

/* 13's name as it is where the row says another ABI (13: the layouts
 * grew members a 12 caller leaves zero; the same prototype and bytes). */
static void *as_is_on_13(const struct cudastub_release *release, const char *name)
{
	if (!adapt_other_abi(release))
		return NULL;
	return adapt_as_is(release, name, name, "13's, as it is");
}

/* Adding a node takes the rule of the graph edges (adapt_edge_data.h). */
ADAPT_HOOK(cudaGraphAddNode, plain_form_on_edge_data(release, "cudaGraphAddNode", &runtime_add_node,
						     (void *)add_node_on_13))
/* On 13, its plain name as it is, by as_is_on_13's rule. No generated
 * route takes it: 13's cudaGraphNodeParams grew members, so the records
 * differ, though a 12 caller leaves them zero, their default. */
static void *add_node_v2_stand_in(const struct cudastub_release *release)
{
	if (adapt_row_other_abi(release, F_cudaGraphAddNode))
		return adapt_as_is(release, "cudaGraphAddNode_v2", "cudaGraphAddNode",
				   "13's plain name, as it is");
	return v2_form(release, "cudaGraphAddNode_v2", "cudaGraphAddNode", F_cudaGraphAddNode,
		       &runtime_add_node, (void *)add_node_on_plain);
}

ADAPT_HOOK(cudaGraphAddNode_v2, add_node_v2_stand_in(release))
ADAPT_HOOK(cudaGraphNodeSetParams, as_is_on_13(release, "cudaGraphNodeSetParams"))
ADAPT_HOOK(cudaGraphExecNodeSetParams, as_is_on_13(release, "cudaGraphExecNodeSetParams"))
#endif

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
#include <stddef.h>
#include <string.h>

#include "adapt_edge_data.h"
#include "adapt_loaded.h"
#include "cudart_layouts.h"

/* cudaGraphNodeParams as the translators read it: 256 bytes, its type at
 * 0, its union at 16, every member at the union's start. The records give
 * no offset for an anonymous member; after type and reserved0[3] it is 16,
 * which the headers that declare the struct confirm. */
enum { NODE_PARAMS_UNION = 16 };
_Static_assert(CUDASTUB_LAYOUT_cudaGraphNodeParams_12_SIZE == 256 &&
		       CUDASTUB_LAYOUT_cudaGraphNodeParams_13_SIZE == 256 &&
		       CUDASTUB_LAYOUT_cudaGraphNodeParams_12_type == 0 &&
		       CUDASTUB_LAYOUT_cudaGraphNodeParams_13_type == 0 &&
		       CUDASTUB_LAYOUT_cudaGraphNodeParams_13_reserved0 + 3 * 4 ==
			       NODE_PARAMS_UNION,
	       "256 bytes in 12 and 13, the type first");
_Static_assert(CUDASTUB_LAYOUT_cudaGraphNodeParams___anonymous_2__12_SIZE ==
			       CUDASTUB_LAYOUT_cudaGraphNodeParams___anonymous_2__13_SIZE &&
		       CUDASTUB_LAYOUT_cudaGraphNodeParams___anonymous_2__12_graph == 0 &&
		       CUDASTUB_LAYOUT_cudaGraphNodeParams___anonymous_2__13_graph == 0 &&
		       CUDASTUB_LAYOUT_cudaGraphNodeParams___anonymous_2__12_alloc == 0 &&
		       CUDASTUB_LAYOUT_cudaGraphNodeParams___anonymous_2__13_alloc == 0,
	       "cudaGraphNodeParams' union");
#if CUDASTUB_CUDART_VERSION >= 12020
_Static_assert(offsetof(struct cudaGraphNodeParams, graph) == NODE_PARAMS_UNION,
	       "cudaGraphNodeParams' union at 16");
#endif
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

/* 13's cudaGraphChildGraphOwnershipClone: 12's behaviour. */
enum { OWNERSHIP_CLONE = 0 };
#if CUDASTUB_CUDART_VERSION >= 13000
_Static_assert((int)cudaGraphChildGraphOwnershipClone == OWNERSHIP_CLONE,
	       "cudaGraphChildGraphOwnershipClone");
#endif

/* The runtime's forms; the parameters by address, as the records give
 * their layout. */
typedef cudaError_t (*add_node_plain_fn)(cudaGraphNode_t *, cudaGraph_t, const cudaGraphNode_t *,
					 size_t, void *);
typedef cudaError_t (*add_node_with_data_fn)(cudaGraphNode_t *, cudaGraph_t,
					     const cudaGraphNode_t *,
					     const struct adapt_edge_data *, size_t, void *);
typedef cudaError_t (*node_set_params_fn)(cudaGraphNode_t, void *);
typedef cudaError_t (*exec_node_set_params_fn)(cudaGraphExec_t, cudaGraphNode_t, void *);

enum {
	ADD_NODE_ON_PLAIN_12, /* a 12 caller's: no parameter to check */
	ADD_NODE_ON_PLAIN_13, /* a 13 caller's: checked */
	ADD_NODE_ON_12_V2,
	NODE_SET_PARAMS_ON_12,
	EXEC_NODE_SET_PARAMS_ON_12,
	ADD_NODE_ON_13,
	TRANSLATORS
};
static _Atomic(void *) callees[TRANSLATORS];

/* Whether 12.x can honour a 13 caller's node parameters: no child graph
 * that moves its graph, no pool usage. */
static int node_params_fit_12(const void *params)
{
	const unsigned char *p = params, *member = p + NODE_PARAMS_UNION;
	int type, ownership;
	unsigned short usage;

	if (!p)
		return 1;
	memcpy(&type, p + CUDASTUB_LAYOUT_cudaGraphNodeParams_13_type, sizeof type);
	if (type == cudaGraphNodeTypeGraph) {
		memcpy(&ownership, member + CUDASTUB_LAYOUT_cudaChildGraphNodeParams_13_ownership,
		       sizeof ownership);
		return ownership == OWNERSHIP_CLONE;
	}
	if (type == cudaGraphNodeTypeMemAlloc) {
		memcpy(&usage,
		       member + CUDASTUB_LAYOUT_cudaMemAllocNodeParamsV2_13_poolProps +
			       CUDASTUB_LAYOUT_cudaMemPoolProps_13_usage,
		       sizeof usage);
		return usage == 0;
	}
	return 1;
}

/* Adding a node on 12.2, which has no edge data (a 13 caller's
 * cudaGraphAddNode, checked; a 12 caller's cudaGraphAddNode_v2): the plain
 * form, default edges only. */
static cudaError_t add_node_on_plain(int checked, cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
				     const cudaGraphNode_t *pDependencies,
				     const struct adapt_edge_data *dependencyData,
				     size_t numDependencies, void *nodeParams)
{
	add_node_plain_fn add;

	if ((checked && !node_params_fit_12(nodeParams)) ||
	    !edges_are_default(dependencyData, numDependencies))
		return cudaErrorNotSupported;
	*(void **)&add = adapt_callee(&callees[ADD_NODE_ON_PLAIN_12 + checked]);
	return add(pGraphNode, graph, pDependencies, numDependencies, nodeParams);
}

ADAPT_TWINS(cudaError_t, add_node_on_plain, add_node_on_plain_12, add_node_on_plain_13,
	    (cudaGraphNode_t * pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
	     const struct adapt_edge_data *dependencyData, size_t numDependencies,
	     void *nodeParams),
	    (pGraphNode, graph, pDependencies, dependencyData, numDependencies, nodeParams))

/* ---- a 13 caller on 12.x: parameters checked ---- */

static cudaError_t add_node_on_12_v2(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
				     const cudaGraphNode_t *pDependencies,
				     const struct adapt_edge_data *dependencyData,
				     size_t numDependencies, void *nodeParams)
{
	add_node_with_data_fn add;

	if (!node_params_fit_12(nodeParams))
		return cudaErrorNotSupported;
	*(void **)&add = adapt_callee(&callees[ADD_NODE_ON_12_V2]);
	return add(pGraphNode, graph, pDependencies, dependencyData, numDependencies, nodeParams);
}

static cudaError_t node_set_params_on_12(cudaGraphNode_t node, void *nodeParams)
{
	node_set_params_fn set;

	if (!node_params_fit_12(nodeParams))
		return cudaErrorNotSupported;
	*(void **)&set = adapt_callee(&callees[NODE_SET_PARAMS_ON_12]);
	return set(node, nodeParams);
}

static cudaError_t exec_node_set_params_on_12(cudaGraphExec_t graphExec, cudaGraphNode_t node,
					      void *nodeParams)
{
	exec_node_set_params_fn set;

	if (!node_params_fit_12(nodeParams))
		return cudaErrorNotSupported;
	*(void **)&set = adapt_callee(&callees[EXEC_NODE_SET_PARAMS_ON_12]);
	return set(graphExec, node, nodeParams);
}

/* ---- a 12 caller's plain cudaGraphAddNode on 13 ---- */

static cudaError_t add_node_on_13(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
				  const cudaGraphNode_t *pDependencies, size_t numDependencies,
				  void *nodeParams)
{
	add_node_with_data_fn add;

	*(void **)&add = adapt_callee(&callees[ADD_NODE_ON_13]);
	return add(pGraphNode, graph, pDependencies, NULL, numDependencies, nodeParams);
}

/* The translators by number, for the registry. */
static void *translator(int via)
{
	switch (via) {
	case ADD_NODE_ON_PLAIN_12: return (void *)add_node_on_plain_12;
	case ADD_NODE_ON_PLAIN_13: return (void *)add_node_on_plain_13;
	case ADD_NODE_ON_12_V2: return (void *)add_node_on_12_v2;
	case NODE_SET_PARAMS_ON_12: return (void *)node_set_params_on_12;
	case EXEC_NODE_SET_PARAMS_ON_12: return (void *)exec_node_set_params_on_12;
	case ADD_NODE_ON_13: return (void *)add_node_on_13;
	}
	return NULL;
}

/* On 13, a 12 caller's cudaGraphAddNode_v2 and setters take 13's
 * functions as they are: no generated route does, as 13's
 * cudaGraphNodeParams grew members and the records differ, though a 12
 * caller leaves them zero, their default. */
static const struct adapt_entry entries[] = {
	/* a 13 caller on 12.x: 12.3+'s _v2, else 12.2's plain form with
	 * default edges; the parameters checked */
	ADAPT_ENTRY(ADAPT_cudaGraphAddNode, 13, ADAPT_ON_FORM, 12, ADAPT_SELF,
		    ADAPT_cudaGraphAddNode_v2, ADD_NODE_ON_12_V2),
	ADAPT_ENTRY(ADAPT_cudaGraphAddNode, 13, ADAPT_ON_FORM, 12, ADAPT_SELF,
		    ADAPT_cudaGraphAddNode, ADD_NODE_ON_PLAIN_13),
	ADAPT_ENTRY(ADAPT_cudaGraphNodeSetParams, 13, ADAPT_ON_FORM, 12, ADAPT_SELF,
		    ADAPT_cudaGraphNodeSetParams, NODE_SET_PARAMS_ON_12),
	ADAPT_ENTRY(ADAPT_cudaGraphExecNodeSetParams, 13, ADAPT_ON_FORM, 12, ADAPT_SELF,
		    ADAPT_cudaGraphExecNodeSetParams, EXEC_NODE_SET_PARAMS_ON_12),
	/* a 12 caller on 13, and its _v2 on 12.2 */
	ADAPT_ENTRY(ADAPT_cudaGraphAddNode, 12, ADAPT_ON_FORM, 13, ADAPT_SELF,
		    ADAPT_cudaGraphAddNode, ADD_NODE_ON_13),
	ADAPT_ENTRY(ADAPT_cudaGraphAddNode_v2, 12, ADAPT_ON_FORM, 13, ADAPT_cudaGraphAddNode,
		    ADAPT_cudaGraphAddNode, ADAPT_AS_IS),
	ADAPT_ENTRY(ADAPT_cudaGraphAddNode_v2, 12, ADAPT_ON_FORM, 12, ADAPT_cudaGraphAddNode,
		    ADAPT_cudaGraphAddNode, ADD_NODE_ON_PLAIN_12),
	ADAPT_ENTRY(ADAPT_cudaGraphNodeSetParams, 12, ADAPT_ON_FORM, 13, ADAPT_SELF,
		    ADAPT_cudaGraphNodeSetParams, ADAPT_AS_IS),
	ADAPT_ENTRY(ADAPT_cudaGraphExecNodeSetParams, 12, ADAPT_ON_FORM, 13, ADAPT_SELF,
		    ADAPT_cudaGraphExecNodeSetParams, ADAPT_AS_IS),
};

ADAPT_FAMILY(graph_node_params, entries, translator, callees)

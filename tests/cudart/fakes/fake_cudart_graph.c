/*
 * The graph functions whose prototypes changed between majors, each as the
 * major's real library exports it (this file is compiled against each
 * major's headers):
 *   11.x, 12.x  the plain edge functions and cudaStreamUpdateCaptureDependencies
 *               (and its _ptsz)
 *   12.x        their _v2 forms with edge data (12.3 and later: left out when
 *               FAKE_NO_EDGE_DATA, a 12.2 stand-in), cudaGraphAddNode (and
 *               _v2), cudaGraphNodeSetParams, cudaGraphExecNodeSetParams
 *   13.x        the edge-data forms under the plain names, and the node
 *               parameter functions
 * Each records its name in the call log and its arguments in
 * fake_graph_last; the queries answer FAKE_GRAPH_EDGES edges
 * (fake_cudart_graph.h).
 */
#define _GNU_SOURCE
#include <string.h>

#include "fake_cudart.h"
#include "fake_cudart_graph.h"

FAKE_EXPORT struct fake_graph_call fake_graph_last;

static cudaError_t record_graph_call(const char *name, const void *graph, const void *from,
				     const void *to, const void *edge_data, size_t count)
{
	fake_cudart_record(name);
	memset(&fake_graph_last, 0, sizeof fake_graph_last);
	fake_graph_last.graph = graph;
	fake_graph_last.from = from;
	fake_graph_last.to = to;
	fake_graph_last.edge_data = edge_data;
	fake_graph_last.count = count;
	if (edge_data)
		memcpy(fake_graph_last.edges, edge_data, 8 * (count < 4 ? count : 4));
	return cudaSuccess;
}

/* Answers a query: the count alone when there is no array, else up to
 * *count edges, the rest of the room NULL, and *count the number given. */
static cudaError_t answer_edges(const char *name, const void *graph, void **from, void **to,
				unsigned char *edge_data, size_t *count)
{
	size_t room, n;

	record_graph_call(name, graph, from, to, edge_data, count ? *count : 0);
	if (!count)
		return cudaErrorInvalidValue;
	if (!from) {
		*count = FAKE_GRAPH_EDGES;
		return cudaSuccess;
	}
	room = *count;
	n = room < FAKE_GRAPH_EDGES ? room : FAKE_GRAPH_EDGES;
	for (size_t i = 0; i < room; i++) {
		from[i] = i < n ? (void *)(FAKE_GRAPH_FROM + i) : NULL;
		if (to)
			to[i] = i < n ? (void *)(FAKE_GRAPH_TO + i) : NULL;
		if (edge_data && i < n) {
			memset(edge_data + 8 * i, 0, 8);
			edge_data[8 * i] = (unsigned char)(i + 1); /* from_port */
			edge_data[8 * i + 2] = 1;		   /* type */
		}
	}
	*count = n;
	return cudaSuccess;
}

#if CUDART_VERSION < 13000
/* ---- the plain forms ---- */

FAKE_EXPORT cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
						 const cudaGraphNode_t *to, size_t numDependencies)
{
	return record_graph_call("cudaGraphAddDependencies", graph, from, to, NULL,
				 numDependencies);
}

FAKE_EXPORT cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
						    const cudaGraphNode_t *to,
						    size_t numDependencies)
{
	return record_graph_call("cudaGraphRemoveDependencies", graph, from, to, NULL,
				 numDependencies);
}

FAKE_EXPORT cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from,
					  cudaGraphNode_t *to, size_t *numEdges)
{
	return answer_edges("cudaGraphGetEdges", graph, (void **)from, (void **)to, NULL, numEdges);
}

FAKE_EXPORT cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node,
						     cudaGraphNode_t *pDependencies,
						     size_t *pNumDependencies)
{
	return answer_edges("cudaGraphNodeGetDependencies", node, (void **)pDependencies, NULL,
			    NULL, pNumDependencies);
}

FAKE_EXPORT cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node,
						       cudaGraphNode_t *pDependentNodes,
						       size_t *pNumDependentNodes)
{
	return answer_edges("cudaGraphNodeGetDependentNodes", node, (void **)pDependentNodes, NULL,
			    NULL, pNumDependentNodes);
}

static cudaError_t update_plain(const char *name, cudaStream_t stream,
				cudaGraphNode_t *dependencies, size_t numDependencies,
				unsigned int flags)
{
	record_graph_call(name, stream, dependencies, NULL, NULL, numDependencies);
	fake_graph_last.flags = flags;
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream,
							    cudaGraphNode_t *dependencies,
							    size_t numDependencies,
							    unsigned int flags)
{
	return update_plain("cudaStreamUpdateCaptureDependencies", stream, dependencies,
			    numDependencies, flags);
}

/* Declared by the headers only for per-thread-stream builds. */
FAKE_EXPORT cudaError_t cudaStreamUpdateCaptureDependencies_ptsz(cudaStream_t stream,
								 cudaGraphNode_t *dependencies,
								 size_t numDependencies,
								 unsigned int flags);
FAKE_EXPORT cudaError_t cudaStreamUpdateCaptureDependencies_ptsz(cudaStream_t stream,
								 cudaGraphNode_t *dependencies,
								 size_t numDependencies,
								 unsigned int flags)
{
	return update_plain("cudaStreamUpdateCaptureDependencies_ptsz", stream, dependencies,
			    numDependencies, flags);
}
#endif

#if CUDART_VERSION >= 12000
/* ---- the generic node functions (12.2 and later) ---- */

static cudaError_t add_node(const char *name, cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
			    const cudaGraphNode_t *pDependencies,
			    const cudaGraphEdgeData *dependencyData, size_t numDependencies,
			    struct cudaGraphNodeParams *nodeParams)
{
	record_graph_call(name, graph, pDependencies, NULL, dependencyData, numDependencies);
	fake_graph_last.params = nodeParams;
	if (pGraphNode)
		*pGraphNode = (cudaGraphNode_t)FAKE_GRAPH_NEW_NODE;
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t cudaGraphNodeSetParams(cudaGraphNode_t node,
					       struct cudaGraphNodeParams *nodeParams)
{
	record_graph_call("cudaGraphNodeSetParams", node, NULL, NULL, NULL, 0);
	fake_graph_last.params = nodeParams;
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t cudaGraphExecNodeSetParams(cudaGraphExec_t graphExec, cudaGraphNode_t node,
						   struct cudaGraphNodeParams *nodeParams)
{
	record_graph_call("cudaGraphExecNodeSetParams", graphExec, NULL, node, NULL, 0);
	fake_graph_last.params = nodeParams;
	return cudaSuccess;
}
#endif

#if CUDART_VERSION >= 12000 && CUDART_VERSION < 13000
FAKE_EXPORT cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
					 const cudaGraphNode_t *pDependencies,
					 size_t numDependencies,
					 struct cudaGraphNodeParams *nodeParams)
{
	return add_node("cudaGraphAddNode", pGraphNode, graph, pDependencies, NULL, numDependencies,
			nodeParams);
}

#endif

/* ---- the edge-data forms: 12.3+'s _v2, 13's plain names ---- */
/* The same prototypes under two names: each is defined once, under this
 * major's name (EDGE_FORM: the name and its tail, "" or _ptsz), and logs
 * that name. */
#if CUDART_VERSION >= 13000
#define EDGE_FORM(name, tail) name##tail
#elif CUDART_VERSION >= 12000 && !defined(FAKE_NO_EDGE_DATA)
#define EDGE_FORM(name, tail) name##_v2##tail
#endif

#ifdef EDGE_FORM
static cudaError_t update_with_data(const char *name, cudaStream_t stream,
				    cudaGraphNode_t *dependencies,
				    const cudaGraphEdgeData *dependencyData, size_t numDependencies,
				    unsigned int flags)
{
	record_graph_call(name, stream, dependencies, NULL, dependencyData, numDependencies);
	fake_graph_last.flags = flags;
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t EDGE_FORM(cudaGraphAddDependencies, )(cudaGraph_t graph,
							      const cudaGraphNode_t *from,
							      const cudaGraphNode_t *to,
							      const cudaGraphEdgeData *edgeData,
							      size_t numDependencies)
{
	return record_graph_call(__func__, graph, from, to, edgeData, numDependencies);
}

FAKE_EXPORT cudaError_t EDGE_FORM(cudaGraphRemoveDependencies, )(cudaGraph_t graph,
								 const cudaGraphNode_t *from,
								 const cudaGraphNode_t *to,
								 const cudaGraphEdgeData *edgeData,
								 size_t numDependencies)
{
	return record_graph_call(__func__, graph, from, to, edgeData, numDependencies);
}

FAKE_EXPORT cudaError_t EDGE_FORM(cudaGraphGetEdges, )(cudaGraph_t graph, cudaGraphNode_t *from,
						       cudaGraphNode_t *to,
						       cudaGraphEdgeData *edgeData,
						       size_t *numEdges)
{
	return answer_edges(__func__, graph, (void **)from, (void **)to, (unsigned char *)edgeData,
			    numEdges);
}

FAKE_EXPORT cudaError_t EDGE_FORM(cudaGraphNodeGetDependencies, )(cudaGraphNode_t node,
								  cudaGraphNode_t *pDependencies,
								  cudaGraphEdgeData *edgeData,
								  size_t *pNumDependencies)
{
	return answer_edges(__func__, node, (void **)pDependencies, NULL, (unsigned char *)edgeData,
			    pNumDependencies);
}

FAKE_EXPORT cudaError_t
EDGE_FORM(cudaGraphNodeGetDependentNodes, )(cudaGraphNode_t node, cudaGraphNode_t *pDependentNodes,
					    cudaGraphEdgeData *edgeData, size_t *pNumDependentNodes)
{
	return answer_edges(__func__, node, (void **)pDependentNodes, NULL,
			    (unsigned char *)edgeData, pNumDependentNodes);
}

FAKE_EXPORT cudaError_t EDGE_FORM(cudaStreamUpdateCaptureDependencies, )(
	cudaStream_t stream, cudaGraphNode_t *dependencies, const cudaGraphEdgeData *dependencyData,
	size_t numDependencies, unsigned int flags)
{
	return update_with_data(__func__, stream, dependencies, dependencyData, numDependencies,
				flags);
}

/* no header declares the _ptsz form */
FAKE_EXPORT cudaError_t EDGE_FORM(cudaStreamUpdateCaptureDependencies,
				  _ptsz)(cudaStream_t stream, cudaGraphNode_t *dependencies,
					 const cudaGraphEdgeData *dependencyData,
					 size_t numDependencies, unsigned int flags);
FAKE_EXPORT cudaError_t EDGE_FORM(cudaStreamUpdateCaptureDependencies,
				  _ptsz)(cudaStream_t stream, cudaGraphNode_t *dependencies,
					 const cudaGraphEdgeData *dependencyData,
					 size_t numDependencies, unsigned int flags)
{
	return update_with_data(__func__, stream, dependencies, dependencyData, numDependencies,
				flags);
}

FAKE_EXPORT cudaError_t EDGE_FORM(cudaGraphAddNode, )(cudaGraphNode_t *pGraphNode,
						      cudaGraph_t graph,
						      const cudaGraphNode_t *pDependencies,
						      const cudaGraphEdgeData *dependencyData,
						      size_t numDependencies,
						      struct cudaGraphNodeParams *nodeParams)
{
	return add_node(__func__, pGraphNode, graph, pDependencies, dependencyData, numDependencies,
			nodeParams);
}
#endif

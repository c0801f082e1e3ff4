/*
 * What the fake runtimes' graph functions (fake_cudart_graph.c) record and
 * answer, shared with the suites of tests/adapters.
 */
#ifndef CUDASTUB_FAKE_CUDART_GRAPH_H
#define CUDASTUB_FAKE_CUDART_GRAPH_H

#include <stddef.h>

/* The last graph call's arguments, as received. */
struct fake_graph_call {
	const void *graph;     /* cudaGraph_t, cudaGraphNode_t, cudaStream_t or cudaGraphExec_t */
	const void *from;      /* from, pDependencies, dependencies */
	const void *to;	       /* to, or the node of cudaGraphExecNodeSetParams */
	const void *edge_data; /* edgeData / dependencyData; NULL from the plain forms */
	size_t count;	       /* numDependencies, or the count on entry for a query */
	unsigned int flags;
	const void *params;	   /* cudaGraphNodeParams */
	unsigned char edges[4][8]; /* the first four edges received, when any */
};

/* What the queries report: FAKE_GRAPH_EDGES edges; edge i goes from node
 * FAKE_GRAPH_FROM + i to FAKE_GRAPH_TO + i, with edge data {from_port i+1,
 * to_port 0, type 1} where the form has edge data. */
#define FAKE_GRAPH_EDGES 3
#define FAKE_GRAPH_FROM	 0x100
#define FAKE_GRAPH_TO	 0x200
/* cudaGraphAddNode's new node */
#define FAKE_GRAPH_NEW_NODE 0x300

#endif

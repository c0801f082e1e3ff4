/*
 * Generic graph nodes (stubs/cudart/adapt_graph_node_params.c) and stream
 * capture dependencies (stubs/cudart/adapt_capture_edges.c): edge data as
 * in test_graph_edges.c, and cudaGraphNodeParams, whose child-graph
 * ownership and pool usage 12.x cannot honour.
 */
#define _GNU_SOURCE
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <string.h>

#include "adapters_test.h"

#define GRAPH  ((void *)0x6a0)
#define STREAM ((void *)0x57)
#define EXEC   ((void *)0xe8e)
#define NODE   ((void *)0x40d)

typedef cudaError_t (*add_node_plain_fn)(void **, void *, void *const *, size_t, void *);
typedef cudaError_t (*add_node_with_data_fn)(void **, void *, void *const *, const void *, size_t,
					     void *);
typedef cudaError_t (*set_params_fn)(void *, void *);
typedef cudaError_t (*exec_set_params_fn)(void *, void *, void *);
typedef cudaError_t (*update_plain_fn)(void *, void **, size_t, unsigned int);
typedef cudaError_t (*update_with_data_fn)(void *, void **, const void *, size_t, unsigned int);

#define STUB(type, name) ((type)ad_stub_symbol(name))

static void *deps[2] = {(void *)0x11, (void *)0x12};

static const struct fake_graph_call *last(void)
{
	return ad_fake_symbol("fake_graph_last");
}

/* What the fake got: the graph (or stream), the dependencies, the edge data
 * pointer (NULL from the plain forms) and params as given. */
static void expect_call(int mark, const char *name, const void *graph, const void *edges,
			const void *params)
{
	char msg[160];

	snprintf(msg, sizeof msg, "%s was called", name);
	ad_expect(ad_called_since(mark, name), __FILE__, __LINE__, msg);
	AD_EXPECT(last()->graph == graph);
	AD_EXPECT(last()->edge_data == edges);
	AD_EXPECT(last()->params == params);
}

/* ---- generic nodes ---- */

/* A 13 child-graph node: 12 can clone it, not move it. */
static struct cudaGraphNodeParams child_graph(enum cudaGraphChildGraphNodeOwnership ownership)
{
	struct cudaGraphNodeParams p;

	memset(&p, 0, sizeof p);
	p.type = cudaGraphNodeTypeGraph;
	p.graph.graph = (cudaGraph_t)0x9;
	p.graph.ownership = ownership;
	return p;
}

/* Parameters 12 cannot honour are refused by every function. */
static void refuse_13_params(add_node_with_data_fn add)
{
	struct cudaGraphNodeParams move = child_graph(cudaGraphChildGraphOwnershipMove), alloc;
	void *node = NULL;
	int mark = ad_mark();

	memset(&alloc, 0, sizeof alloc);
	alloc.type = cudaGraphNodeTypeMemAlloc;
	alloc.alloc.poolProps.usage = 1;
	AD_EXPECT(add(&node, GRAPH, deps, NULL, 2, &move) == cudaErrorNotSupported);
	AD_EXPECT(add(&node, GRAPH, deps, NULL, 2, &alloc) == cudaErrorNotSupported);
	AD_EXPECT(STUB(set_params_fn, "cudaGraphNodeSetParams")(NODE, &move) ==
		  cudaErrorNotSupported);
	AD_EXPECT(STUB(exec_set_params_fn, "cudaGraphExecNodeSetParams")(EXEC, NODE, &alloc) ==
		  cudaErrorNotSupported);
	AD_EXPECT(!ad_any_call_since(mark) && node == NULL);
}

static int nodes_13_on_12(void)
{
	add_node_with_data_fn add = STUB(add_node_with_data_fn, "cudaGraphAddNode");
	struct cudaGraphNodeParams clone = child_graph(cudaGraphChildGraphOwnershipClone);
	cudaGraphEdgeData edges[2] = {{.from_port = 1}};
	void *node = NULL;
	int mark = ad_mark();

	AD_EXPECT(add(&node, GRAPH, deps, edges, 2, &clone) == cudaSuccess);
	expect_call(mark, "cudaGraphAddNode_v2", GRAPH, edges, &clone);
	AD_EXPECT(node == (void *)FAKE_GRAPH_NEW_NODE &&
		  !ad_called_since(mark, "cudaGraphAddNode"));
	AD_EXPECT(STUB(set_params_fn, "cudaGraphNodeSetParams")(NODE, &clone) == cudaSuccess);
	expect_call(mark, "cudaGraphNodeSetParams", NODE, NULL, &clone);
	AD_EXPECT(STUB(exec_set_params_fn, "cudaGraphExecNodeSetParams")(EXEC, NODE, &clone) ==
		  cudaSuccess);
	expect_call(mark, "cudaGraphExecNodeSetParams", EXEC, NULL, &clone);
	refuse_13_params(add);
	return ad_finish();
}

/* 12.2: the plain cudaGraphAddNode, default edges only. */
static int nodes_13_on_12_2(void)
{
	add_node_with_data_fn add = STUB(add_node_with_data_fn, "cudaGraphAddNode");
	struct cudaGraphNodeParams clone = child_graph(cudaGraphChildGraphOwnershipClone);
	cudaGraphEdgeData edges[2];
	void *node = NULL;
	int mark = ad_mark();

	memset(edges, 0, sizeof edges);
	AD_EXPECT(add(&node, GRAPH, deps, edges, 2, &clone) == cudaSuccess);
	expect_call(mark, "cudaGraphAddNode", GRAPH, NULL, &clone);
	AD_EXPECT(last()->count == 2 && node == (void *)FAKE_GRAPH_NEW_NODE);
	edges[1].type = 1;
	mark = ad_mark();
	AD_EXPECT(add(&node, GRAPH, deps, edges, 2, &clone) == cudaErrorNotSupported);
	AD_EXPECT(!ad_any_call_since(mark));
	refuse_13_params(add);
	return ad_finish();
}

/* 11.x has no generic nodes: the stub says the runtime is too old. */
static int nodes_13_on_11(void)
{
	struct cudaGraphNodeParams clone = child_graph(cudaGraphChildGraphOwnershipClone);
	void *node = NULL;
	int mark = ad_mark();

	AD_EXPECT(STUB(add_node_with_data_fn, "cudaGraphAddNode")(
			  &node, GRAPH, deps, NULL, 2, &clone) == cudaErrorCallRequiresNewerDriver);
	AD_EXPECT(!ad_any_call_since(mark));
	return ad_finish();
}

static int nodes_12_on_13(void)
{
	unsigned char params[256] = {0};
	cudaGraphEdgeData edges[2] = {{.from_port = 1}};
	void *node = NULL;
	int mark = ad_mark();

	AD_EXPECT(STUB(add_node_plain_fn, "cudaGraphAddNode")(&node, GRAPH, deps, 2, params) ==
		  cudaSuccess);
	expect_call(mark, "cudaGraphAddNode", GRAPH, NULL, params);
	AD_EXPECT(last()->count == 2 && node == (void *)FAKE_GRAPH_NEW_NODE);
	AD_EXPECT(STUB(add_node_with_data_fn, "cudaGraphAddNode_v2")(&node, GRAPH, deps, edges, 2,
								     params) == cudaSuccess);
	expect_call(mark, "cudaGraphAddNode", GRAPH, edges, params);
	AD_EXPECT(STUB(set_params_fn, "cudaGraphNodeSetParams")(NODE, params) == cudaSuccess);
	expect_call(mark, "cudaGraphNodeSetParams", NODE, NULL, params);
	AD_EXPECT(STUB(exec_set_params_fn, "cudaGraphExecNodeSetParams")(EXEC, NODE, params) ==
		  cudaSuccess);
	expect_call(mark, "cudaGraphExecNodeSetParams", EXEC, NULL, params);
	return ad_finish();
}

static int nodes_12_v2_on_12_2(void)
{
	unsigned char params[256] = {0};
	cudaGraphEdgeData edges[2];
	void *node = NULL;
	int mark = ad_mark();

	memset(edges, 0, sizeof edges);
	AD_EXPECT(STUB(add_node_with_data_fn, "cudaGraphAddNode_v2")(&node, GRAPH, deps, edges, 2,
								     params) == cudaSuccess);
	expect_call(mark, "cudaGraphAddNode", GRAPH, NULL, params);
	edges[0].to_port = 1;
	mark = ad_mark();
	AD_EXPECT(STUB(add_node_with_data_fn, "cudaGraphAddNode_v2")(
			  &node, GRAPH, deps, edges, 2, params) == cudaErrorNotSupported);
	AD_EXPECT(!ad_any_call_since(mark));
	return ad_finish();
}

/* ---- stream capture dependencies ---- */

static int capture_13_on_12(void)
{
	cudaGraphEdgeData edges[2] = {{.from_port = 1}};
	int mark = ad_mark();

	AD_EXPECT(STUB(update_with_data_fn, "cudaStreamUpdateCaptureDependencies")(
			  STREAM, deps, edges, 2, 1) == cudaSuccess);
	expect_call(mark, "cudaStreamUpdateCaptureDependencies_v2", STREAM, edges, NULL);
	AD_EXPECT(last()->count == 2 && last()->flags == 1 && last()->from == deps);
	AD_EXPECT(STUB(update_with_data_fn, "cudaStreamUpdateCaptureDependencies_ptsz")(
			  STREAM, deps, edges, 2, 1) == cudaSuccess);
	expect_call(mark, "cudaStreamUpdateCaptureDependencies_v2_ptsz", STREAM, edges, NULL);
	AD_EXPECT(!ad_called_since(mark, "cudaStreamUpdateCaptureDependencies"));
	return ad_finish();
}

/* The edge-data forms on 11.x and 12.2: the plain forms, default edges. */
static void update_on_plain(const char *stub_name, const char *runtime_name)
{
	update_with_data_fn update = STUB(update_with_data_fn, stub_name);
	cudaGraphEdgeData edges[2];
	int mark = ad_mark();

	memset(edges, 0, sizeof edges);
	AD_EXPECT(update(STREAM, deps, edges, 2, 1) == cudaSuccess);
	expect_call(mark, runtime_name, STREAM, NULL, NULL);
	AD_EXPECT(last()->count == 2 && last()->flags == 1);
	AD_EXPECT(update(STREAM, deps, NULL, 2, 0) == cudaSuccess && last()->flags == 0);
	edges[0].type = 1;
	mark = ad_mark();
	AD_EXPECT(update(STREAM, deps, edges, 2, 1) == cudaErrorNotSupported);
	AD_EXPECT(!ad_any_call_since(mark));
}

static int capture_13_on_plain(void)
{
	update_on_plain("cudaStreamUpdateCaptureDependencies",
			"cudaStreamUpdateCaptureDependencies");
	update_on_plain("cudaStreamUpdateCaptureDependencies_ptsz",
			"cudaStreamUpdateCaptureDependencies_ptsz");
	return ad_finish();
}

static int capture_12_v2_on_plain(void)
{
	update_on_plain("cudaStreamUpdateCaptureDependencies_v2",
			"cudaStreamUpdateCaptureDependencies");
	update_on_plain("cudaStreamUpdateCaptureDependencies_v2_ptsz",
			"cudaStreamUpdateCaptureDependencies_ptsz");
	return ad_finish();
}

/* The plain forms on 13: edge data NULL. */
static void update_plain_on_13(const char *name)
{
	int mark = ad_mark();

	AD_EXPECT(STUB(update_plain_fn, name)(STREAM, deps, 2, 1) == cudaSuccess);
	expect_call(mark, name, STREAM, NULL, NULL);
	AD_EXPECT(last()->count == 2 && last()->flags == 1 && last()->from == deps);
}

static int capture_12_on_13(void)
{
	cudaGraphEdgeData edges[2] = {{.from_port = 1}};
	int mark = ad_mark();

	update_plain_on_13("cudaStreamUpdateCaptureDependencies");
	update_plain_on_13("cudaStreamUpdateCaptureDependencies_ptsz");
	AD_EXPECT(STUB(update_with_data_fn, "cudaStreamUpdateCaptureDependencies_v2")(
			  STREAM, deps, edges, 2, 1) == cudaSuccess);
	expect_call(mark, "cudaStreamUpdateCaptureDependencies", STREAM, edges, NULL);
	AD_EXPECT(STUB(update_with_data_fn, "cudaStreamUpdateCaptureDependencies_v2_ptsz")(
			  STREAM, deps, edges, 2, 1) == cudaSuccess);
	expect_call(mark, "cudaStreamUpdateCaptureDependencies_ptsz", STREAM, edges, NULL);
	return ad_finish();
}

static int capture_11_on_13(void)
{
	update_plain_on_13("cudaStreamUpdateCaptureDependencies");
	return ad_finish();
}

static const struct ad_case cases[] = {
	AD_TEST("13-ABI generic nodes on 12.3+, 12.2 and 11"),
	AD_CHECKED(13, "12", nodes_13_on_12),
	AD_CHECKED(13, "12.2", nodes_13_on_12_2),
	AD_CHECKED(13, "11", nodes_13_on_11),
	AD_TEST("12-ABI generic nodes on 13 and 12.2"),
	AD_CHECKED(12, "13", nodes_12_on_13),
	AD_CHECKED(12, "12.2", nodes_12_v2_on_12_2),
	AD_TEST("13-ABI cudaStreamUpdateCaptureDependencies on 12.3+, 12.2, 11"),
	AD_CHECKED(13, "12", capture_13_on_12),
	AD_CHECKED(13, "12.2", capture_13_on_plain),
	AD_CHECKED(13, "11", capture_13_on_plain),
	AD_TEST("12- and 11-ABI cudaStreamUpdateCaptureDependencies"),
	AD_CHECKED(12, "13", capture_12_on_13),
	AD_CHECKED(12, "11", capture_12_v2_on_plain),
	AD_CHECKED(12, "12.2", capture_12_v2_on_plain),
	AD_CHECKED(11, "13", capture_11_on_13),
	AD_END,
};

AD_MAIN("graph nodes and capture dependencies", cases)

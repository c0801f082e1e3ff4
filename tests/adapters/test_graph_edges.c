/*
 * Graph edges (stubs/cudart/adapt_graph_edges.c): the 13-ABI stub on 12.3+
 * (the _v2 forms as they are), on 11.x and 12.2 (the plain forms, default
 * edges only, queries answering default edges); the 12- and 11-ABI stubs'
 * plain forms on 13 (edge data NULL), and the 12-ABI _v2 forms on 13 (as
 * they are), 11.x and 12.2 (the plain forms).
 */
#define _GNU_SOURCE
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <string.h>

#include "adapters_test.h"

/* Handles the fakes only record. */
#define GRAPH ((void *)0x6a0)
#define NODE  ((void *)0x40d)

/* The edge forms, with handles as pointers: the same ABI in every major. */
typedef cudaError_t (*add_plain_fn)(void *, void *const *, void *const *, size_t);
typedef cudaError_t (*add_with_data_fn)(void *, void *const *, void *const *, const void *, size_t);
typedef cudaError_t (*get_plain_fn)(void *, void **, void **, size_t *);
typedef cudaError_t (*get_with_data_fn)(void *, void **, void **, void *, size_t *);
typedef cudaError_t (*node_plain_fn)(void *, void **, size_t *);
typedef cudaError_t (*node_with_data_fn)(void *, void **, void *, size_t *);

static void *const from_nodes[2] = {(void *)0x11, (void *)0x12};
static void *const to_nodes[2] = {(void *)0x21, (void *)0x22};

static const struct fake_graph_call *last(void)
{
	return ad_fake_symbol("fake_graph_last");
}

/* The stub's function name as a pointer of the given type. */
#define STUB(type, name) ((type)ad_stub_symbol(name))

/* An add or remove with edge data: what the fake received. */
static void expect_added(int mark, const char *fake_name, const void *edge_data)
{
	AD_EXPECT(ad_called_since(mark, fake_name));
	AD_EXPECT(last()->graph == GRAPH);
	AD_EXPECT(last()->from == from_nodes && last()->to == to_nodes);
	AD_EXPECT(last()->count == 2);
	AD_EXPECT(last()->edge_data == edge_data);
}

/* A query's nodes: FAKE_GRAPH_EDGES of them, then NULL up to room. */
static void expect_nodes(void *const *nodes, size_t room, unsigned long base)
{
	for (size_t i = 0; i < room; i++)
		AD_EXPECT(nodes[i] == (i < FAKE_GRAPH_EDGES ? (void *)(base + i) : NULL));
}

/* Edge data the fake reported (from_port i+1, type 1), room entries. */
static void expect_fake_edges(const cudaGraphEdgeData *e)
{
	for (size_t i = 0; i < FAKE_GRAPH_EDGES; i++)
		AD_EXPECT(e[i].from_port == i + 1 && e[i].to_port == 0 && e[i].type == 1);
}

/* ---- the 13-ABI stub ---- */

/* On 12.3+: the _v2 forms, given everything as it is. */
static int edges_13_on_12(void)
{
	cudaGraphEdgeData edges[4] = {{.from_port = 1, .type = 1}};
	void *from[4], *to[4];
	size_t n = 4;
	int mark = ad_mark();

	AD_EXPECT(STUB(add_with_data_fn, "cudaGraphAddDependencies")(GRAPH, from_nodes, to_nodes,
								     edges, 2) == cudaSuccess);
	expect_added(mark, "cudaGraphAddDependencies_v2", edges);
	AD_EXPECT(last()->edges[0][0] == 1 && last()->edges[0][2] == 1);
	AD_EXPECT(STUB(add_with_data_fn, "cudaGraphRemoveDependencies")(GRAPH, from_nodes, to_nodes,
									NULL, 2) == cudaSuccess);
	expect_added(mark, "cudaGraphRemoveDependencies_v2", NULL);
	AD_EXPECT(STUB(get_with_data_fn, "cudaGraphGetEdges")(GRAPH, from, to, edges, &n) ==
		  cudaSuccess);
	AD_EXPECT(ad_called_since(mark, "cudaGraphGetEdges_v2"));
	AD_EXPECT(n == FAKE_GRAPH_EDGES);
	expect_nodes(from, 4, FAKE_GRAPH_FROM);
	expect_nodes(to, 4, FAKE_GRAPH_TO);
	expect_fake_edges(edges);
	n = 4;
	AD_EXPECT(STUB(node_with_data_fn, "cudaGraphNodeGetDependencies")(NODE, from, edges, &n) ==
		  cudaSuccess);
	AD_EXPECT(ad_called_since(mark, "cudaGraphNodeGetDependencies_v2") && n == 3);
	expect_fake_edges(edges);
	n = 4;
	AD_EXPECT(STUB(node_with_data_fn, "cudaGraphNodeGetDependentNodes")(NODE, from, edges,
									    &n) == cudaSuccess);
	AD_EXPECT(ad_called_since(mark, "cudaGraphNodeGetDependentNodes_v2") && n == 3);
	/* never the plain forms, whose ABI differs */
	AD_EXPECT(!ad_called_since(mark, "cudaGraphAddDependencies"));
	AD_EXPECT(!ad_called_since(mark, "cudaGraphRemoveDependencies"));
	AD_EXPECT(!ad_called_since(mark, "cudaGraphGetEdges"));
	AD_EXPECT(!ad_called_since(mark, "cudaGraphNodeGetDependencies"));
	AD_EXPECT(!ad_called_since(mark, "cudaGraphNodeGetDependentNodes"));
	return ad_finish();
}

/* Adds and removes with edge data on a runtime that has only the plain
 * forms: default edges pass, others are refused without a call. */
static void add_remove_on_plain(const char *name)
{
	add_with_data_fn fn = STUB(add_with_data_fn, name);
	cudaGraphEdgeData edges[2];
	int mark;

	memset(edges, 0, sizeof edges);
	mark = ad_mark();
	AD_EXPECT(fn(GRAPH, from_nodes, to_nodes, edges, 2) == cudaSuccess);
	expect_added(mark, name, NULL); /* the plain form has no edge data */
	mark = ad_mark();
	AD_EXPECT(fn(GRAPH, from_nodes, to_nodes, NULL, 2) == cudaSuccess);
	expect_added(mark, name, NULL);
	edges[1].type = cudaGraphDependencyTypeProgrammatic;
	mark = ad_mark();
	AD_EXPECT(fn(GRAPH, from_nodes, to_nodes, edges, 2) == cudaErrorNotSupported);
	AD_EXPECT(!ad_any_call_since(mark));
	memset(edges, 0, sizeof edges);
	edges[0].reserved[4] = 1; /* not default either */
	AD_EXPECT(fn(GRAPH, from_nodes, to_nodes, edges, 2) == cudaErrorNotSupported);
	AD_EXPECT(!ad_any_call_since(mark));
	/* only the first numDependencies entries count */
	AD_EXPECT(fn(GRAPH, from_nodes, to_nodes, edges + 1, 1) == cudaSuccess);
}

/* A query with edge data on the plain form: the caller's room is filled
 * with default edges, and nothing past it is touched. */
static void get_edges_on_plain(void)
{
	get_with_data_fn fn = STUB(get_with_data_fn, "cudaGraphGetEdges");
	cudaGraphEdgeData *edges = ad_guarded(4 * sizeof *edges);
	void *from[4], *to[4];
	size_t n = 4;
	int mark = ad_mark();

	AD_EXPECT(fn(GRAPH, from, to, edges, &n) == cudaSuccess);
	AD_EXPECT(ad_called_since(mark, "cudaGraphGetEdges") && last()->edge_data == NULL);
	AD_EXPECT(n == FAKE_GRAPH_EDGES);
	expect_nodes(from, 4, FAKE_GRAPH_FROM);
	expect_nodes(to, 4, FAKE_GRAPH_TO);
	AD_EXPECT(ad_zero_at(edges, 0, 4 * sizeof *edges));
	AD_EXPECT(ad_guard_intact(edges, 4 * sizeof *edges));
	/* a count alone */
	n = 0;
	AD_EXPECT(fn(GRAPH, NULL, NULL, NULL, &n) == cudaSuccess && n == FAKE_GRAPH_EDGES);
	/* edge data without the node arrays: 13 says cudaErrorInvalidValue */
	mark = ad_mark();
	n = 4;
	AD_EXPECT(fn(GRAPH, NULL, NULL, edges, &n) == cudaErrorInvalidValue);
	AD_EXPECT(!ad_any_call_since(mark));
}

static void node_query_on_plain(const char *name)
{
	node_with_data_fn fn = STUB(node_with_data_fn, name);
	cudaGraphEdgeData *edges = ad_guarded(2 * sizeof *edges);
	void *nodes[2];
	size_t n = 2;
	int mark = ad_mark();

	AD_EXPECT(fn(NODE, nodes, edges, &n) == cudaSuccess);
	AD_EXPECT(ad_called_since(mark, name) && last()->graph == NODE);
	AD_EXPECT(n == 2 && nodes[0] == (void *)FAKE_GRAPH_FROM);
	AD_EXPECT(ad_zero_at(edges, 0, 2 * sizeof *edges));
	AD_EXPECT(ad_guard_intact(edges, 2 * sizeof *edges));
	mark = ad_mark();
	AD_EXPECT(fn(NODE, NULL, edges, &n) == cudaErrorInvalidValue);
	AD_EXPECT(!ad_any_call_since(mark));
	n = 0;
	AD_EXPECT(fn(NODE, NULL, NULL, &n) == cudaSuccess && n == FAKE_GRAPH_EDGES);
}

/* On 11.x and 12.2: the plain forms. */
static int edges_13_on_plain(void)
{
	add_remove_on_plain("cudaGraphAddDependencies");
	add_remove_on_plain("cudaGraphRemoveDependencies");
	get_edges_on_plain();
	node_query_on_plain("cudaGraphNodeGetDependencies");
	node_query_on_plain("cudaGraphNodeGetDependentNodes");
	AD_EXPECT(!ad_called_since(0, "cudaGraphAddDependencies_v2"));
	return ad_finish();
}

/* On 13: forwarded, the control case. */
static int edges_13_on_13(void)
{
	cudaGraphEdgeData edges[2] = {{.from_port = 1}};
	int mark = ad_mark();

	AD_EXPECT(STUB(add_with_data_fn, "cudaGraphAddDependencies")(GRAPH, from_nodes, to_nodes,
								     edges, 2) == cudaSuccess);
	expect_added(mark, "cudaGraphAddDependencies", edges);
	return ad_finish();
}

/* ---- the 12- and 11-ABI stubs ---- */

/* The plain forms on 13: edge data NULL. */
static int plain_on_13(void)
{
	void *from[4], *to[4];
	size_t n = 4;
	int mark = ad_mark();

	AD_EXPECT(STUB(add_plain_fn, "cudaGraphAddDependencies")(GRAPH, from_nodes, to_nodes, 2) ==
		  cudaSuccess);
	expect_added(mark, "cudaGraphAddDependencies", NULL);
	mark = ad_mark();
	AD_EXPECT(STUB(add_plain_fn, "cudaGraphRemoveDependencies")(GRAPH, from_nodes, to_nodes,
								    2) == cudaSuccess);
	expect_added(mark, "cudaGraphRemoveDependencies", NULL);
	AD_EXPECT(STUB(get_plain_fn, "cudaGraphGetEdges")(GRAPH, from, to, &n) == cudaSuccess);
	AD_EXPECT(n == FAKE_GRAPH_EDGES && last()->edge_data == NULL);
	expect_nodes(from, 4, FAKE_GRAPH_FROM);
	expect_nodes(to, 4, FAKE_GRAPH_TO);
	n = 4;
	AD_EXPECT(STUB(node_plain_fn, "cudaGraphNodeGetDependencies")(NODE, from, &n) ==
		  cudaSuccess);
	AD_EXPECT(n == 3 && last()->edge_data == NULL && last()->graph == NODE);
	n = 4;
	AD_EXPECT(STUB(node_plain_fn, "cudaGraphNodeGetDependentNodes")(NODE, from, &n) ==
		  cudaSuccess);
	AD_EXPECT(n == 3 && last()->edge_data == NULL);
	AD_EXPECT(ad_called_since(mark, "cudaGraphGetEdges"));
	AD_EXPECT(ad_called_since(mark, "cudaGraphNodeGetDependencies"));
	AD_EXPECT(ad_called_since(mark, "cudaGraphNodeGetDependentNodes"));
	return ad_finish();
}

/* The 12-ABI _v2 forms on 13: 13's plain names, as they are. */
static int v2_on_13(void)
{
	cudaGraphEdgeData edges[4] = {{.to_port = 0, .from_port = 2}};
	void *from[4], *to[4];
	size_t n = 4;
	int mark = ad_mark();

	AD_EXPECT(STUB(add_with_data_fn, "cudaGraphAddDependencies_v2")(GRAPH, from_nodes, to_nodes,
									edges, 2) == cudaSuccess);
	expect_added(mark, "cudaGraphAddDependencies", edges);
	mark = ad_mark();
	AD_EXPECT(STUB(add_with_data_fn, "cudaGraphRemoveDependencies_v2")(
			  GRAPH, from_nodes, to_nodes, edges, 2) == cudaSuccess);
	expect_added(mark, "cudaGraphRemoveDependencies", edges);
	AD_EXPECT(STUB(get_with_data_fn, "cudaGraphGetEdges_v2")(GRAPH, from, to, edges, &n) ==
		  cudaSuccess);
	AD_EXPECT(n == FAKE_GRAPH_EDGES && last()->edge_data == edges);
	expect_fake_edges(edges);
	n = 4;
	AD_EXPECT(STUB(node_with_data_fn, "cudaGraphNodeGetDependencies_v2")(NODE, from, edges,
									     &n) == cudaSuccess);
	AD_EXPECT(last()->edge_data == edges && n == 3);
	n = 4;
	AD_EXPECT(STUB(node_with_data_fn, "cudaGraphNodeGetDependentNodes_v2")(NODE, from, edges,
									       &n) == cudaSuccess);
	AD_EXPECT(last()->edge_data == edges && n == 3);
	return ad_finish();
}

/* The 12-ABI _v2 forms on 11.x and 12.2: the plain forms. */
static int v2_on_plain(void)
{
	add_with_data_fn add = STUB(add_with_data_fn, "cudaGraphAddDependencies_v2");
	get_with_data_fn get = STUB(get_with_data_fn, "cudaGraphGetEdges_v2");
	node_with_data_fn deps = STUB(node_with_data_fn, "cudaGraphNodeGetDependencies_v2");
	cudaGraphEdgeData edges[4];
	void *from[4], *to[4];
	size_t n = 4;
	int mark;

	memset(edges, 0, sizeof edges);
	mark = ad_mark();
	AD_EXPECT(add(GRAPH, from_nodes, to_nodes, edges, 2) == cudaSuccess);
	expect_added(mark, "cudaGraphAddDependencies", NULL);
	edges[0].from_port = 1;
	mark = ad_mark();
	AD_EXPECT(add(GRAPH, from_nodes, to_nodes, edges, 2) == cudaErrorNotSupported);
	AD_EXPECT(STUB(add_with_data_fn, "cudaGraphRemoveDependencies_v2")(
			  GRAPH, from_nodes, to_nodes, edges, 2) == cudaErrorNotSupported);
	AD_EXPECT(!ad_any_call_since(mark));
	memset(edges, 0xaa, sizeof edges);
	AD_EXPECT(get(GRAPH, from, to, edges, &n) == cudaSuccess && n == FAKE_GRAPH_EDGES);
	AD_EXPECT(ad_called_since(mark, "cudaGraphGetEdges"));
	AD_EXPECT(ad_zero_at(edges, 0, sizeof edges));
	memset(edges, 0xaa, sizeof edges);
	n = 4;
	AD_EXPECT(deps(NODE, from, edges, &n) == cudaSuccess && n == 3);
	AD_EXPECT(ad_zero_at(edges, 0, sizeof edges));
	n = 4;
	AD_EXPECT(STUB(node_with_data_fn, "cudaGraphNodeGetDependentNodes_v2")(NODE, from, edges,
									       &n) == cudaSuccess);
	AD_EXPECT(ad_called_since(mark, "cudaGraphNodeGetDependentNodes"));
	return ad_finish();
}

/* The 12- and 11-ABI plain forms on 12.x and 11.x: forwarded. */
static int plain_forwarded(void)
{
	int mark = ad_mark();

	AD_EXPECT(STUB(add_plain_fn, "cudaGraphAddDependencies")(GRAPH, from_nodes, to_nodes, 2) ==
		  cudaSuccess);
	expect_added(mark, "cudaGraphAddDependencies", NULL);
	return ad_finish();
}

static const struct ad_case cases[] = {
	AD_TEST("13-ABI on 12.3+: the _v2 forms as they are"),
	AD_CHECKED(13, "12", edges_13_on_12),
	AD_TEST("13-ABI on 12.2: plain forms, default edges only"),
	AD_CHECKED(13, "12.2", edges_13_on_plain),
	AD_TEST("13-ABI on 11: plain forms, default edges only"),
	AD_CHECKED(13, "11", edges_13_on_plain),
	AD_TEST("13-ABI on 13: forwarded"),
	AD_CHECKED(13, "13", edges_13_on_13),
	AD_TEST("12-ABI on 13: plain with NULL edge data, _v2 as is"),
	AD_CHECKED(12, "13", plain_on_13),
	AD_CHECKED(12, "13", v2_on_13),
	AD_TEST("12-ABI _v2 on 11 and 12.2: plain forms"),
	AD_CHECKED(12, "11", v2_on_plain),
	AD_CHECKED(12, "12.2", v2_on_plain),
	AD_TEST("11-ABI on 13: plain with NULL edge data"),
	AD_CHECKED(11, "13", plain_on_13),
	AD_TEST("12/11-ABI plain forms on 12 and 11: forwarded"),
	AD_CHECKED(12, "11", plain_forwarded),
	AD_CHECKED(12, "12", plain_forwarded),
	AD_CHECKED(11, "12", plain_forwarded),
	AD_END,
};

AD_MAIN("graph edges", cases)

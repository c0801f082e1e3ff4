/*
 * adapt_capture_info.c: cudaStreamGetCaptureInfo between 11's three
 * outputs, the _v2 form (no edge data), 12's _v3 and 13's form (edge data).
 *
 * The fakes answer status Active, id major*100+1 (three-output form) or
 * major*100+2 (the others), graph AD_GRAPH, three dependencies 0xd1..0xd3;
 * the edge-data forms give ports 1, 2, 3. Fake arguments: stream, status,
 * id, graph, dependencies, [edge data,] count (pointers).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>

#include "adapters_test.h"

#define STREAM ((cudaStream_t)0x5)

typedef cudaError_t (*three_fn)(cudaStream_t, enum cudaStreamCaptureStatus *, unsigned long long *);
typedef cudaError_t (*v2_fn)(cudaStream_t, enum cudaStreamCaptureStatus *, unsigned long long *,
			     cudaGraph_t *, const cudaGraphNode_t **, size_t *);
typedef cudaError_t (*edges_fn)(cudaStream_t, enum cudaStreamCaptureStatus *, unsigned long long *,
				cudaGraph_t *, const cudaGraphNode_t **, const cudaGraphEdgeData **,
				size_t *);

/* ---- child scenarios ---- */

static void print_outputs(const char *step, enum cudaStreamCaptureStatus status,
			  unsigned long long id, cudaGraph_t graph, const cudaGraphNode_t *deps,
			  size_t num)
{
	printf("%s.status=%d\n%s.id=%llu\n%s.graph=%lld\n%s.num=%zu\n", step, (int)status, step, id,
	       step, (long long)(intptr_t)graph, step, num);
	printf("%s.dep2=%lld\n", step, deps ? (long long)(intptr_t)deps[2] : -1);
}

static void print_edges(const char *step, const cudaGraphEdgeData *edges, size_t num)
{
	int ports = 0, others = 0;

	for (size_t i = 0; edges && i < num; i++) {
		ports += edges[i].from_port;
		others |= edges[i].to_port | edges[i].type;
		for (int k = 0; k < 5; k++)
			others |= edges[i].reserved[k];
	}
	printf("%s.edges_set=%d\n%s.from_ports=%d\n%s.other_edge_bits=%d\n", step, edges != NULL,
	       step, ports, step, others);
}

/* One call of an edge-data form with every output, printed under step. */
static void call_edges(const char *step, edges_fn fn)
{
	enum cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
	unsigned long long id = 0;
	cudaGraph_t graph = NULL;
	const cudaGraphNode_t *deps = NULL;
	const cudaGraphEdgeData *edges = NULL;
	size_t num = 0;
	int rc = fn(STREAM, &status, &id, &graph, &deps, &edges, &num);

	ad_report(step, rc);
	print_outputs(step, status, id, graph, deps, num);
	print_edges(step, edges, num);
}

static void call_v2(const char *step, v2_fn fn)
{
	enum cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
	unsigned long long id = 0;
	cudaGraph_t graph = NULL;
	const cudaGraphNode_t *deps = NULL;
	size_t num = 0;
	int rc = fn(STREAM, &status, &id, &graph, &deps, &num);

	ad_report(step, rc);
	print_outputs(step, status, id, graph, deps, num);
}

static void call_three(const char *step, three_fn fn)
{
	enum cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
	unsigned long long id = 0;
	int rc = fn(STREAM, &status, &id);

	ad_report(step, rc);
	printf("%s.status=%d\n%s.id=%llu\n", step, (int)status, step, id);
}

/* 13's form and, for a 12-ABI stub, _v3. */
static void edge_forms(const char *plain, const char *ptsz)
{
	edges_fn fn = (edges_fn)ad_stub_symbol(plain);
	enum cudaStreamCaptureStatus status;
	const cudaGraphEdgeData *edges = NULL;
	size_t num = 0;
	const cudaGraphNode_t *deps = NULL;

	call_edges("all", fn);
	call_edges("ptsz", (edges_fn)ad_stub_symbol(ptsz));
	/* edge data without the dependencies it parallels */
	ad_report("nodeps", fn(STREAM, &status, NULL, NULL, NULL, &edges, &num));
	/* edge data without a count */
	ad_report("nocount", fn(STREAM, &status, NULL, NULL, &deps, &edges, NULL));
	print_edges("nocount", edges, 3);
}

static int capture_13(void)
{
	edge_forms("cudaStreamGetCaptureInfo", "cudaStreamGetCaptureInfo_ptsz");
	return 0;
}

static int capture_v3(void)
{
	edge_forms("cudaStreamGetCaptureInfo_v3", "cudaStreamGetCaptureInfo_v3_ptsz");
	return 0;
}

static int capture_v2(void)
{
	call_v2("v2", (v2_fn)ad_stub_symbol("cudaStreamGetCaptureInfo_v2"));
	call_v2("ptsz", (v2_fn)ad_stub_symbol("cudaStreamGetCaptureInfo_v2_ptsz"));
	return 0;
}

static int capture_three(void)
{
	call_three("plain", (three_fn)ad_stub_symbol("cudaStreamGetCaptureInfo"));
	call_three("ptsz", (three_fn)ad_stub_symbol("cudaStreamGetCaptureInfo_ptsz"));
	return 0;
}

/* ---- checks ---- */

static void expect_outputs(const struct ts_child *c, const char *step, int fake_major)
{
	AD_STEP_VALUE(c, step, "rc", cudaSuccess);
	AD_STEP_VALUE(c, step, "status", cudaStreamCaptureStatusActive);
	AD_STEP_VALUE(c, step, "id", fake_major * 100 + 2);
	AD_STEP_VALUE(c, step, "graph", AD_GRAPH);
	AD_STEP_VALUE(c, step, "num", 3);
	AD_STEP_VALUE(c, step, "dep2", 0xd3);
}

/* Edge data made up for a runtime without it: three plain edges. */
static void expect_plain_edges(const struct ts_child *c, const char *step)
{
	AD_STEP_VALUE(c, step, "edges_set", 1);
	AD_STEP_VALUE(c, step, "from_ports", 0);
	AD_STEP_VALUE(c, step, "other_edge_bits", 0);
}

/* The runtime's own edge data, ports 1 + 2 + 3. */
static void expect_runtime_edges(const struct ts_child *c, const char *step)
{
	AD_STEP_VALUE(c, step, "from_ports", 6);
}

static void check_13_on_12_takes_v3(const struct ts_child *c)
{
	AD_CALLED(c, "all", "cudaStreamGetCaptureInfo_v3");
	AD_NOT_CALLED(c, "all", "cudaStreamGetCaptureInfo");
	expect_outputs(c, "all", 12);
	expect_runtime_edges(c, "all");
	AD_CALLED(c, "ptsz", "cudaStreamGetCaptureInfo_v3_ptsz");
	AD_NOT_CALLED(c, "ptsz", "cudaStreamGetCaptureInfo_ptsz");
	expect_outputs(c, "ptsz", 12);
}

static void check_edges_on_11(const struct ts_child *c)
{
	AD_CALLED(c, "all", "cudaStreamGetCaptureInfo_v2");
	AD_NOT_CALLED(c, "all", "cudaStreamGetCaptureInfo");
	expect_outputs(c, "all", 11);
	expect_plain_edges(c, "all");
	AD_CALLED(c, "ptsz", "cudaStreamGetCaptureInfo_v2_ptsz");
	AD_NOT_CALLED(c, "ptsz", "cudaStreamGetCaptureInfo_ptsz");
	expect_outputs(c, "ptsz", 11);
	expect_plain_edges(c, "ptsz");
	AD_EXPECT_VALUE(c, "nodeps.rc", cudaErrorInvalidValue);
	AD_NO_CALLS(c, "nodeps");
	AD_EXPECT_VALUE(c, "nocount.rc", cudaSuccess);
	AD_CALLED(c, "nocount", "cudaStreamGetCaptureInfo_v2");
	expect_plain_edges(c, "nocount");
}

static void check_12_v3_on_13_takes_13s(const struct ts_child *c)
{
	AD_CALLED(c, "all", "cudaStreamGetCaptureInfo");
	expect_outputs(c, "all", 13);
	expect_runtime_edges(c, "all");
	AD_CALLED(c, "ptsz", "cudaStreamGetCaptureInfo_ptsz");
	expect_runtime_edges(c, "ptsz");
}

static void check_v2_on_13(const struct ts_child *c)
{
	AD_CALLED(c, "v2", "cudaStreamGetCaptureInfo");
	expect_outputs(c, "v2", 13);
	AD_EXPECT_VALUE(c, "v2.arg5", 0); /* no edge data asked for */
	AD_CALLED(c, "ptsz", "cudaStreamGetCaptureInfo_ptsz");
	expect_outputs(c, "ptsz", 13);
	AD_EXPECT_VALUE(c, "ptsz.arg5", 0);
}

static void check_11_three_outputs_on_13(const struct ts_child *c)
{
	AD_CALLED(c, "plain", "cudaStreamGetCaptureInfo");
	AD_EXPECT_VALUE(c, "plain.rc", cudaSuccess);
	AD_EXPECT_VALUE(c, "plain.status", cudaStreamCaptureStatusActive);
	AD_EXPECT_VALUE(c, "plain.id", 1302);
	for (int i = 3; i <= 6; i++) { /* graph, dependencies, edges, count: NULL */
		char key[32];

		snprintf(key, sizeof key, "plain.arg%d", i);
		AD_EXPECT_VALUE(c, key, 0);
	}
	AD_CALLED(c, "ptsz", "cudaStreamGetCaptureInfo_ptsz");
	AD_EXPECT_VALUE(c, "ptsz.id", 1302);
}

static void check_11_three_outputs_on_12_takes_v2(const struct ts_child *c)
{
	/* 12's own three-output export has 11's ABI, but 12 no longer
	 * declares it: the stub asks _v2 for the same two outputs */
	AD_CALLED(c, "plain", "cudaStreamGetCaptureInfo_v2");
	AD_NOT_CALLED(c, "plain", "cudaStreamGetCaptureInfo");
	AD_EXPECT_VALUE(c, "plain.id", 1202);
	AD_EXPECT_VALUE(c, "plain.arg3", 0);
	AD_EXPECT_VALUE(c, "plain.arg4", 0);
	AD_EXPECT_VALUE(c, "plain.arg5", 0);
	AD_CALLED(c, "ptsz", "cudaStreamGetCaptureInfo_v2_ptsz");
	AD_EXPECT_VALUE(c, "ptsz.id", 1202);
}

static void check_11_three_outputs_on_11_forwards(const struct ts_child *c)
{
	AD_CALLED(c, "plain", "cudaStreamGetCaptureInfo");
	AD_EXPECT_VALUE(c, "plain.id", 1101);
}

static const struct ad_case cases[] = {
	AD_REPORTED("13 on 12: _v3", 13, "12", capture_13, check_13_on_12_takes_v3),
	AD_REPORTED("13 on 11: _v2, plain edges", 13, "11", capture_13, check_edges_on_11),
	AD_REPORTED("12 _v3 on 11: _v2, plain edges", 12, "11", capture_v3, check_edges_on_11),
	AD_REPORTED("12 _v3 on 13: 13's", 12, "13", capture_v3, check_12_v3_on_13_takes_13s),
	AD_REPORTED("12 _v2 on 13: 13's, no edge data", 12, "13", capture_v2, check_v2_on_13),
	AD_REPORTED("11 _v2 on 13: 13's, no edge data", 11, "13", capture_v2, check_v2_on_13),
	AD_REPORTED("11 three outputs on 13", 11, "13", capture_three,
		    check_11_three_outputs_on_13),
	AD_REPORTED("11 three outputs on 12: _v2", 11, "12", capture_three,
		    check_11_three_outputs_on_12_takes_v2),
	AD_REPORTED("11 three outputs on 11: forwards", 11, "11", capture_three,
		    check_11_three_outputs_on_11_forwards),
	AD_END,
};

AD_MAIN("capture info adapters", cases)

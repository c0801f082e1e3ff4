/*
 * adapt_instantiate.c and adapt_exec_update.c: cudaGraphInstantiate and
 * cudaGraphExecUpdate between 11's forms and 12's (which 13 kept).
 *
 * The fakes fail a graph AM_BAD_GRAPH: instantiation with error node
 * AM_ERROR_NODE and result cudaGraphInstantiateInvalidStructure, an update
 * with cudaGraphExecUpdateErrorTopologyChanged, error node AM_ERROR_NODE
 * and (12, 13) error-from node AM_ERROR_FROM_NODE. Fake arguments:
 *   11 cudaGraphInstantiate      pGraphExec, graph, pErrorNode, log, size
 *   WithFlags, 12's Instantiate  pGraphExec, graph, flags
 *   WithParams                   pGraphExec, graph, params, flags, uploadStream
 *   11 cudaGraphExecUpdate       exec, graph, errorNode*, result*
 *   12 cudaGraphExecUpdate       exec, graph, resultInfo*
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "adapters_memory.h"

#define GRAPH	  ((cudaGraph_t)AM_GRAPH)
#define BAD_GRAPH ((cudaGraph_t)AM_BAD_GRAPH)
#define EXEC	  ((cudaGraphExec_t)0xe1)
#define P(x)	  ((long long)(intptr_t)(x))

typedef cudaError_t (*instantiate_11_fn)(cudaGraphExec_t *, cudaGraph_t, cudaGraphNode_t *, char *,
					 size_t);
typedef cudaError_t (*instantiate_flags_fn)(cudaGraphExec_t *, cudaGraph_t, unsigned long long);
typedef cudaError_t (*update_11_fn)(cudaGraphExec_t, cudaGraph_t, cudaGraphNode_t *,
				    enum cudaGraphExecUpdateResult *);
typedef cudaError_t (*update_12_fn)(cudaGraphExec_t, cudaGraph_t, cudaGraphExecUpdateResultInfo *);

/* ---- child scenarios ---- */

/* The 12/13 form: allowed flags, then a flag 11 cannot be told. */
static int instantiate_flags(void)
{
	instantiate_flags_fn fn = (instantiate_flags_fn)am_symbol("cudaGraphInstantiate");
	cudaGraphExec_t exec = NULL;

	am_report("flags", fn(&exec, GRAPH,
			      cudaGraphInstantiateFlagAutoFreeOnLaunch |
				      cudaGraphInstantiateFlagUseNodePriority));
	printf("flags.exec=%lld\n", P(exec));
	am_report("upload", fn(&exec, GRAPH, cudaGraphInstantiateFlagUpload));
	am_report("device", fn(&exec, GRAPH, cudaGraphInstantiateFlagDeviceLaunch));
	return 0;
}

/* The 11 form: success, a failure with a log, a failure with a log buffer
 * of 8 inside a larger array whose tail must stay untouched. */
static int instantiate_log(void)
{
	instantiate_11_fn fn = (instantiate_11_fn)am_symbol("cudaGraphInstantiate");
	cudaGraphExec_t exec = NULL;
	cudaGraphNode_t node = NULL;
	char log[128] = "", small[16];
	int tail_intact = 1;

	am_report("ok", fn(&exec, GRAPH, &node, log, sizeof log));
	printf("ok.exec=%lld\nok.node=%lld\n", P(exec), P(node));
	am_report("bad", fn(&exec, BAD_GRAPH, &node, log, sizeof log));
	printf("bad.node=%lld\nbad.log=%s\n", P(node), log);
	memset(small, 'X', sizeof small);
	am_report("small", fn(&exec, BAD_GRAPH, NULL, small, 8));
	for (int i = 8; i < 16; i++)
		tail_intact &= small[i] == 'X';
	printf("small.len=%zu\nsmall.tail_intact=%d\n", strnlen(small, 8), tail_intact);
	am_report("nolog", fn(&exec, BAD_GRAPH, NULL, NULL, 0));
	return 0;
}

static int update_info(void)
{
	update_12_fn fn = (update_12_fn)am_symbol("cudaGraphExecUpdate");
	cudaGraphExecUpdateResultInfo info;

	memset(&info, 0x55, sizeof info);
	am_report("bad", fn(EXEC, BAD_GRAPH, &info));
	printf("bad.result=%d\nbad.node=%lld\nbad.from=%lld\n", (int)info.result, P(info.errorNode),
	       P(info.errorFromNode));
	am_report("ok", fn(EXEC, GRAPH, &info));
	printf("ok.result=%d\nok.node=%lld\n", (int)info.result, P(info.errorNode));
	am_report("null", fn(EXEC, GRAPH, NULL));
	return 0;
}

static int update_two(void)
{
	update_11_fn fn = (update_11_fn)am_symbol("cudaGraphExecUpdate");
	cudaGraphNode_t node = NULL;
	enum cudaGraphExecUpdateResult result = cudaGraphExecUpdateSuccess;

	am_report("bad", fn(EXEC, BAD_GRAPH, &node, &result));
	printf("bad.result=%d\nbad.node=%lld\n", (int)result, P(node));
	am_report("ok", fn(EXEC, GRAPH, &node, &result));
	printf("ok.result=%d\nok.node=%lld\n", (int)result, P(node));
	am_report("null", fn(EXEC, GRAPH, &node, NULL));
	return 0;
}

/* ---- checks: cudaGraphInstantiate ---- */

static void check_flags_on_11(int abi)
{
	struct ts_child c;

	if (!am_run(abi, 11, "instantiate_flags", &c))
		return;
	AM_EXPECT(&c, "flags.rc", cudaSuccess);
	AM_CALLED(&c, "flags", "cudaGraphInstantiateWithFlags");
	AM_NOT_CALLED(&c, "flags", "cudaGraphInstantiate");
	AM_EXPECT(&c, "flags.arg1", AM_GRAPH);
	AM_EXPECT(&c, "flags.arg2",
		  cudaGraphInstantiateFlagAutoFreeOnLaunch |
			  cudaGraphInstantiateFlagUseNodePriority);
	AM_EXPECT(&c, "flags.exec", AM_GRAPH_EXEC);
	AM_EXPECT(&c, "upload.rc", cudaErrorNotSupported);
	AM_NO_CALLS(&c, "upload");
	AM_EXPECT(&c, "device.rc", cudaErrorNotSupported);
	AM_NO_CALLS(&c, "device");
}

static void test_13_on_11(void)
{
	check_flags_on_11(13);
}

static void test_12_on_11(void)
{
	check_flags_on_11(12);
}

static void check_log_on(int fake_major)
{
	struct ts_child c;

	if (!am_run(11, fake_major, "instantiate_log", &c))
		return;
	AM_EXPECT(&c, "ok.rc", cudaSuccess);
	AM_CALLED(&c, "ok", "cudaGraphInstantiateWithParams");
	AM_NOT_CALLED(&c, "ok", "cudaGraphInstantiate");
	AM_EXPECT(&c, "ok.arg1", AM_GRAPH);
	AM_EXPECT(&c, "ok.arg3", 0); /* flags */
	AM_EXPECT(&c, "ok.arg4", 0); /* upload stream */
	AM_EXPECT(&c, "ok.exec", AM_GRAPH_EXEC);
	AM_EXPECT(&c, "ok.node", 0);
	AM_EXPECT(&c, "bad.rc", cudaErrorInvalidValue);
	AM_EXPECT(&c, "bad.node", AM_ERROR_NODE);
	CU_ASSERT_PTR_NOT_NULL(strstr(ts_value(&c, "bad.log") ? ts_value(&c, "bad.log") : "",
				      "cudaGraphInstantiateResult 2"));
	AM_EXPECT(&c, "small.rc", cudaErrorInvalidValue);
	AM_EXPECT(&c, "small.len", 7);
	AM_EXPECT(&c, "small.tail_intact", 1);
	AM_EXPECT(&c, "nolog.rc", cudaErrorInvalidValue);
}

static void test_11_on_13(void)
{
	check_log_on(13);
}

static void test_11_on_12(void)
{
	check_log_on(12);
}

static void test_11_on_11_forwards(void)
{
	struct ts_child c;

	if (!am_run(11, 11, "instantiate_log", &c))
		return;
	AM_CALLED(&c, "ok", "cudaGraphInstantiate");
	AM_EXPECT(&c, "ok.arg4", 128);
}

/* ---- checks: cudaGraphExecUpdate ---- */

static void check_info_on_11(int abi)
{
	struct ts_child c;

	if (!am_run(abi, 11, "update_info", &c))
		return;
	AM_CALLED(&c, "bad", "cudaGraphExecUpdate");
	AM_EXPECT(&c, "bad.rc", cudaErrorGraphExecUpdateFailure);
	AM_EXPECT(&c, "bad.arg0", 0xe1);
	AM_EXPECT(&c, "bad.arg1", AM_BAD_GRAPH);
	AM_EXPECT(&c, "bad.result", cudaGraphExecUpdateErrorTopologyChanged);
	AM_EXPECT(&c, "bad.node", AM_ERROR_NODE);
	AM_EXPECT(&c, "bad.from", 0); /* 11 cannot say */
	AM_EXPECT(&c, "ok.rc", cudaSuccess);
	AM_EXPECT(&c, "ok.result", cudaGraphExecUpdateSuccess);
	AM_EXPECT(&c, "ok.node", 0);
	/* no resultInfo: 11 is asked with no outputs and says what it says */
	AM_EXPECT(&c, "null.rc", cudaErrorInvalidValue);
	AM_EXPECT(&c, "null.arg2", 0);
	AM_EXPECT(&c, "null.arg3", 0);
}

static void test_13_update_on_11(void)
{
	check_info_on_11(13);
}

static void test_12_update_on_11(void)
{
	check_info_on_11(12);
}

static void check_two_on(int fake_major)
{
	struct ts_child c;

	if (!am_run(11, fake_major, "update_two", &c))
		return;
	AM_CALLED(&c, "bad", "cudaGraphExecUpdate");
	AM_EXPECT(&c, "bad.rc", cudaErrorGraphExecUpdateFailure);
	AM_EXPECT(&c, "bad.arg1", AM_BAD_GRAPH);
	AM_EXPECT(&c, "bad.result", cudaGraphExecUpdateErrorTopologyChanged);
	AM_EXPECT(&c, "bad.node", AM_ERROR_NODE);
	AM_EXPECT(&c, "ok.rc", cudaSuccess);
	AM_EXPECT(&c, "ok.result", cudaGraphExecUpdateSuccess);
	AM_EXPECT(&c, "ok.node", 0);
	AM_EXPECT(&c, "null.rc", cudaErrorInvalidValue);
	AM_EXPECT(&c, "null.arg2", 0); /* the runtime saw no resultInfo */
}

static void test_11_update_on_13(void)
{
	check_two_on(13);
}

static void test_11_update_on_12(void)
{
	check_two_on(12);
}

static void register_suites(void)
{
	CU_pSuite s = am_suite("graph instantiation and update adapters");

	if (!s)
		return;
	CU_add_test(s, "13 cudaGraphInstantiate on 11: WithFlags", test_13_on_11);
	CU_add_test(s, "12 cudaGraphInstantiate on 11: WithFlags", test_12_on_11);
	CU_add_test(s, "11 cudaGraphInstantiate on 13: WithParams", test_11_on_13);
	CU_add_test(s, "11 cudaGraphInstantiate on 12: WithParams", test_11_on_12);
	CU_add_test(s, "11 cudaGraphInstantiate on 11: forwards", test_11_on_11_forwards);
	CU_add_test(s, "13 cudaGraphExecUpdate on 11: two outputs", test_13_update_on_11);
	CU_add_test(s, "12 cudaGraphExecUpdate on 11: two outputs", test_12_update_on_11);
	CU_add_test(s, "11 cudaGraphExecUpdate on 13: resultInfo", test_11_update_on_13);
	CU_add_test(s, "11 cudaGraphExecUpdate on 12: resultInfo", test_11_update_on_12);
}

int main(int argc, char **argv)
{
	static const struct ts_scenario scenarios[] = {{"instantiate_flags", instantiate_flags},
						       {"instantiate_log", instantiate_log},
						       {"update_info", update_info},
						       {"update_two", update_two},
						       {NULL, NULL}};

	return ts_main(argc, argv, scenarios, register_suites);
}

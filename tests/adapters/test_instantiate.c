/*
 * adapt_instantiate.c and adapt_exec_update.c: cudaGraphInstantiate and
 * cudaGraphExecUpdate between 11's forms and 12's (which 13 kept).
 *
 * The fakes fail a graph AD_BAD_GRAPH: instantiation with error node
 * AD_ERROR_NODE and result cudaGraphInstantiateInvalidStructure, an update
 * with cudaGraphExecUpdateErrorTopologyChanged, error node AD_ERROR_NODE
 * and (12, 13) error-from node AD_ERROR_FROM_NODE. Fake arguments:
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

#include "adapters_test.h"

#define GRAPH	  ((cudaGraph_t)AD_GRAPH)
#define BAD_GRAPH ((cudaGraph_t)AD_BAD_GRAPH)
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
	instantiate_flags_fn fn = (instantiate_flags_fn)ad_stub_symbol("cudaGraphInstantiate");
	cudaGraphExec_t exec = NULL;

	ad_report("flags", fn(&exec, GRAPH,
			      cudaGraphInstantiateFlagAutoFreeOnLaunch |
				      cudaGraphInstantiateFlagUseNodePriority));
	printf("flags.exec=%lld\n", P(exec));
	ad_report("upload", fn(&exec, GRAPH, cudaGraphInstantiateFlagUpload));
	ad_report("device", fn(&exec, GRAPH, cudaGraphInstantiateFlagDeviceLaunch));
	return 0;
}

/* The 11 form: success, a failure with a log, a failure with a log buffer
 * of 8 inside a larger array whose tail must stay untouched. */
static int instantiate_log(void)
{
	instantiate_11_fn fn = (instantiate_11_fn)ad_stub_symbol("cudaGraphInstantiate");
	cudaGraphExec_t exec = NULL;
	cudaGraphNode_t node = NULL;
	char log[128] = "", small[16];
	int tail_intact = 1;

	ad_report("ok", fn(&exec, GRAPH, &node, log, sizeof log));
	printf("ok.exec=%lld\nok.node=%lld\n", P(exec), P(node));
	ad_report("bad", fn(&exec, BAD_GRAPH, &node, log, sizeof log));
	printf("bad.node=%lld\nbad.log=%s\n", P(node), log);
	memset(small, 'X', sizeof small);
	ad_report("small", fn(&exec, BAD_GRAPH, NULL, small, 8));
	for (int i = 8; i < 16; i++)
		tail_intact &= small[i] == 'X';
	printf("small.len=%zu\nsmall.tail_intact=%d\n", strnlen(small, 8), tail_intact);
	ad_report("nolog", fn(&exec, BAD_GRAPH, NULL, NULL, 0));
	return 0;
}

static int update_info(void)
{
	update_12_fn fn = (update_12_fn)ad_stub_symbol("cudaGraphExecUpdate");
	cudaGraphExecUpdateResultInfo info;

	memset(&info, 0x55, sizeof info);
	ad_report("bad", fn(EXEC, BAD_GRAPH, &info));
	printf("bad.result=%d\nbad.node=%lld\nbad.from=%lld\n", (int)info.result, P(info.errorNode),
	       P(info.errorFromNode));
	ad_report("ok", fn(EXEC, GRAPH, &info));
	printf("ok.result=%d\nok.node=%lld\n", (int)info.result, P(info.errorNode));
	ad_report("null", fn(EXEC, GRAPH, NULL));
	return 0;
}

static int update_two(void)
{
	update_11_fn fn = (update_11_fn)ad_stub_symbol("cudaGraphExecUpdate");
	cudaGraphNode_t node = NULL;
	enum cudaGraphExecUpdateResult result = cudaGraphExecUpdateSuccess;

	ad_report("bad", fn(EXEC, BAD_GRAPH, &node, &result));
	printf("bad.result=%d\nbad.node=%lld\n", (int)result, P(node));
	ad_report("ok", fn(EXEC, GRAPH, &node, &result));
	printf("ok.result=%d\nok.node=%lld\n", (int)result, P(node));
	ad_report("null", fn(EXEC, GRAPH, &node, NULL));
	return 0;
}

/* ---- checks: cudaGraphInstantiate ---- */

static void check_flags_on_11(const struct ts_child *c)
{
	AD_EXPECT_VALUE(c, "flags.rc", cudaSuccess);
	AD_CALLED(c, "flags", "cudaGraphInstantiateWithFlags");
	AD_NOT_CALLED(c, "flags", "cudaGraphInstantiate");
	AD_EXPECT_VALUE(c, "flags.arg1", AD_GRAPH);
	AD_EXPECT_VALUE(c, "flags.arg2",
			cudaGraphInstantiateFlagAutoFreeOnLaunch |
				cudaGraphInstantiateFlagUseNodePriority);
	AD_EXPECT_VALUE(c, "flags.exec", AD_GRAPH_EXEC);
	AD_EXPECT_VALUE(c, "upload.rc", cudaErrorNotSupported);
	AD_NO_CALLS(c, "upload");
	AD_EXPECT_VALUE(c, "device.rc", cudaErrorNotSupported);
	AD_NO_CALLS(c, "device");
}

static void check_log_via_params(const struct ts_child *c)
{
	AD_EXPECT_VALUE(c, "ok.rc", cudaSuccess);
	AD_CALLED(c, "ok", "cudaGraphInstantiateWithParams");
	AD_NOT_CALLED(c, "ok", "cudaGraphInstantiate");
	AD_EXPECT_VALUE(c, "ok.arg1", AD_GRAPH);
	AD_EXPECT_VALUE(c, "ok.arg3", 0); /* flags */
	AD_EXPECT_VALUE(c, "ok.arg4", 0); /* upload stream */
	AD_EXPECT_VALUE(c, "ok.exec", AD_GRAPH_EXEC);
	AD_EXPECT_VALUE(c, "ok.node", 0);
	AD_EXPECT_VALUE(c, "bad.rc", cudaErrorInvalidValue);
	AD_EXPECT_VALUE(c, "bad.node", AD_ERROR_NODE);
	CU_ASSERT_PTR_NOT_NULL(strstr(ts_value(c, "bad.log") ? ts_value(c, "bad.log") : "",
				      "cudaGraphInstantiateResult 2"));
	AD_EXPECT_VALUE(c, "small.rc", cudaErrorInvalidValue);
	AD_EXPECT_VALUE(c, "small.len", 7);
	AD_EXPECT_VALUE(c, "small.tail_intact", 1);
	AD_EXPECT_VALUE(c, "nolog.rc", cudaErrorInvalidValue);
}

static void check_11_on_11_forwards(const struct ts_child *c)
{
	AD_CALLED(c, "ok", "cudaGraphInstantiate");
	AD_EXPECT_VALUE(c, "ok.arg4", 128);
}

/* ---- checks: cudaGraphExecUpdate ---- */

static void check_info_on_11(const struct ts_child *c)
{
	AD_CALLED(c, "bad", "cudaGraphExecUpdate");
	AD_EXPECT_VALUE(c, "bad.rc", cudaErrorGraphExecUpdateFailure);
	AD_EXPECT_VALUE(c, "bad.arg0", 0xe1);
	AD_EXPECT_VALUE(c, "bad.arg1", AD_BAD_GRAPH);
	AD_EXPECT_VALUE(c, "bad.result", cudaGraphExecUpdateErrorTopologyChanged);
	AD_EXPECT_VALUE(c, "bad.node", AD_ERROR_NODE);
	AD_EXPECT_VALUE(c, "bad.from", 0); /* 11 cannot say */
	AD_EXPECT_VALUE(c, "ok.rc", cudaSuccess);
	AD_EXPECT_VALUE(c, "ok.result", cudaGraphExecUpdateSuccess);
	AD_EXPECT_VALUE(c, "ok.node", 0);
	/* no resultInfo: 11 is asked with no outputs and says what it says */
	AD_EXPECT_VALUE(c, "null.rc", cudaErrorInvalidValue);
	AD_EXPECT_VALUE(c, "null.arg2", 0);
	AD_EXPECT_VALUE(c, "null.arg3", 0);
}

static void check_two_via_result_info(const struct ts_child *c)
{
	AD_CALLED(c, "bad", "cudaGraphExecUpdate");
	AD_EXPECT_VALUE(c, "bad.rc", cudaErrorGraphExecUpdateFailure);
	AD_EXPECT_VALUE(c, "bad.arg1", AD_BAD_GRAPH);
	AD_EXPECT_VALUE(c, "bad.result", cudaGraphExecUpdateErrorTopologyChanged);
	AD_EXPECT_VALUE(c, "bad.node", AD_ERROR_NODE);
	AD_EXPECT_VALUE(c, "ok.rc", cudaSuccess);
	AD_EXPECT_VALUE(c, "ok.result", cudaGraphExecUpdateSuccess);
	AD_EXPECT_VALUE(c, "ok.node", 0);
	AD_EXPECT_VALUE(c, "null.rc", cudaErrorInvalidValue);
	AD_EXPECT_VALUE(c, "null.arg2", 0); /* the runtime saw no resultInfo */
}

static const struct ad_case cases[] = {
	AD_REPORTED("13 cudaGraphInstantiate on 11: WithFlags", 13, "11", instantiate_flags,
		    check_flags_on_11),
	AD_REPORTED("12 cudaGraphInstantiate on 11: WithFlags", 12, "11", instantiate_flags,
		    check_flags_on_11),
	AD_REPORTED("11 cudaGraphInstantiate on 13: WithParams", 11, "13", instantiate_log,
		    check_log_via_params),
	AD_REPORTED("11 cudaGraphInstantiate on 12: WithParams", 11, "12", instantiate_log,
		    check_log_via_params),
	AD_REPORTED("11 cudaGraphInstantiate on 11: forwards", 11, "11", instantiate_log,
		    check_11_on_11_forwards),
	AD_REPORTED("13 cudaGraphExecUpdate on 11: two outputs", 13, "11", update_info,
		    check_info_on_11),
	AD_REPORTED("12 cudaGraphExecUpdate on 11: two outputs", 12, "11", update_info,
		    check_info_on_11),
	AD_REPORTED("11 cudaGraphExecUpdate on 13: resultInfo", 11, "13", update_two,
		    check_two_via_result_info),
	AD_REPORTED("11 cudaGraphExecUpdate on 12: resultInfo", 11, "12", update_two,
		    check_two_via_result_info),
	AD_END,
};

AD_MAIN("graph instantiation and update adapters", cases)

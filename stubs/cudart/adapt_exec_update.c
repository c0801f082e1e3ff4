/*
 * cudaGraphExecUpdate: 12.0 gathered the two outputs into a struct and added
 * a third.
 *
 *   11.x        cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
 *                       cudaGraphNode_t *hErrorNode_out,
 *                       enum cudaGraphExecUpdateResult *updateResult_out);
 *   12.x, 13.0  cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
 *                       cudaGraphExecUpdateResultInfo *resultInfo);
 *               struct cudaGraphExecUpdateResultInfo_st { enum cudaGraphExecUpdateResult result;
 *                       cudaGraphNode_t errorNode; cudaGraphNode_t errorFromNode; };
 *
 * Rule. 11-ABI stub on 12 or 13: the runtime fills a resultInfo of the
 * stub's own; result goes to *updateResult_out and errorNode to
 * *hErrorNode_out (when given). errorFromNode has no place in 11 and is
 * dropped. Without updateResult_out the runtime is passed a NULL resultInfo
 * and gives its own verdict. An output the runtime does not write keeps the
 * caller's value. 12- or 13-ABI stub on 11: 11 fills the two
 * outputs; errorFromNode, which 11 does not know, is NULL. A NULL resultInfo
 * is passed on as two NULL outputs. enum cudaGraphExecUpdateResult has the
 * same values (0 to 8) in 11.8, 12.4 and 13.0.
 */
#define _GNU_SOURCE
#include <stddef.h>

#include "adapt_loaded.h"

/* cudaGraphExecUpdateResultInfo as the 12.4 and 13.0 records give it (size
 * 24: result 0, an enum; errorNode 8; errorFromNode 16). It has one layout
 * wherever it exists, so no layout constant is generated for it. */
struct update_result_info_12 {
	enum cudaGraphExecUpdateResult result;
	cudaGraphNode_t errorNode;
	cudaGraphNode_t errorFromNode;
};
_Static_assert(sizeof(struct update_result_info_12) == 24, "cudaGraphExecUpdateResultInfo size");
_Static_assert(offsetof(struct update_result_info_12, errorNode) == 8, "errorNode");
_Static_assert(offsetof(struct update_result_info_12, errorFromNode) == 16, "errorFromNode");

typedef cudaError_t (*update_12_fn)(cudaGraphExec_t, cudaGraph_t, struct update_result_info_12 *);
typedef cudaError_t (*update_11_fn)(cudaGraphExec_t, cudaGraph_t, cudaGraphNode_t *,
				    enum cudaGraphExecUpdateResult *);

/* The translators, and the cell of the runtime function each calls. */
enum { BY_RESULT_INFO, BY_TWO_OUTPUTS, TRANSLATORS };
static _Atomic(void *) callees[TRANSLATORS];

/* An 11 caller on 12 or 13. */
static cudaError_t update_by_result_info(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
					 cudaGraphNode_t *hErrorNode_out,
					 enum cudaGraphExecUpdateResult *updateResult_out)
{
	struct update_result_info_12 info = {cudaGraphExecUpdateSuccess, NULL, NULL};
	update_12_fn update;
	cudaError_t rc;

	/* What the runtime leaves alone, the caller gets back unchanged. */
	if (updateResult_out)
		info.result = *updateResult_out;
	if (hErrorNode_out)
		info.errorNode = *hErrorNode_out;
	*(void **)&update = adapt_callee(&callees[BY_RESULT_INFO]);
	rc = update(hGraphExec, hGraph, updateResult_out ? &info : NULL);
	if (updateResult_out)
		*updateResult_out = info.result;
	if (updateResult_out && hErrorNode_out)
		*hErrorNode_out = info.errorNode;
	return rc;
}

/* A 12 or 13 caller on 11. */
static cudaError_t update_by_two_outputs(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
					 struct update_result_info_12 *resultInfo)
{
	update_11_fn fn;
	cudaGraphNode_t node;
	enum cudaGraphExecUpdateResult result;
	cudaError_t rc;

	*(void **)&fn = adapt_callee(&callees[BY_TWO_OUTPUTS]);
	if (!resultInfo)
		return fn(hGraphExec, hGraph, NULL, NULL);
	/* What the runtime leaves alone, the caller gets back unchanged. */
	node = resultInfo->errorNode;
	result = resultInfo->result;
	rc = fn(hGraphExec, hGraph, &node, &result);
	resultInfo->result = result;
	resultInfo->errorNode = node;
	resultInfo->errorFromNode = NULL;
	return rc;
}

/* The translators by number, for the registry. */
static void *translator(int via)
{
	switch (via) {
	case BY_RESULT_INFO: return (void *)update_by_result_info;
	case BY_TWO_OUTPUTS: return (void *)update_by_two_outputs;
	}
	return NULL;
}

/* An 11 caller on 12 or 13, a 12 or 13 caller on 11: the same name. */
static const struct adapt_entry entries[] = {
	ADAPT_ENTRY(ADAPT_cudaGraphExecUpdate, 11, ADAPT_ON_FORM, 12, ADAPT_SELF,
		    ADAPT_cudaGraphExecUpdate, BY_RESULT_INFO),
	ADAPT_ENTRY(ADAPT_cudaGraphExecUpdate, 12, ADAPT_ON_FORM, 11, ADAPT_SELF,
		    ADAPT_cudaGraphExecUpdate, BY_TWO_OUTPUTS),
};

ADAPT_FAMILY(exec_update, entries, translator, callees)

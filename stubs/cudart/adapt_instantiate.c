/*
 * cudaGraphInstantiate: 12.0 replaced the error node and log buffer with
 * flags.
 *
 *   11.x        cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec,
 *                       cudaGraph_t graph, cudaGraphNode_t *pErrorNode,
 *                       char *pLogBuffer, size_t bufferSize);
 *   11.4+       cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec,
 *                       cudaGraph_t graph, unsigned long long flags);
 *   12.x, 13.0  cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec,
 *                       cudaGraph_t graph, unsigned long long flags);
 *               cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t *pGraphExec,
 *                       cudaGraph_t graph, cudaGraphInstantiateParams *instantiateParams);
 *
 * Rule, 11-ABI stub on 12 or 13: cudaGraphInstantiateWithParams with flags 0
 * and no upload stream, the only form that still reports an error node.
 * errNode_out goes to *pErrorNode (when given). On failure the log buffer,
 * when given, gets one line naming result_out, cut to bufferSize bytes with
 * its terminating NUL; the runtime's own diagnostics have no 12 equivalent.
 *
 * Rule, 12- or 13-ABI stub on 11: cudaGraphInstantiateWithFlags, whose
 * prototype is the same. Of the flags, 11.8 knows AutoFreeOnLaunch and
 * UseNodePriority; Upload and DeviceLaunch (12.0) cannot be said to it:
 * cudaErrorNotSupported, nothing called. A runtime older than 11.4, without
 * WithFlags, gets the 11 form when flags is 0, else cudaErrorNotSupported.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdio.h>

#include "adapt_loaded.h"

/* The values of 12.0's and 13.0's enum cudaGraphInstantiateFlags. */
enum { FLAG_UPLOAD = 2, FLAG_DEVICE_LAUNCH = 4 };
#if CUDASTUB_CUDART_VERSION >= 12000
_Static_assert((int)cudaGraphInstantiateFlagUpload == FLAG_UPLOAD,
	       "cudaGraphInstantiateFlagUpload");
_Static_assert((int)cudaGraphInstantiateFlagDeviceLaunch == FLAG_DEVICE_LAUNCH,
	       "cudaGraphInstantiateFlagDeviceLaunch");
#endif

/* struct cudaGraphInstantiateParams_st as the 12.4 and 13.0 records give it
 * (size 32: flags 0, uploadStream 8, errNode_out 16, result_out 24, an enum).
 * It has one layout wherever it exists, so no layout constant is generated
 * for it; the offsets below are checked against the records' numbers. */
struct instantiate_params_12 {
	unsigned long long flags;
	cudaStream_t uploadStream;
	cudaGraphNode_t errNode_out;
	int result_out;
};
_Static_assert(sizeof(struct instantiate_params_12) == 32, "cudaGraphInstantiateParams size");
_Static_assert(offsetof(struct instantiate_params_12, uploadStream) == 8, "uploadStream");
_Static_assert(offsetof(struct instantiate_params_12, errNode_out) == 16, "errNode_out");
_Static_assert(offsetof(struct instantiate_params_12, result_out) == 24, "result_out");

/* The runtime's functions the translators call. */
typedef cudaError_t (*with_params_fn)(cudaGraphExec_t *, cudaGraph_t,
				      struct instantiate_params_12 *);
typedef cudaError_t (*with_flags_fn)(cudaGraphExec_t *, cudaGraph_t, unsigned long long);
typedef cudaError_t (*instantiate_11_fn)(cudaGraphExec_t *, cudaGraph_t, cudaGraphNode_t *, char *,
					 size_t);

/* The translators, and the cell of the runtime function each calls. */
enum { BY_PARAMS, BY_FLAGS, ON_11, TRANSLATORS };
static _Atomic(void *) callees[TRANSLATORS];

/* ---- an 11 caller on 12 or 13 ---- */

static cudaError_t instantiate_by_params(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
					 cudaGraphNode_t *pErrorNode, char *pLogBuffer,
					 size_t bufferSize)
{
	struct instantiate_params_12 params = {0, NULL, NULL, 0};
	with_params_fn instantiate;
	cudaError_t rc;

	*(void **)&instantiate = adapt_callee(&callees[BY_PARAMS]);
	rc = instantiate(pGraphExec, graph, &params);
	if (rc != cudaSuccess && pErrorNode)
		*pErrorNode = params.errNode_out;
	if (rc != cudaSuccess && pLogBuffer && bufferSize > 0)
		snprintf(pLogBuffer, bufferSize,
			 "cudaGraphInstantiateWithParams failed: cudaGraphInstantiateResult %d",
			 params.result_out);
	return rc;
}

/* ---- a 12 or 13 caller on 11 ---- */

static cudaError_t instantiate_by_flags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
					unsigned long long flags)
{
	with_flags_fn by_flags;

	if (flags & (FLAG_UPLOAD | FLAG_DEVICE_LAUNCH))
		return cudaErrorNotSupported;
	*(void **)&by_flags = adapt_callee(&callees[BY_FLAGS]);
	return by_flags(pGraphExec, graph, flags);
}

/* Before 11.4, without WithFlags. */
static cudaError_t instantiate_on_11(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
				     unsigned long long flags)
{
	instantiate_11_fn old;

	if (flags != 0)
		return cudaErrorNotSupported;
	*(void **)&old = adapt_callee(&callees[ON_11]);
	return old(pGraphExec, graph, NULL, NULL, 0);
}

/* The translators by number, for the registry. */
static void *translator(int via)
{
	switch (via) {
	case BY_PARAMS: return (void *)instantiate_by_params;
	case BY_FLAGS: return (void *)instantiate_by_flags;
	case ON_11: return (void *)instantiate_on_11;
	}
	return NULL;
}

/* An 11 caller on 12 or 13: WithParams. A 12 or 13 caller on 11: WithFlags
 * (11.4+), else 11's own form. */
static const struct adapt_entry entries[] = {
	ADAPT_ENTRY(ADAPT_cudaGraphInstantiate, 11, ADAPT_ON_FORM, 12, ADAPT_SELF,
		    ADAPT_cudaGraphInstantiateWithParams, BY_PARAMS),
	ADAPT_ENTRY(ADAPT_cudaGraphInstantiate, 12, ADAPT_ON_FORM, 11, ADAPT_SELF,
		    ADAPT_cudaGraphInstantiateWithFlags, BY_FLAGS),
	ADAPT_ENTRY(ADAPT_cudaGraphInstantiate, 12, ADAPT_ON_FORM, 11, ADAPT_SELF,
		    ADAPT_cudaGraphInstantiate, ON_11),
};

ADAPT_FAMILY(instantiate, entries, translator, callees)

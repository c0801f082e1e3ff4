/*
 * The functions that the memory-location, capture-info, graph
 * instantiation and update and driver entry point adapters
 * (stubs/cudart/adapt_{mem_location,capture_info,instantiate,exec_update,
 * entry_point}.c) and the spec's `same_function` lines for cudaThread* and
 * the external semaphores reach, each under the names and with the
 * prototypes that this major's real libcudart exports:
 *
 *   every major  cudaDevice{Reset,Synchronize,SetLimit,GetLimit,
 *                GetCacheConfig,SetCacheConfig}, cudaGraphInstantiateWithFlags
 *   11, 12       cudaThread*; cudaMemAdvise, cudaMemPrefetchAsync[_ptsz] with
 *                an int device; cudaStreamGetCaptureInfo[_ptsz] with three
 *                outputs and _v2[_ptsz]; cudaSignal/WaitExternalSemaphoresAsync
 *                [_ptsz] with the 11.0 _v1 element, and _v2[_ptsz]
 *   11           cudaGraphInstantiate (error node, log), cudaGraphExecUpdate
 *                (two outputs), cudaGetDriverEntryPoint[_ptsz] (3 arguments)
 *   12 (12.4)    cudaMemAdvise_v2, cudaMemPrefetchAsync_v2[_ptsz],
 *                cudaStreamGetCaptureInfo_v3[_ptsz]
 *   12, 13       cudaGraphInstantiate (flags), cudaGraphInstantiateWithParams,
 *                cudaGraphExecUpdate (resultInfo), cudaGetDriverEntryPoint[_ptsz]
 *                (status)
 *   13           cudaMemAdvise, cudaMemPrefetchAsync[_ptsz] with a
 *                cudaMemLocation; cudaStreamGetCaptureInfo[_ptsz] with edge
 *                data; cudaGetDriverEntryPointByVersion[_ptsz];
 *                cudaSignal/WaitExternalSemaphoresAsync[_ptsz] (144-byte element)
 *
 * Each logs its name (fake_cudart_record) and keeps its arguments, as
 * integers, in fake_memory_args for the tests to read. What they return is
 * fixed, or chosen by an argument: a graph FAKE_BAD_GRAPH fails, a symbol
 * "cuMissing" is not found.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <string.h>

#include "fake_cudart.h"

/* 12.x maps these names to _v2 (and 13 has none of the first); the fake
 * defines what the library exports under each name. */
#undef cudaStreamGetCaptureInfo
#undef cudaSignalExternalSemaphoresAsync
#undef cudaWaitExternalSemaphoresAsync

#define FAKE_BAD_GRAPH	     ((cudaGraph_t)0xbad)
#define FAKE_ERROR_NODE	     ((cudaGraphNode_t)0xe7)
#define FAKE_ERROR_FROM_NODE ((cudaGraphNode_t)0xf7)
#define FAKE_GRAPH_EXEC	     ((cudaGraphExec_t)0xe8e)

/* The last call's arguments, pointers and enums as integers. */
enum { FAKE_MEMORY_ARGS = 8 };
FAKE_EXPORT long long fake_memory_args[FAKE_MEMORY_ARGS];

static void keep(const char *name, const long long *args, int n)
{
	fake_cudart_record(name);
	memset(fake_memory_args, 0, sizeof fake_memory_args);
	if (n > 0)
		memcpy(fake_memory_args, args, (size_t)n * sizeof *args);
}

#define P(x) ((long long)(intptr_t)(x))

/* ---- every major ---- */

FAKE_EXPORT cudaError_t cudaDeviceReset(void)
{
	keep("cudaDeviceReset", NULL, 0);
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t cudaDeviceSynchronize(void)
{
	keep("cudaDeviceSynchronize", NULL, 0);
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value)
{
	keep("cudaDeviceSetLimit", (long long[]){limit, (long long)value}, 2);
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit)
{
	keep("cudaDeviceGetLimit", (long long[]){P(pValue), limit}, 2);
	*pValue = 1000 + (size_t)limit;
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig)
{
	keep("cudaDeviceGetCacheConfig", (long long[]){P(pCacheConfig)}, 1);
	*pCacheConfig = cudaFuncCachePreferEqual;
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig)
{
	keep("cudaDeviceSetCacheConfig", (long long[]){cacheConfig}, 1);
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec,
						      cudaGraph_t graph, unsigned long long flags)
{
	keep("cudaGraphInstantiateWithFlags",
	     (long long[]){P(pGraphExec), P(graph), (long long)flags}, 3);
	*pGraphExec = FAKE_GRAPH_EXEC;
	return cudaSuccess;
}

/* ---- 11 and 12 ---- */
#if FAKE_MAJOR < 13

FAKE_EXPORT cudaError_t cudaThreadExit(void)
{
	keep("cudaThreadExit", NULL, 0);
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t cudaThreadSynchronize(void)
{
	keep("cudaThreadSynchronize", NULL, 0);
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t cudaThreadSetLimit(enum cudaLimit limit, size_t value)
{
	keep("cudaThreadSetLimit", (long long[]){limit, (long long)value}, 2);
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t cudaThreadGetLimit(size_t *pValue, enum cudaLimit limit)
{
	keep("cudaThreadGetLimit", (long long[]){P(pValue), limit}, 2);
	*pValue = 1000 + (size_t)limit;
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t cudaThreadGetCacheConfig(enum cudaFuncCache *pCacheConfig)
{
	keep("cudaThreadGetCacheConfig", (long long[]){P(pCacheConfig)}, 1);
	*pCacheConfig = cudaFuncCachePreferEqual;
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t cudaThreadSetCacheConfig(enum cudaFuncCache cacheConfig)
{
	keep("cudaThreadSetCacheConfig", (long long[]){cacheConfig}, 1);
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t cudaMemAdvise(const void *devPtr, size_t count,
				      enum cudaMemoryAdvise advice, int device)
{
	keep("cudaMemAdvise", (long long[]){P(devPtr), (long long)count, advice, device}, 4);
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice,
					     cudaStream_t stream)
{
	keep("cudaMemPrefetchAsync",
	     (long long[]){P(devPtr), (long long)count, dstDevice, P(stream)}, 4);
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count, int dstDevice,
						  cudaStream_t stream)
{
	keep("cudaMemPrefetchAsync_ptsz",
	     (long long[]){P(devPtr), (long long)count, dstDevice, P(stream)}, 4);
	return cudaSuccess;
}

/* The 11.0 form, still exported under the plain names. */
static cudaError_t capture_info_legacy(const char *name, cudaStream_t stream,
				       enum cudaStreamCaptureStatus *status, unsigned long long *id)
{
	keep(name, (long long[]){P(stream), P(status), P(id)}, 3);
	*status = cudaStreamCaptureStatusActive;
	*id = FAKE_MAJOR * 100 + 1;
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream,
						 enum cudaStreamCaptureStatus *status,
						 unsigned long long *id)
{
	return capture_info_legacy("cudaStreamGetCaptureInfo", stream, status, id);
}

FAKE_EXPORT cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream,
						      enum cudaStreamCaptureStatus *status,
						      unsigned long long *id)
{
	return capture_info_legacy("cudaStreamGetCaptureInfo_ptsz", stream, status, id);
}

#endif /* 11 and 12 */

/* The outputs of every capture-info form with dependencies. */
static const cudaGraphNode_t fake_dependencies[3] = {(cudaGraphNode_t)0xd1, (cudaGraphNode_t)0xd2,
						     (cudaGraphNode_t)0xd3};

static cudaError_t capture_info_outputs(enum cudaStreamCaptureStatus *status,
					unsigned long long *id, cudaGraph_t *graph,
					const cudaGraphNode_t **deps, size_t *num)
{
	*status = cudaStreamCaptureStatusActive;
	if (id)
		*id = FAKE_MAJOR * 100 + 2;
	if (graph)
		*graph = (cudaGraph_t)0x6a0;
	if (deps)
		*deps = fake_dependencies;
	if (num)
		*num = 3;
	return cudaSuccess;
}

#if FAKE_MAJOR < 13
static cudaError_t capture_info_v2(const char *name, cudaStream_t stream,
				   enum cudaStreamCaptureStatus *status, unsigned long long *id,
				   cudaGraph_t *graph, const cudaGraphNode_t **deps, size_t *num)
{
	keep(name, (long long[]){P(stream), P(status), P(id), P(graph), P(deps), P(num)}, 6);
	return capture_info_outputs(status, id, graph, deps, num);
}

FAKE_EXPORT cudaError_t cudaStreamGetCaptureInfo_v2(cudaStream_t stream,
						    enum cudaStreamCaptureStatus *status,
						    unsigned long long *id, cudaGraph_t *graph,
						    const cudaGraphNode_t **deps, size_t *num)
{
	return capture_info_v2("cudaStreamGetCaptureInfo_v2", stream, status, id, graph, deps, num);
}

FAKE_EXPORT cudaError_t cudaStreamGetCaptureInfo_v2_ptsz(cudaStream_t stream,
							 enum cudaStreamCaptureStatus *status,
							 unsigned long long *id, cudaGraph_t *graph,
							 const cudaGraphNode_t **deps, size_t *num)
{
	return capture_info_v2("cudaStreamGetCaptureInfo_v2_ptsz", stream, status, id, graph, deps,
			       num);
}
#endif

#if FAKE_MAJOR >= 12
/* Edge data with a port set: what only an edge-data form can report. */
static const cudaGraphEdgeData fake_edges[3] = {{1, 0, 0, {0}}, {2, 0, 0, {0}}, {3, 0, 0, {0}}};

static cudaError_t capture_info_edges(const char *name, cudaStream_t stream,
				      enum cudaStreamCaptureStatus *status, unsigned long long *id,
				      cudaGraph_t *graph, const cudaGraphNode_t **deps,
				      const cudaGraphEdgeData **edges, size_t *num)
{
	keep(name, (long long[]){P(stream), P(status), P(id), P(graph), P(deps), P(edges), P(num)},
	     7);
	if (edges)
		*edges = fake_edges;
	return capture_info_outputs(status, id, graph, deps, num);
}
#endif

/* ---- 12 and 13: the cudaMemLocation and edge-data forms ---- */
/* 12.4's cudaMemAdvise_v2, cudaMemPrefetchAsync_v2[_ptsz] and
 * cudaStreamGetCaptureInfo_v3[_ptsz] have the prototypes of 13's plain
 * names: each is defined once, under this major's name (LOCATION_FORM,
 * EDGES_FORM: the name and its tail, "" or _ptsz), and logs that name. */
#if FAKE_MAJOR == 12
#define LOCATION_FORM(name, tail) name##_v2##tail
#define EDGES_FORM(name, tail)	  name##_v3##tail
#elif FAKE_MAJOR >= 13
#define LOCATION_FORM(name, tail) name##tail
#define EDGES_FORM(name, tail)	  name##tail
#endif

#if FAKE_MAJOR >= 12
FAKE_EXPORT cudaError_t LOCATION_FORM(cudaMemAdvise, )(const void *devPtr, size_t count,
						       enum cudaMemoryAdvise advice,
						       struct cudaMemLocation location)
{
	keep(__func__,
	     (long long[]){P(devPtr), (long long)count, advice, location.type, location.id}, 5);
	return cudaSuccess;
}

static cudaError_t prefetch_location(const char *name, const void *devPtr, size_t count,
				     struct cudaMemLocation location, unsigned int flags,
				     cudaStream_t stream)
{
	keep(name,
	     (long long[]){P(devPtr), (long long)count, location.type, location.id, flags,
			   P(stream)},
	     6);
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t LOCATION_FORM(cudaMemPrefetchAsync, )(const void *devPtr, size_t count,
							      struct cudaMemLocation location,
							      unsigned int flags,
							      cudaStream_t stream)
{
	return prefetch_location(__func__, devPtr, count, location, flags, stream);
}

FAKE_EXPORT cudaError_t LOCATION_FORM(cudaMemPrefetchAsync, _ptsz)(const void *devPtr, size_t count,
								   struct cudaMemLocation location,
								   unsigned int flags,
								   cudaStream_t stream)
{
	return prefetch_location(__func__, devPtr, count, location, flags, stream);
}

FAKE_EXPORT cudaError_t EDGES_FORM(cudaStreamGetCaptureInfo, )(
	cudaStream_t stream, enum cudaStreamCaptureStatus *status, unsigned long long *id,
	cudaGraph_t *graph, const cudaGraphNode_t **deps, const cudaGraphEdgeData **edges,
	size_t *num)
{
	return capture_info_edges(__func__, stream, status, id, graph, deps, edges, num);
}

FAKE_EXPORT cudaError_t EDGES_FORM(cudaStreamGetCaptureInfo,
				   _ptsz)(cudaStream_t stream, enum cudaStreamCaptureStatus *status,
					  unsigned long long *id, cudaGraph_t *graph,
					  const cudaGraphNode_t **deps,
					  const cudaGraphEdgeData **edges, size_t *num)
{
	return capture_info_edges(__func__, stream, status, id, graph, deps, edges, num);
}
#endif /* 12 and 13 */

/* ---- graph instantiation and update ---- */
#if FAKE_MAJOR == 11

FAKE_EXPORT cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
					     cudaGraphNode_t *pErrorNode, char *pLogBuffer,
					     size_t bufferSize)
{
	keep("cudaGraphInstantiate",
	     (long long[]){P(pGraphExec), P(graph), P(pErrorNode), P(pLogBuffer),
			   (long long)bufferSize},
	     5);
	*pGraphExec = FAKE_GRAPH_EXEC;
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
					    cudaGraphNode_t *hErrorNode_out,
					    enum cudaGraphExecUpdateResult *updateResult_out)
{
	keep("cudaGraphExecUpdate",
	     (long long[]){P(hGraphExec), P(hGraph), P(hErrorNode_out), P(updateResult_out)}, 4);
	if (!hErrorNode_out || !updateResult_out)
		return cudaErrorInvalidValue;
	if (hGraph != FAKE_BAD_GRAPH) {
		*updateResult_out = cudaGraphExecUpdateSuccess;
		*hErrorNode_out = NULL;
		return cudaSuccess;
	}
	*updateResult_out = cudaGraphExecUpdateErrorTopologyChanged;
	*hErrorNode_out = FAKE_ERROR_NODE;
	return cudaErrorGraphExecUpdateFailure;
}

#else

FAKE_EXPORT cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
					     unsigned long long flags)
{
	keep("cudaGraphInstantiate", (long long[]){P(pGraphExec), P(graph), (long long)flags}, 3);
	*pGraphExec = FAKE_GRAPH_EXEC;
	return cudaSuccess;
}

static cudaError_t instantiate_with_params(const char *name, cudaGraphExec_t *pGraphExec,
					   cudaGraph_t graph, cudaGraphInstantiateParams *params)
{
	keep(name,
	     (long long[]){P(pGraphExec), P(graph), P(params), (long long)params->flags,
			   P(params->uploadStream)},
	     5);
	if (graph == FAKE_BAD_GRAPH) {
		params->errNode_out = FAKE_ERROR_NODE;
		params->result_out = cudaGraphInstantiateInvalidStructure;
		return cudaErrorInvalidValue;
	}
	*pGraphExec = FAKE_GRAPH_EXEC;
	params->result_out = cudaGraphInstantiateSuccess;
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t *pGraphExec,
						       cudaGraph_t graph,
						       cudaGraphInstantiateParams *params)
{
	return instantiate_with_params("cudaGraphInstantiateWithParams", pGraphExec, graph, params);
}

FAKE_EXPORT cudaError_t cudaGraphInstantiateWithParams_ptsz(cudaGraphExec_t *pGraphExec,
							    cudaGraph_t graph,
							    cudaGraphInstantiateParams *params)
{
	return instantiate_with_params("cudaGraphInstantiateWithParams_ptsz", pGraphExec, graph,
				       params);
}

FAKE_EXPORT cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
					    cudaGraphExecUpdateResultInfo *resultInfo)
{
	keep("cudaGraphExecUpdate", (long long[]){P(hGraphExec), P(hGraph), P(resultInfo)}, 3);
	if (!resultInfo)
		return cudaErrorInvalidValue;
	if (hGraph != FAKE_BAD_GRAPH) {
		resultInfo->result = cudaGraphExecUpdateSuccess;
		resultInfo->errorNode = NULL;
		resultInfo->errorFromNode = NULL;
		return cudaSuccess;
	}
	resultInfo->result = cudaGraphExecUpdateErrorTopologyChanged;
	resultInfo->errorNode = FAKE_ERROR_NODE;
	resultInfo->errorFromNode = FAKE_ERROR_FROM_NODE;
	return cudaErrorGraphExecUpdateFailure;
}

#endif

/* ---- driver entry points ---- */

/* What a found driver symbol's address is. */
FAKE_EXPORT int fake_driver_function;

static int entry_point_found(const char *symbol, void **funcPtr)
{
	int found = strcmp(symbol, "cuMissing") != 0;

	*funcPtr = found ? (void *)&fake_driver_function : NULL;
	return found;
}

#if FAKE_MAJOR == 11

static cudaError_t entry_point_11(const char *name, const char *symbol, void **funcPtr,
				  unsigned long long flags)
{
	keep(name, (long long[]){P(symbol), P(funcPtr), (long long)flags}, 3);
	return entry_point_found(symbol, funcPtr) ? cudaSuccess : cudaErrorSymbolNotFound;
}

FAKE_EXPORT cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **funcPtr,
						unsigned long long flags)
{
	return entry_point_11("cudaGetDriverEntryPoint", symbol, funcPtr, flags);
}

FAKE_EXPORT cudaError_t cudaGetDriverEntryPoint_ptsz(const char *symbol, void **funcPtr,
						     unsigned long long flags)
{
	return entry_point_11("cudaGetDriverEntryPoint_ptsz", symbol, funcPtr, flags);
}

#else

static cudaError_t entry_point_status(const char *name, const char *symbol, void **funcPtr,
				      unsigned int version, unsigned long long flags,
				      enum cudaDriverEntryPointQueryResult *status)
{
	int found;

	keep(name, (long long[]){P(symbol), P(funcPtr), version, (long long)flags, P(status)}, 5);
	found = entry_point_found(symbol, funcPtr);
	if (status)
		*status = found ? cudaDriverEntryPointSuccess : cudaDriverEntryPointSymbolNotFound;
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **funcPtr,
						unsigned long long flags,
						enum cudaDriverEntryPointQueryResult *status)
{
	return entry_point_status("cudaGetDriverEntryPoint", symbol, funcPtr, 0, flags, status);
}

FAKE_EXPORT cudaError_t cudaGetDriverEntryPoint_ptsz(const char *symbol, void **funcPtr,
						     unsigned long long flags,
						     enum cudaDriverEntryPointQueryResult *status)
{
	return entry_point_status("cudaGetDriverEntryPoint_ptsz", symbol, funcPtr, 0, flags,
				  status);
}

#endif

#if FAKE_MAJOR >= 13 /* 12.5 added them; the fake 12 is 12.4 */

FAKE_EXPORT cudaError_t cudaGetDriverEntryPointByVersion(
	const char *symbol, void **funcPtr, unsigned int cudaVersion, unsigned long long flags,
	enum cudaDriverEntryPointQueryResult *status)
{
	return entry_point_status("cudaGetDriverEntryPointByVersion", symbol, funcPtr, cudaVersion,
				  flags, status);
}

FAKE_EXPORT cudaError_t cudaGetDriverEntryPointByVersion_ptsz(
	const char *symbol, void **funcPtr, unsigned int cudaVersion, unsigned long long flags,
	enum cudaDriverEntryPointQueryResult *status)
{
	return entry_point_status("cudaGetDriverEntryPointByVersion_ptsz", symbol, funcPtr,
				  cudaVersion, flags, status);
}

#endif

/* ---- external semaphores ---- */

/* The 144-byte element: its address, count, and what the last element says
 * (read at the 13.0/12.x offsets). */
#define SEMAPHORES(name, type)                                                                     \
	FAKE_EXPORT cudaError_t name(const cudaExternalSemaphore_t *extSemArray,                   \
				     const struct type *paramsArray, unsigned int numExtSems,      \
				     cudaStream_t stream)                                          \
	{                                                                                          \
		const struct type *last = numExtSems ? &paramsArray[numExtSems - 1] : NULL;        \
                                                                                                   \
		keep(#name,                                                                        \
		     (long long[]){P(extSemArray), P(paramsArray), numExtSems, P(stream),          \
				   last ? (long long)last->params.fence.value : -1,                \
				   last ? (long long)last->flags : -1},                            \
		     6);                                                                           \
		return cudaSuccess;                                                                \
	}

#if FAKE_MAJOR >= 13
SEMAPHORES(cudaSignalExternalSemaphoresAsync, cudaExternalSemaphoreSignalParams)
SEMAPHORES(cudaSignalExternalSemaphoresAsync_ptsz, cudaExternalSemaphoreSignalParams)
SEMAPHORES(cudaWaitExternalSemaphoresAsync, cudaExternalSemaphoreWaitParams)
SEMAPHORES(cudaWaitExternalSemaphoresAsync_ptsz, cudaExternalSemaphoreWaitParams)
#else
SEMAPHORES(cudaSignalExternalSemaphoresAsync_v2, cudaExternalSemaphoreSignalParams)
SEMAPHORES(cudaSignalExternalSemaphoresAsync_v2_ptsz, cudaExternalSemaphoreSignalParams)
SEMAPHORES(cudaWaitExternalSemaphoresAsync_v2, cudaExternalSemaphoreWaitParams)
SEMAPHORES(cudaWaitExternalSemaphoresAsync_v2_ptsz, cudaExternalSemaphoreWaitParams)
/* The 11.0 forms with the 32-byte _v1 element, under the plain names. */
SEMAPHORES(cudaSignalExternalSemaphoresAsync, cudaExternalSemaphoreSignalParams_v1)
SEMAPHORES(cudaSignalExternalSemaphoresAsync_ptsz, cudaExternalSemaphoreSignalParams_v1)
SEMAPHORES(cudaWaitExternalSemaphoresAsync, cudaExternalSemaphoreWaitParams_v1)
SEMAPHORES(cudaWaitExternalSemaphoresAsync_ptsz, cudaExternalSemaphoreWaitParams_v1)
#endif

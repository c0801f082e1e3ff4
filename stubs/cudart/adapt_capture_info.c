/*
 * cudaStreamGetCaptureInfo: a capturing stream's state, in three shapes.
 *
 *   11.x        cudaError_t cudaStreamGetCaptureInfo[_ptsz](cudaStream_t stream,
 *                       enum cudaStreamCaptureStatus *pCaptureStatus, unsigned long long *pId);
 *               (12.x still exports it under that name, but declares it no more)
 *   11.3+, 12.x cudaError_t cudaStreamGetCaptureInfo_v2[_ptsz](cudaStream_t stream,
 *                       enum cudaStreamCaptureStatus *captureStatus_out,
 *                       unsigned long long *id_out, cudaGraph_t *graph_out,
 *                       const cudaGraphNode_t **dependencies_out,
 *                       size_t *numDependencies_out);
 *   12.3+       cudaError_t cudaStreamGetCaptureInfo_v3[_ptsz](... as _v2 ...,
 *                       const cudaGraphNode_t **dependencies_out,
 *                       const cudaGraphEdgeData **edgeData_out,
 *                       size_t *numDependencies_out);
 *   13.0        cudaStreamGetCaptureInfo[_ptsz] with _v3's prototype; _v2 and _v3 gone.
 *
 * Rule. Fewer outputs to more: the missing ones are passed as NULL, which
 * every form documents as "not wanted". More outputs to fewer (a runtime
 * without _v3): a runtime that cannot attach data to an edge has only plain
 * edges, so edgeData_out is pointed at an array of zeroed cudaGraphEdgeData
 * parallel to dependencies_out (read-only, shared, never freed: the headers
 * promise the array only until the next call on the stream). Its size bounds
 * the dependencies it can describe; more than that is cudaErrorNotSupported.
 * edgeData_out without dependencies_out is cudaErrorInvalidValue, as the
 * 12.3 and 13.0 headers require, and nothing is called.
 *
 *   13-ABI stub on 12    _v3 as it is (12.3+), else _v2 with zeroed edge data
 *   13-ABI stub on 11    _v2 with zeroed edge data
 *   12-ABI _v3 on 13     13's plain name as it is; on 11 or 12.0-12.2: as above
 *   12-/11-ABI _v2 on 13 13's plain name, edgeData_out NULL
 *   11-ABI plain on 12   12's _v2 (graph and dependencies NULL)
 *   11-ABI plain on 13   13's plain name (graph, dependencies, edge data NULL)
 * The legacy three-output symbol that 11 and 12 export is never called by a
 * stub of another ABI.
 */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stddef.h>

#include "adapt_loaded.h"

/* The loaded runtime's forms. The edge-data parameter is a pointer whatever
 * it points to; it is spelled const void ** because 11.8 has no
 * cudaGraphEdgeData, and every caller below passes NULL for it. */
typedef cudaError_t (*capture_v2_fn)(cudaStream_t, enum cudaStreamCaptureStatus *,
				     unsigned long long *, cudaGraph_t *, const cudaGraphNode_t **,
				     size_t *);
typedef cudaError_t (*capture_edges_fn)(cudaStream_t, enum cudaStreamCaptureStatus *,
					unsigned long long *, cudaGraph_t *,
					const cudaGraphNode_t **, const void **edge_data, size_t *);

static const char *const v2_names[2] = {"cudaStreamGetCaptureInfo_v2",
					"cudaStreamGetCaptureInfo_v2_ptsz"};
/* [0] legacy stream, [1] _ptsz */
static _Atomic(void *) capture_v2[2];

static void *use_v2(const struct cudastub_release *release, const char *name, int ptsz,
		    void *adapter)
{
	return adapt_translate_to(release, name, v2_names[ptsz], v2_names[ptsz], &capture_v2[ptsz],
				  adapter);
}

#if CUDASTUB_ABI_MAJOR < CUDA_MAJOR_EDGE_DATA
static const char *const plain_names[2] = {"cudaStreamGetCaptureInfo",
					   "cudaStreamGetCaptureInfo_ptsz"};
static _Atomic(void *) capture_edges[2];

/* 13's form, for callers with fewer outputs. The plain name's rows cannot
 * say which runtime has it: 12's records hide the plain name's three
 * outputs, so every other major's form is "another ABI" to each of them. */
static void *use_13(const struct cudastub_release *release, const char *name, int ptsz,
		    void *adapter)
{
	return adapt_translate_if(release->major == CUDA_MAJOR_EDGE_DATA, release, name,
				  plain_names[ptsz], plain_names[ptsz], &capture_edges[ptsz],
				  adapter);
}
#endif

/* ---- callers with edge data: the 13-ABI plain names, the 12-ABI _v3 ---- */
#if CUDART_VERSION >= CUDA_VERSION_EDGE_DATA_V2

/* Every edge of a runtime without edge data: type default, ports 0. */
enum { PLAIN_EDGES_MAX = 1024 };
typedef cudaError_t (*capture_v3_fn)(cudaStream_t, enum cudaStreamCaptureStatus *,
				     unsigned long long *, cudaGraph_t *, const cudaGraphNode_t **,
				     const cudaGraphEdgeData **, size_t *);
static const cudaGraphEdgeData plain_edges[PLAIN_EDGES_MAX];

static cudaError_t with_plain_edges(int ptsz, cudaStream_t stream,
				    enum cudaStreamCaptureStatus *captureStatus_out,
				    unsigned long long *id_out, cudaGraph_t *graph_out,
				    const cudaGraphNode_t **dependencies_out,
				    const cudaGraphEdgeData **edgeData_out,
				    size_t *numDependencies_out)
{
	size_t count = 0;
	size_t *num = numDependencies_out ? numDependencies_out : &count;
	capture_v2_fn v2;
	cudaError_t rc;

	if (edgeData_out && !dependencies_out)
		return cudaErrorInvalidValue;
	*(void **)&v2 = adapt_slot_function(&capture_v2[ptsz]);
	rc = v2(stream, captureStatus_out, id_out, graph_out, dependencies_out,
		edgeData_out ? num : numDependencies_out);
	if (rc != cudaSuccess || !edgeData_out)
		return rc;
	if (*num > PLAIN_EDGES_MAX)
		return cudaErrorNotSupported;
	*edgeData_out = plain_edges;
	return rc;
}

ADAPT_PTSZ_TWINS(cudaError_t, with_plain_edges,
		 (cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
		  unsigned long long *id_out, cudaGraph_t *graph_out,
		  const cudaGraphNode_t **dependencies_out, const cudaGraphEdgeData **edgeData_out,
		  size_t *numDependencies_out),
		 (stream, captureStatus_out, id_out, graph_out, dependencies_out, edgeData_out,
		  numDependencies_out))

/* An edge-data caller on a runtime that may lack edge data: the runtime's
 * own edge-data form `same` if it has it, else (the runtime's _v2, which
 * only the forms without edge data have) _v2 with plain edges. Each name
 * has one prototype wherever it is exported, so what the runtime exports
 * decides; no major is compared. */
static void *edges_on(const struct cudastub_release *release, const char *name, const char *same,
		      int ptsz)
{
	static const capture_v3_fn adapters[2] = {with_plain_edges_legacy, with_plain_edges_ptsz};
	void *fn = adapt_as_is(release, name, same, same);

	return fn ? fn : use_v2(release, name, ptsz, (void *)adapters[ptsz]);
}

#endif /* edge-data callers */

/* ---- _v2 callers: the 11- and 12-ABI _v2 names ---- */
#if CUDASTUB_ABI_MAJOR < CUDA_MAJOR_EDGE_DATA

static cudaError_t v2_by_13(int ptsz, cudaStream_t stream,
			    enum cudaStreamCaptureStatus *captureStatus_out,
			    unsigned long long *id_out, cudaGraph_t *graph_out,
			    const cudaGraphNode_t **dependencies_out, size_t *numDependencies_out)
{
	capture_edges_fn with_edges;

	*(void **)&with_edges = adapt_slot_function(&capture_edges[ptsz]);
	return with_edges(stream, captureStatus_out, id_out, graph_out, dependencies_out, NULL,
			  numDependencies_out);
}

ADAPT_PTSZ_TWINS(cudaError_t, v2_by_13,
		 (cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
		  unsigned long long *id_out, cudaGraph_t *graph_out,
		  const cudaGraphNode_t **dependencies_out, size_t *numDependencies_out),
		 (stream, captureStatus_out, id_out, graph_out, dependencies_out,
		  numDependencies_out))

ADAPT_HOOK(cudaStreamGetCaptureInfo_v2,
	   use_13(release, "cudaStreamGetCaptureInfo_v2", 0, (void *)v2_by_13_legacy))
ADAPT_HOOK(cudaStreamGetCaptureInfo_v2_ptsz,
	   use_13(release, "cudaStreamGetCaptureInfo_v2_ptsz", 1, (void *)v2_by_13_ptsz))

#endif /* _v2 callers */

/* ---- the hooks of the plain names and of _v3 ---- */
#if CUDASTUB_ABI_MAJOR >= CUDA_MAJOR_EDGE_DATA

ADAPT_HOOK(cudaStreamGetCaptureInfo,
	   edges_on(release, "cudaStreamGetCaptureInfo", "cudaStreamGetCaptureInfo_v3", 0))
ADAPT_HOOK(cudaStreamGetCaptureInfo_ptsz, edges_on(release, "cudaStreamGetCaptureInfo_ptsz",
						   "cudaStreamGetCaptureInfo_v3_ptsz", 1))

#elif CUDART_VERSION >= CUDA_VERSION_EDGE_DATA_V2

/* _v3, which the loader did not find: 13's plain name has its prototype. */
static void *v3_on(const struct cudastub_release *release, const char *name, const char *plain,
		   int ptsz)
{
	return edges_on(release, name, release->major == CUDA_MAJOR_EDGE_DATA ? plain : name, ptsz);
}

ADAPT_HOOK(cudaStreamGetCaptureInfo_v3,
	   v3_on(release, "cudaStreamGetCaptureInfo_v3", "cudaStreamGetCaptureInfo", 0))
ADAPT_HOOK(cudaStreamGetCaptureInfo_v3_ptsz,
	   v3_on(release, "cudaStreamGetCaptureInfo_v3_ptsz", "cudaStreamGetCaptureInfo_ptsz", 1))

#elif CUDASTUB_ABI_MAJOR < CUDA_MAJOR_CAPTURE_INFO_IS_V2

/* The 11-ABI three-output form: 12's _v2 or 13's form, the rest NULL. */
static cudaError_t status_and_id(int ptsz, cudaStream_t stream,
				 enum cudaStreamCaptureStatus *pCaptureStatus,
				 unsigned long long *pId)
{
	/* One of the two is set: the loaded major never changes. */
	capture_edges_fn with_edges;
	capture_v2_fn v2;

	*(void **)&with_edges = adapt_slot_function(&capture_edges[ptsz]);
	if (with_edges)
		return with_edges(stream, pCaptureStatus, pId, NULL, NULL, NULL, NULL);
	*(void **)&v2 = adapt_slot_function(&capture_v2[ptsz]);
	return v2(stream, pCaptureStatus, pId, NULL, NULL, NULL);
}

ADAPT_PTSZ_TWINS(cudaError_t, status_and_id,
		 (cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus,
		  unsigned long long *pId),
		 (stream, pCaptureStatus, pId))

/* 13's form on 13, 12's _v2 where the row of _v2 (v2_row) says it has
 * the build's prototype (12; and 11, which forwards the plain name). */
static void *three_outputs_on(const struct cudastub_release *release, int v2_row, const char *name,
			      int ptsz, void *adapter)
{
	if (release->major == CUDA_MAJOR_EDGE_DATA)
		return use_13(release, name, ptsz, adapter);
	if (adapt_row_same_abi(release, v2_row))
		return use_v2(release, name, ptsz, adapter);
	return NULL;
}

ADAPT_HOOK(cudaStreamGetCaptureInfo,
	   three_outputs_on(release, F_cudaStreamGetCaptureInfo_v2, "cudaStreamGetCaptureInfo", 0,
			    (void *)status_and_id_legacy))
ADAPT_HOOK(cudaStreamGetCaptureInfo_ptsz,
	   three_outputs_on(release, F_cudaStreamGetCaptureInfo_v2_ptsz,
			    "cudaStreamGetCaptureInfo_ptsz", 1, (void *)status_and_id_ptsz))

#endif

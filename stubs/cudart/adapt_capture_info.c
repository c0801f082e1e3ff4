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
#include <stddef.h>

#include "adapt_edge_data.h"
#include "adapt_loaded.h"

/* The loaded runtime's forms. */
typedef cudaError_t (*capture_v2_fn)(cudaStream_t, enum cudaStreamCaptureStatus *,
				     unsigned long long *, cudaGraph_t *, const cudaGraphNode_t **,
				     size_t *);
typedef cudaError_t (*capture_edges_fn)(cudaStream_t, enum cudaStreamCaptureStatus *,
					unsigned long long *, cudaGraph_t *,
					const cudaGraphNode_t **, const struct adapt_edge_data **,
					size_t *);

/* Each a pair: [0] legacy stream, [1] _ptsz. */
enum { WITH_PLAIN_EDGES = 0, V2_BY_13 = 2, STATUS_BY_13 = 4, STATUS_BY_V2 = 6, TRANSLATORS = 8 };
static _Atomic(void *) callees[TRANSLATORS];

/* ---- callers with edge data (13's plain names, 12.3+'s _v3) on _v2 ---- */

/* Every edge of a runtime without edge data: type default, ports 0. */
enum { PLAIN_EDGES_MAX = 1024 };
static const struct adapt_edge_data plain_edges[PLAIN_EDGES_MAX];

static cudaError_t with_plain_edges(int ptsz, cudaStream_t stream,
				    enum cudaStreamCaptureStatus *captureStatus_out,
				    unsigned long long *id_out, cudaGraph_t *graph_out,
				    const cudaGraphNode_t **dependencies_out,
				    const struct adapt_edge_data **edgeData_out,
				    size_t *numDependencies_out)
{
	size_t count = 0;
	size_t *num = numDependencies_out ? numDependencies_out : &count;
	capture_v2_fn v2;
	cudaError_t rc;

	if (edgeData_out && !dependencies_out)
		return cudaErrorInvalidValue;
	*(void **)&v2 = adapt_callee(&callees[WITH_PLAIN_EDGES + ptsz]);
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
		  const cudaGraphNode_t **dependencies_out,
		  const struct adapt_edge_data **edgeData_out, size_t *numDependencies_out),
		 (stream, captureStatus_out, id_out, graph_out, dependencies_out, edgeData_out,
		  numDependencies_out))

/* ---- _v2 callers (11's and 12's _v2) on 13 ---- */

static cudaError_t v2_by_13(int ptsz, cudaStream_t stream,
			    enum cudaStreamCaptureStatus *captureStatus_out,
			    unsigned long long *id_out, cudaGraph_t *graph_out,
			    const cudaGraphNode_t **dependencies_out, size_t *numDependencies_out)
{
	capture_edges_fn with_edges;

	*(void **)&with_edges = adapt_callee(&callees[V2_BY_13 + ptsz]);
	return with_edges(stream, captureStatus_out, id_out, graph_out, dependencies_out, NULL,
			  numDependencies_out);
}

ADAPT_PTSZ_TWINS(cudaError_t, v2_by_13,
		 (cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
		  unsigned long long *id_out, cudaGraph_t *graph_out,
		  const cudaGraphNode_t **dependencies_out, size_t *numDependencies_out),
		 (stream, captureStatus_out, id_out, graph_out, dependencies_out,
		  numDependencies_out))

/* ---- 11's three-output form: 13's form or 12's _v2, the rest NULL ---- */

static cudaError_t status_by_13(int ptsz, cudaStream_t stream,
				enum cudaStreamCaptureStatus *pCaptureStatus,
				unsigned long long *pId)
{
	capture_edges_fn with_edges;

	*(void **)&with_edges = adapt_callee(&callees[STATUS_BY_13 + ptsz]);
	return with_edges(stream, pCaptureStatus, pId, NULL, NULL, NULL, NULL);
}

static cudaError_t status_by_v2(int ptsz, cudaStream_t stream,
				enum cudaStreamCaptureStatus *pCaptureStatus,
				unsigned long long *pId)
{
	capture_v2_fn v2;

	*(void **)&v2 = adapt_callee(&callees[STATUS_BY_V2 + ptsz]);
	return v2(stream, pCaptureStatus, pId, NULL, NULL, NULL);
}

ADAPT_PTSZ_TWINS(cudaError_t, status_by_13,
		 (cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus,
		  unsigned long long *pId),
		 (stream, pCaptureStatus, pId))
ADAPT_PTSZ_TWINS(cudaError_t, status_by_v2,
		 (cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus,
		  unsigned long long *pId),
		 (stream, pCaptureStatus, pId))

/* The translators by number, for the registry. */
static void *translator(int via)
{
	switch (via) {
	case WITH_PLAIN_EDGES: return (void *)with_plain_edges_legacy;
	case WITH_PLAIN_EDGES + 1: return (void *)with_plain_edges_ptsz;
	case V2_BY_13: return (void *)v2_by_13_legacy;
	case V2_BY_13 + 1: return (void *)v2_by_13_ptsz;
	case STATUS_BY_13: return (void *)status_by_13_legacy;
	case STATUS_BY_13 + 1: return (void *)status_by_13_ptsz;
	case STATUS_BY_V2: return (void *)status_by_v2_legacy;
	case STATUS_BY_V2 + 1: return (void *)status_by_v2_ptsz;
	}
	return NULL;
}

/* The entries of the plain name, _v2 and _v3 (legacy or _ptsz; ptsz: 1
 * for _ptsz). The plain name's forms are 11's three outputs and 13's edge
 * data; 12 declares no plain name (its records hide the exported
 * three-output function), so the plain name's 12 form is "none". Where a
 * runtime lacks the edge-data form, what it exports decides: every name
 * has one prototype wherever it is exported. */
#define CAPTURE_INFO_ENTRIES(plain, ptsz)                                                          \
	ADAPT_ENTRY(ADAPT_##plain, 13, ADAPT_ON_FORM, 0, ADAPT_SELF, ADAPT_##plain##_v3,           \
		    ADAPT_AS_IS),                                                                  \
		ADAPT_ENTRY(ADAPT_##plain, 13, ADAPT_ON_FORM, 0, ADAPT_SELF, ADAPT_##plain##_v2,   \
			    WITH_PLAIN_EDGES + (ptsz)),                                            \
		ADAPT_ENTRY(ADAPT_##plain##_v3, 12, ADAPT_ON_FORM, 13, ADAPT_##plain,              \
			    ADAPT_##plain, ADAPT_AS_IS),                                           \
		ADAPT_ENTRY(ADAPT_##plain##_v3, 12, ADAPT_ON_FORM, 0, ADAPT_SELF,                  \
			    ADAPT_##plain##_v2, WITH_PLAIN_EDGES + (ptsz)),                        \
		ADAPT_ENTRY(ADAPT_##plain##_v2, 11, ADAPT_ON_FORM, 13, ADAPT_##plain,              \
			    ADAPT_##plain, V2_BY_13 + (ptsz)),                                     \
		ADAPT_ENTRY(ADAPT_##plain, 11, ADAPT_ON_FORM, 13, ADAPT_SELF, ADAPT_##plain,       \
			    STATUS_BY_13 + (ptsz)),                                                \
		ADAPT_ENTRY(ADAPT_##plain, 11, ADAPT_ON_FORM, 11, ADAPT_##plain##_v2,              \
			    ADAPT_##plain##_v2, STATUS_BY_V2 + (ptsz))

static const struct adapt_entry entries[] = {
	CAPTURE_INFO_ENTRIES(cudaStreamGetCaptureInfo, 0),
	ADAPT_ENTRY(ADAPT_cudaStreamGetCaptureInfo_ptsz, 13, ADAPT_ON_FORM, 0, ADAPT_SELF,
		    ADAPT_cudaStreamGetCaptureInfo_v3_ptsz, ADAPT_AS_IS),
	ADAPT_ENTRY(ADAPT_cudaStreamGetCaptureInfo_ptsz, 13, ADAPT_ON_FORM, 0, ADAPT_SELF,
		    ADAPT_cudaStreamGetCaptureInfo_v2_ptsz, WITH_PLAIN_EDGES + 1),
	ADAPT_ENTRY(ADAPT_cudaStreamGetCaptureInfo_v3_ptsz, 12, ADAPT_ON_FORM, 13,
		    ADAPT_cudaStreamGetCaptureInfo_ptsz, ADAPT_cudaStreamGetCaptureInfo_ptsz,
		    ADAPT_AS_IS),
	ADAPT_ENTRY(ADAPT_cudaStreamGetCaptureInfo_v3_ptsz, 12, ADAPT_ON_FORM, 0, ADAPT_SELF,
		    ADAPT_cudaStreamGetCaptureInfo_v2_ptsz, WITH_PLAIN_EDGES + 1),
	ADAPT_ENTRY(ADAPT_cudaStreamGetCaptureInfo_v2_ptsz, 11, ADAPT_ON_FORM, 13,
		    ADAPT_cudaStreamGetCaptureInfo_ptsz, ADAPT_cudaStreamGetCaptureInfo_ptsz,
		    V2_BY_13 + 1),
	ADAPT_ENTRY(ADAPT_cudaStreamGetCaptureInfo_ptsz, 11, ADAPT_ON_FORM, 13, ADAPT_SELF,
		    ADAPT_cudaStreamGetCaptureInfo_ptsz, STATUS_BY_13 + 1),
	ADAPT_ENTRY(ADAPT_cudaStreamGetCaptureInfo_ptsz, 11, ADAPT_ON_FORM, 11,
		    ADAPT_cudaStreamGetCaptureInfo_v2_ptsz, ADAPT_cudaStreamGetCaptureInfo_v2_ptsz,
		    STATUS_BY_V2 + 1),
};

ADAPT_FAMILY(capture_info, entries, translator, callees)

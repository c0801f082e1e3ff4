/*
 * Stream capture dependencies gained edge data, as the graph edges did
 * (adapt_graph_edges.c).
 *
 *   11.x, 12.x:
 *   cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream,
 *           cudaGraphNode_t *dependencies, size_t numDependencies, unsigned int flags);
 *   and its _ptsz, with the same parameters (11.8 declares it only for
 *   per-thread-stream builds, so the 11.8 record has no prototype for it)
 *   12.3+ cudaStreamUpdateCaptureDependencies_v2 (and _v2_ptsz), and 13.x's
 *   cudaStreamUpdateCaptureDependencies (and _ptsz): one more parameter,
 *           const cudaGraphEdgeData *dependencyData, before numDependencies.
 *
 * The rule:
 *   13-ABI stub on 12.3+: 12's _v2 (_v2_ptsz) as it is (the same prototype).
 *   13-ABI stub on 11.x or 12.0-12.2, and the 12-ABI _v2 forms there: the
 *     plain form when dependencyData is NULL or all default (zero) edges;
 *     otherwise cudaErrorNotSupported, nothing called.
 *   12- and 11-ABI plain forms on 13: 13's with dependencyData NULL.
 *   12-ABI _v2 forms on 13: 13's plain names as they are.
 *   The 11-ABI stub's _ptsz has no prototype, hence no adapter: the loader
 *   forwards it to 11.x only.
 */
#define _GNU_SOURCE
#include <stdatomic.h>

#include "adapt_edge_data.h"
#include "adapt_loaded.h"

typedef cudaError_t (*update_plain_fn)(cudaStream_t, cudaGraphNode_t *, size_t, unsigned int);
typedef cudaError_t (*update_with_data_fn)(cudaStream_t, cudaGraphNode_t *,
					   const struct cudaGraphEdgeData_st *, size_t,
					   unsigned int);

/* The runtime's functions: the plain name's and (12- and 13-ABI stubs) the
 * _ptsz's. */
static _Atomic(void *) runtime_update;
#if CUDASTUB_ABI_MAJOR >= CUDA_MAJOR_EDGE_DATA_V2
static _Atomic(void *) runtime_update_ptsz;
#endif

#if CUDASTUB_ABI_MAJOR >= CUDA_MAJOR_EDGE_DATA_V2
/* ---- the edge-data form on a runtime that may lack it ---- */

static cudaError_t update_on_plain(_Atomic(void *) *slot, cudaStream_t stream,
				   cudaGraphNode_t *dependencies,
				   const cudaGraphEdgeData *dependencyData, size_t numDependencies,
				   unsigned int flags)
{
	update_plain_fn plain;

	if (!edges_are_default(dependencyData, numDependencies))
		return cudaErrorNotSupported;
	*(void **)&plain = adapt_slot_function(slot);
	return plain(stream, dependencies, numDependencies, flags);
}

static cudaError_t update_on_plain_default(cudaStream_t stream, cudaGraphNode_t *dependencies,
					   const cudaGraphEdgeData *dependencyData,
					   size_t numDependencies, unsigned int flags)
{
	return update_on_plain(&runtime_update, stream, dependencies, dependencyData,
			       numDependencies, flags);
}

static cudaError_t update_on_plain_ptsz(cudaStream_t stream, cudaGraphNode_t *dependencies,
					const cudaGraphEdgeData *dependencyData,
					size_t numDependencies, unsigned int flags)
{
	return update_on_plain(&runtime_update_ptsz, stream, dependencies, dependencyData,
			       numDependencies, flags);
}
#endif

#if CUDASTUB_ABI_MAJOR < CUDA_MAJOR_EDGE_DATA
/* ---- the plain form on 13 ---- */

static cudaError_t update_on_13(_Atomic(void *) *slot, cudaStream_t stream,
				cudaGraphNode_t *dependencies, size_t numDependencies,
				unsigned int flags)
{
	update_with_data_fn with_data;

	*(void **)&with_data = adapt_slot_function(slot);
	return with_data(stream, dependencies, NULL, numDependencies, flags);
}

static cudaError_t update_on_13_default(cudaStream_t stream, cudaGraphNode_t *dependencies,
					size_t numDependencies, unsigned int flags)
{
	return update_on_13(&runtime_update, stream, dependencies, numDependencies, flags);
}
#endif

#if CUDASTUB_ABI_MAJOR == CUDA_MAJOR_EDGE_DATA_V2
static cudaError_t update_on_13_ptsz(cudaStream_t stream, cudaGraphNode_t *dependencies,
				     size_t numDependencies, unsigned int flags)
{
	return update_on_13(&runtime_update_ptsz, stream, dependencies, numDependencies, flags);
}
#endif

/* ---- the stub's entry points (adapt_edge_data.h) ---- */

#if CUDASTUB_ABI_MAJOR >= CUDA_MAJOR_EDGE_DATA
ADAPT_HOOK(cudaStreamUpdateCaptureDependencies,
	   edge_data_form(release, "cudaStreamUpdateCaptureDependencies",
			  "cudaStreamUpdateCaptureDependencies", adapt_other_abi(release),
			  &runtime_update, (void *)update_on_plain_default))
/* The _ptsz forms go by the legacy name's row: each has its legacy name's
 * prototype wherever both are declared, and 11.8 declares _ptsz only for
 * per-thread-stream builds, so its record speaks for the legacy name
 * alone. */
ADAPT_HOOK(cudaStreamUpdateCaptureDependencies_ptsz,
	   edge_data_form(release, "cudaStreamUpdateCaptureDependencies_ptsz",
			  "cudaStreamUpdateCaptureDependencies_ptsz",
			  adapt_row_other_abi(release, F_cudaStreamUpdateCaptureDependencies),
			  &runtime_update_ptsz, (void *)update_on_plain_ptsz))
#else
ADAPT_HOOK(cudaStreamUpdateCaptureDependencies,
	   plain_form_on_edge_data(release, "cudaStreamUpdateCaptureDependencies", &runtime_update,
				   (void *)update_on_13_default))
#endif

#if CUDASTUB_ABI_MAJOR == CUDA_MAJOR_EDGE_DATA_V2
ADAPT_HOOK(cudaStreamUpdateCaptureDependencies_ptsz,
	   plain_form_on_edge_data(release, "cudaStreamUpdateCaptureDependencies_ptsz",
				   &runtime_update_ptsz, (void *)update_on_13_ptsz))
/* _v2 and _v2_ptsz, which neither the loader nor their routes found
 * (v2_form), sharing the plain forms' translators and slots. */
ADAPT_HOOK(cudaStreamUpdateCaptureDependencies_v2,
	   v2_form(release, "cudaStreamUpdateCaptureDependencies_v2",
		   "cudaStreamUpdateCaptureDependencies", F_cudaStreamUpdateCaptureDependencies,
		   &runtime_update, (void *)update_on_plain_default))
ADAPT_HOOK(cudaStreamUpdateCaptureDependencies_v2_ptsz,
	   v2_form(release, "cudaStreamUpdateCaptureDependencies_v2_ptsz",
		   "cudaStreamUpdateCaptureDependencies_ptsz",
		   F_cudaStreamUpdateCaptureDependencies, &runtime_update_ptsz,
		   (void *)update_on_plain_ptsz))
#endif

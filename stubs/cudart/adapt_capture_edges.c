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

#include "adapt_edge_data.h"
#include "adapt_loaded.h"

typedef cudaError_t (*update_plain_fn)(cudaStream_t, cudaGraphNode_t *, size_t, unsigned int);
typedef cudaError_t (*update_with_data_fn)(cudaStream_t, cudaGraphNode_t *,
					   const struct adapt_edge_data *, size_t, unsigned int);

/* Each a pair: [0] legacy stream, [1] _ptsz. */
enum { ON_PLAIN = 0, ON_13 = 2, TRANSLATORS = 4 };
static _Atomic(void *) callees[TRANSLATORS];

/* Edge data on a runtime without it: the plain form, default edges only. */
static cudaError_t update_on_plain(int ptsz, cudaStream_t stream, cudaGraphNode_t *dependencies,
				   const struct adapt_edge_data *dependencyData,
				   size_t numDependencies, unsigned int flags)
{
	update_plain_fn plain;

	if (!edges_are_default(dependencyData, numDependencies))
		return cudaErrorNotSupported;
	*(void **)&plain = adapt_callee(&callees[ON_PLAIN + ptsz]);
	return plain(stream, dependencies, numDependencies, flags);
}

/* The plain form on 13. */
static cudaError_t update_on_13(int ptsz, cudaStream_t stream, cudaGraphNode_t *dependencies,
				size_t numDependencies, unsigned int flags)
{
	update_with_data_fn with_data;

	*(void **)&with_data = adapt_callee(&callees[ON_13 + ptsz]);
	return with_data(stream, dependencies, NULL, numDependencies, flags);
}

ADAPT_PTSZ_TWINS(cudaError_t, update_on_plain,
		 (cudaStream_t stream, cudaGraphNode_t *dependencies,
		  const struct adapt_edge_data *dependencyData, size_t numDependencies,
		  unsigned int flags),
		 (stream, dependencies, dependencyData, numDependencies, flags))
ADAPT_PTSZ_TWINS(cudaError_t, update_on_13,
		 (cudaStream_t stream, cudaGraphNode_t *dependencies, size_t numDependencies,
		  unsigned int flags),
		 (stream, dependencies, numDependencies, flags))

/* The translators by number, for the registry. */
static void *translator(int via)
{
	switch (via) {
	case ON_PLAIN: return (void *)update_on_plain_legacy;
	case ON_PLAIN + 1: return (void *)update_on_plain_ptsz;
	case ON_13: return (void *)update_on_13_legacy;
	case ON_13 + 1: return (void *)update_on_13_ptsz;
	}
	return NULL;
}

/* The _ptsz forms have their legacy names' forms (cudart_forms.h): 11.8
 * declares _ptsz only for per-thread-stream builds, so its record speaks
 * for the legacy name alone. */
static const struct adapt_entry entries[] = {
	ADAPT_EDGE_DATA_ENTRIES(ADAPT_cudaStreamUpdateCaptureDependencies,
				ADAPT_cudaStreamUpdateCaptureDependencies_v2, ON_PLAIN, ON_13),
	ADAPT_EDGE_DATA_ENTRIES(ADAPT_cudaStreamUpdateCaptureDependencies_ptsz,
				ADAPT_cudaStreamUpdateCaptureDependencies_v2_ptsz, ON_PLAIN + 1,
				ON_13 + 1),
};

ADAPT_FAMILY(capture_edges, entries, translator, callees)

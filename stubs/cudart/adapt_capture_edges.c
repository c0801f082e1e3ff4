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
#if CUDASTUB_ABI_MAJOR >= 12
static _Atomic(void *) runtime_update_ptsz;
#endif

#if CUDASTUB_ABI_MAJOR >= 12
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

/* The edge-data form: name_v2 where 12.3+ has it (NULL: known missing), or
 * the translator over the plain name on 11.x and 12.0-12.2. */
static void *edge_data_form(const char *stub_name, const char *name, const char *name_v2,
			    _Atomic(void *) *slot, void *translator)
{
	int major = adapt_loaded_major();
	void *v2 = major == 12 && name_v2 ? adapt_loaded_symbol(name_v2) : NULL;

	if (v2)
		return adapt_chosen(stub_name, "12.3+'s _v2, as it is", v2);
	if (major != 11 && major != 12)
		return NULL;
	return adapt_chosen(stub_name, "the plain form, default edges only",
			    adapt_route_through(name, slot, translator));
}
#endif

#if CUDASTUB_ABI_MAJOR <= 12
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

static void *plain_form_on_13(const char *name, _Atomic(void *) *slot, void *translator)
{
	if (adapt_loaded_major() != 13)
		return NULL;
	return adapt_chosen(name, "13's, edge data NULL",
			    adapt_route_through(name, slot, translator));
}
#endif

#if CUDASTUB_ABI_MAJOR == 12
static cudaError_t update_on_13_ptsz(cudaStream_t stream, cudaGraphNode_t *dependencies,
				     size_t numDependencies, unsigned int flags)
{
	return update_on_13(&runtime_update_ptsz, stream, dependencies, numDependencies, flags);
}
#endif

/* ---- the stub's entry points ---- */

#if CUDASTUB_ABI_MAJOR >= 13
cudaStreamUpdateCaptureDependencies_fn
cudastub_cudart_adapt_cudaStreamUpdateCaptureDependencies(void)
{
	cudaStreamUpdateCaptureDependencies_fn fn;

	*(void **)&fn = edge_data_form("cudaStreamUpdateCaptureDependencies",
				       "cudaStreamUpdateCaptureDependencies",
				       "cudaStreamUpdateCaptureDependencies_v2", &runtime_update,
				       (void *)update_on_plain_default);
	return fn;
}

cudaStreamUpdateCaptureDependencies_ptsz_fn
cudastub_cudart_adapt_cudaStreamUpdateCaptureDependencies_ptsz(void)
{
	cudaStreamUpdateCaptureDependencies_ptsz_fn fn;

	*(void **)&fn = edge_data_form("cudaStreamUpdateCaptureDependencies_ptsz",
				       "cudaStreamUpdateCaptureDependencies_ptsz",
				       "cudaStreamUpdateCaptureDependencies_v2_ptsz",
				       &runtime_update_ptsz, (void *)update_on_plain_ptsz);
	return fn;
}
#else
cudaStreamUpdateCaptureDependencies_fn
cudastub_cudart_adapt_cudaStreamUpdateCaptureDependencies(void)
{
	cudaStreamUpdateCaptureDependencies_fn fn;

	*(void **)&fn = plain_form_on_13("cudaStreamUpdateCaptureDependencies", &runtime_update,
					 (void *)update_on_13_default);
	return fn;
}
#endif

#if CUDASTUB_ABI_MAJOR == 12
cudaStreamUpdateCaptureDependencies_ptsz_fn
cudastub_cudart_adapt_cudaStreamUpdateCaptureDependencies_ptsz(void)
{
	cudaStreamUpdateCaptureDependencies_ptsz_fn fn;

	*(void **)&fn = plain_form_on_13("cudaStreamUpdateCaptureDependencies_ptsz",
					 &runtime_update_ptsz, (void *)update_on_13_ptsz);
	return fn;
}

/* _v2 and _v2_ptsz, which the loader did not find: 13's plain names as they
 * are, or the plain forms' translators on 11.x and 12.0-12.2 (sharing their
 * slots: only one of a name and its _v2 stores there in a process). */
static void *v2_form(const char *stub_name, const char *name, _Atomic(void *) *slot,
		     void *translator)
{
	if (adapt_loaded_major() == 13)
		return adapt_chosen(stub_name, "13's plain name, as it is",
				    adapt_loaded_symbol(name));
	return edge_data_form(stub_name, name, NULL, slot, translator);
}

cudaStreamUpdateCaptureDependencies_v2_fn
cudastub_cudart_adapt_cudaStreamUpdateCaptureDependencies_v2(void)
{
	cudaStreamUpdateCaptureDependencies_v2_fn fn;

	*(void **)&fn = v2_form("cudaStreamUpdateCaptureDependencies_v2",
				"cudaStreamUpdateCaptureDependencies", &runtime_update,
				(void *)update_on_plain_default);
	return fn;
}

cudaStreamUpdateCaptureDependencies_v2_ptsz_fn
cudastub_cudart_adapt_cudaStreamUpdateCaptureDependencies_v2_ptsz(void)
{
	cudaStreamUpdateCaptureDependencies_v2_ptsz_fn fn;

	*(void **)&fn = v2_form("cudaStreamUpdateCaptureDependencies_v2_ptsz",
				"cudaStreamUpdateCaptureDependencies_ptsz", &runtime_update_ptsz,
				(void *)update_on_plain_ptsz);
	return fn;
}
#endif

/*
 * What the adapters (stubs/cudart/adapt_*.c) are given and share.
 *
 * The bind (stubs/common/loader_row.c) reads the loaded release once and
 * hands it to the hook of the export it binds (ADAPT_HOOK): the runtime's
 * handle and major, and the export's row. A hook asks nothing of the
 * loader. Which form of a function the loaded runtime has, the hook takes
 * from the rows (adapt_other_abi, adapt_row_same_abi, ...), where the
 * generator decided it from every major's records, as the loader's gating
 * does; it compares majors only where no row can say it (the CUDA_MAJOR_*
 * facts below).
 *
 * The shapes the hooks share: a runtime function taken as it is
 * (adapt_as_is) or behind a translator that calls it through a slot
 * (adapt_translate_to, adapt_translate_if), and translators that differ
 * only in that slot (ADAPT_TWINS).
 *
 * A hook also runs when no runtime could be loaded. Then there is no
 * handle, and dlsym(NULL, ...) would search the global scope
 * (RTLD_DEFAULT) and could find the stub itself: adapt_symbol therefore
 * answers "nothing" unless a runtime is loaded.
 */
#ifndef CUDASTUB_CUDART_ADAPT_LOADED_H
#define CUDASTUB_CUDART_ADAPT_LOADED_H

#include <dlfcn.h>

#include "cudart_layouts.h"
#include "cudart_stub.h"

/* The loaded runtime's export `name`, or NULL (none loaded, not exported). */
static inline void *adapt_symbol(const struct cudastub_release *release, const char *name)
{
	return release->handle ? dlsym(release->handle, name) : NULL;
}

/* The loaded release's bit in a row's mask of majors (0 when none is
 * loaded). */
static inline uint32_t adapt_bit(const struct cudastub_release *release, uint32_t majors)
{
	return release->major > 0 && release->major < 32
		       ? majors & CUDASTUB_MAJOR_BIT(release->major)
		       : 0;
}

/* What a row's gate says of the loaded release: that its headers declare
 * the export with another ABI than the build's (other_abi), or with the
 * build's (same_abi, if_present). The adapters take every "which form does
 * this runtime have" they can from the rows, as the loader does: the
 * generator decided it once, from each major's records. */
static inline int adapt_gate_other(const struct cudastub_release *release,
				   const struct cudastub_function *gate)
{
	return adapt_bit(release, gate->other_abi) != 0;
}
static inline int adapt_gate_same(const struct cudastub_release *release,
				  const struct cudastub_function *gate)
{
	return adapt_bit(release, gate->same_abi | gate->if_present) != 0;
}

/* ... of the export the adapter stands in for */
static inline int adapt_other_abi(const struct cudastub_release *release)
{
	return adapt_gate_other(release, release->gate);
}
static inline int adapt_same_abi(const struct cudastub_release *release)
{
	return adapt_gate_same(release, release->gate);
}

/* ... of another export, by its row (F_<name>) */
static inline int adapt_row_other_abi(const struct cudastub_release *release, int row)
{
	return adapt_gate_other(release, &cudastub_cudart_rows[row].gate);
}
static inline int adapt_row_same_abi(const struct cudastub_release *release, int row)
{
	return adapt_gate_same(release, &cudastub_cudart_rows[row].gate);
}

/* Says under CUDASTUB_DEBUG=1 what stands in for `name`; returns target. */
static inline void *adapt_chosen(const struct cudastub_release *release, const char *name,
				 const char *how, void *target)
{
	if (target)
		cudastub_log_debug(release->lib, "%s: adapter for CUDA %d: %s", name,
				   release->major, how);
	return target;
}

/*
 * Where the prototypes the adapters translate changed, as NVIDIA's headers
 * show it, named by what changed. CUDA_MAJOR_X is the first major with X;
 * CUDA_VERSION_X its first release, spelled as CUDART_VERSION spells it
 * (1000 * major + 10 * minor). The adapters name majors and versions only
 * through these and CUDASTUB_ABI_MAJOR (the build's headers). They are
 * macros, for #if as well as code.
 */
#define CUDA_MAJOR_OF(version) ((version) / 1000)

/* 12.0: cudaGraphInstantiate takes flags (cudaGraphInstantiateWithParams
 * reports the error node), cudaGraphExecUpdate fills a
 * cudaGraphExecUpdateResultInfo, and cudaGetDriverEntryPoint has an
 * enum cudaDriverEntryPointQueryResult *driverStatus output. */
#define CUDA_MAJOR_INSTANTIATE_FLAGS	   12
#define CUDA_MAJOR_EXEC_UPDATE_RESULT_INFO 12
#define CUDA_MAJOR_ENTRY_POINT_STATUS	   12

/* 12.0: cudaStreamGetCaptureInfo is #defined as cudaStreamGetCaptureInfo_v2;
 * the three-output cudaStreamGetCaptureInfo is exported, no longer
 * declared. */
#define CUDA_MAJOR_CAPTURE_INFO_IS_V2 12

/* 12.2: cudaMemAdvise_v2 and cudaMemPrefetchAsync_v2[_ptsz] take a struct
 * cudaMemLocation (and enum cudaMemLocationType has cudaMemLocationTypeHost);
 * 13.0 gave cudaMemAdvise and cudaMemPrefetchAsync[_ptsz] those
 * prototypes, and has no _v2 names. */
#define CUDA_VERSION_MEM_LOCATION_V2 12020
#define CUDA_MAJOR_MEM_LOCATION_V2   CUDA_MAJOR_OF(CUDA_VERSION_MEM_LOCATION_V2)
#define CUDA_MAJOR_MEM_LOCATION	     13

/* 12.2: generic graph nodes, struct cudaGraphNodeParams with
 * cudaGraphAddNode, cudaGraphNodeSetParams and cudaGraphExecNodeSetParams.
 * 13.0 added cudaChildGraphNodeParams.ownership and cudaMemPoolProps.usage
 * to two of its members (and edge data to cudaGraphAddNode: below). */
#define CUDA_VERSION_GRAPH_NODE_PARAMS	       12020
#define CUDA_MAJOR_GRAPH_NODE_PARAMS	       CUDA_MAJOR_OF(CUDA_VERSION_GRAPH_NODE_PARAMS)
#define CUDA_MAJOR_NODE_PARAMS_OWNERSHIP_USAGE 13

/* 12.3: cudaGraphEdgeData, taken by NAME_v2 of the graph-edge functions
 * (cudaGraphAddDependencies, ...), of cudaGraphAddNode and of
 * cudaStreamUpdateCaptureDependencies, and by cudaStreamGetCaptureInfo_v3.
 * 13.0 gave the plain names those prototypes, and has no _v2 or _v3 names
 * of them. */
#define CUDA_VERSION_EDGE_DATA_V2 12030
#define CUDA_MAJOR_EDGE_DATA_V2	  CUDA_MAJOR_OF(CUDA_VERSION_EDGE_DATA_V2)
#define CUDA_MAJOR_EDGE_DATA	  13

/* A function's name and the name of its _v2 form (the newer prototype). */
struct adapt_names {
	const char *name, *name_v2;
};

/* The runtime function a translator calls: what adapt_route_through stored. */
static inline void *adapt_slot_function(_Atomic(void *) *slot)
{
	return atomic_load_explicit(slot, memory_order_acquire);
}

/* Stores the runtime's export `name` in slot, for translator to call, and
 * returns translator; NULL when the runtime does not export `name`. */
static inline void *adapt_route_through(const struct cudastub_release *release, const char *name,
					_Atomic(void *) *slot, void *translator)
{
	void *sym = adapt_symbol(release, name);

	if (!sym)
		return NULL;
	atomic_store_explicit(slot, sym, memory_order_release);
	return translator;
}

/* The runtime's export `name` as it is, standing in for stub_name (how: why
 * that is right, for the debug log); NULL when the runtime lacks `name`. */
static inline void *adapt_as_is(const struct cudastub_release *release, const char *stub_name,
				const char *name, const char *how)
{
	return adapt_chosen(release, stub_name, how, adapt_symbol(release, name));
}

/* stub_name's translator over the runtime's export `name`, stored in slot
 * (how: its rule, for the debug log); NULL when the runtime does not export
 * `name`. */
static inline void *adapt_translate_to(const struct cudastub_release *release,
				       const char *stub_name, const char *name, const char *how,
				       _Atomic(void *) *slot, void *translator)
{
	return adapt_chosen(release, stub_name, how,
			    adapt_route_through(release, name, slot, translator));
}

/* adapt_translate_to where `applies` (a row's word on the loaded release),
 * else NULL. */
static inline void *adapt_translate_if(int applies, const struct cudastub_release *release,
				       const char *stub_name, const char *name, const char *how,
				       _Atomic(void *) *slot, void *translator)
{
	return applies ? adapt_translate_to(release, stub_name, name, how, slot, translator) : NULL;
}

/* Defines the hook the bind (loader_row.c) calls when the loader refused
 * the runtime's own function: cudastub_cudart_adapt_<name>, which returns
 * `choice` (a void *: a stand-in, or NULL) as name's type. choice may use
 * `release`, the loaded release as the bind read it. */
#define ADAPT_HOOK(name, choice)                                                                   \
	name##_fn cudastub_cudart_adapt_##name(const struct cudastub_release *release)             \
	{                                                                                          \
		name##_fn fn;                                                                      \
                                                                                                   \
		*(void **)&fn = (choice);                                                          \
		return fn;                                                                         \
	}

/* Two translators whose runtime functions share a prototype, and which
 * differ only in the function they call: defines first and second, with the
 * parameters params, as body(0, args) and body(1, args). params and args
 * are lists in parentheses. */
#define ADAPT_TWINS(ret, body, first, second, params, args)                                        \
	static ret first params                                                                    \
	{                                                                                          \
		return body(0, ADAPT_LIST args);                                                   \
	}                                                                                          \
	static ret second params                                                                   \
	{                                                                                          \
		return body(1, ADAPT_LIST args);                                                   \
	}
/* The twins of a name and its _ptsz form ([0] legacy stream, [1] _ptsz):
 * body_legacy and body_ptsz. */
#define ADAPT_PTSZ_TWINS(ret, body, params, args)                                                  \
	ADAPT_TWINS(ret, body, body##_legacy, body##_ptsz, params, args)
#define ADAPT_LIST(...) __VA_ARGS__

#endif

/*
 * What the adapters (stubs/cudart/adapt_*.c) ask of the loaded
 * runtime: its major, and its symbols by name; and the shapes they share:
 * the hook a generated resolver calls (ADAPT_HOOK), a runtime function
 * taken as it is (adapt_as_is) or behind a translator that calls it
 * through a slot (adapt_translate_to, adapt_translate_on), and translators
 * that differ only in that slot (ADAPT_TWINS).
 *
 * An adapter hook runs from a generated resolver after the loader has
 * refused the build ABI's symbol, which it also does when no runtime could
 * be loaded. Then there is no handle, and dlsym(NULL, ...) would search the
 * global scope (RTLD_DEFAULT) and could find the stub itself: both helpers
 * therefore answer "nothing" unless a runtime is loaded.
 */
#ifndef CUDASTUB_CUDART_ADAPT_LOADED_H
#define CUDASTUB_CUDART_ADAPT_LOADED_H

#include <dlfcn.h>

#include "cudart_layouts.h"
#include "cudart_stub.h"

/* The loaded runtime's major (11, 12, 13), or 0 when none is loaded. Read
 * from the published search, not asked of the loader: a hook runs only
 * after its resolver's load (and the load's after_load) has returned, and
 * asking again re-entered the loader and re-ran after_load up to four
 * times per bind. No published search (the process is exiting, or a
 * racing thread could not get a search record) reads as none loaded: the
 * call is answered by its fallback, and the slot binds again next time. */
static inline int adapt_loaded_major(void)
{
	const struct cudastub_search *s = cudastub_loader_result(&cudastub_cudart_library);

	return s && s->info.state == CUDASTUB_STATE_LOADED ? s->info.major : 0;
}

/* The loaded runtime's export `name`, or NULL (none loaded, not exported). */
static inline void *adapt_loaded_symbol(const char *name)
{
	if (!adapt_loaded_major())
		return NULL;
	return dlsym(cudastub_loader_handle(&cudastub_cudart_library), name);
}

/* Says under CUDASTUB_DEBUG=1 what stands in for `name`; returns target. */
static inline void *adapt_chosen(const char *name, const char *how, void *target)
{
	if (target)
		cudastub_log_debug(&cudastub_cudart_library, "%s: adapter for CUDA %d: %s", name,
				   adapt_loaded_major(), how);
	return target;
}

/* The majors whose layouts the generated tables record (cudart_layouts.h):
 * a runtime outside them is not translated for. */
enum {
	ADAPT_OLDEST_MAJOR = CUDASTUB_CUDART_LAYOUT_OLDEST_MAJOR,
	ADAPT_NEWEST_MAJOR = CUDASTUB_CUDART_LAYOUT_NEWEST_MAJOR
};

/* The recorded majors (CUDASTUB_MAJOR_BIT) from `first` on, and those
 * before it: the runtimes that have, and that lack, what `first` brought. */
#define ADAPT_MAJORS_FROM(first)                                                                   \
	(CUDASTUB_MAJOR_BIT(ADAPT_NEWEST_MAJOR + 1) - CUDASTUB_MAJOR_BIT(first))
#define ADAPT_MAJORS_BEFORE(first)                                                                 \
	(CUDASTUB_MAJOR_BIT(first) - CUDASTUB_MAJOR_BIT(ADAPT_OLDEST_MAJOR))

/*
 * Where the prototypes the adapters translate changed, as NVIDIA's headers
 * show it, named by what changed. CUDA_MAJOR_X is the first major with X;
 * CUDA_VERSION_X its first release, spelled as CUDART_VERSION spells it
 * (1000 * major + 10 * minor). The adapters name majors and versions only
 * through these, CUDASTUB_ABI_MAJOR (the build's headers) and the recorded
 * majors above. They are macros, for #if as well as code.
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
static inline void *adapt_route_through(const char *name, _Atomic(void *) *slot, void *translator)
{
	void *sym = adapt_loaded_symbol(name);

	if (!sym)
		return NULL;
	atomic_store_explicit(slot, sym, memory_order_release);
	return translator;
}

/* The runtime's export `name` as it is, standing in for stub_name (how: why
 * that is right, for the debug log); NULL when the runtime lacks `name`. */
static inline void *adapt_as_is(const char *stub_name, const char *name, const char *how)
{
	return adapt_chosen(stub_name, how, adapt_loaded_symbol(name));
}

/* stub_name's translator over the runtime's export `name`, stored in slot
 * (how: its rule, for the debug log); NULL when the runtime does not export
 * `name`. */
static inline void *adapt_translate_to(const char *stub_name, const char *name, const char *how,
				       _Atomic(void *) *slot, void *translator)
{
	return adapt_chosen(stub_name, how, adapt_route_through(name, slot, translator));
}

/* adapt_translate_to on a runtime whose major is one of `majors`
 * (CUDASTUB_MAJOR_BIT), else NULL. */
static inline void *adapt_translate_on(uint32_t majors, const char *stub_name, const char *name,
				       const char *how, _Atomic(void *) *slot, void *translator)
{
	if (!(majors & CUDASTUB_MAJOR_BIT(adapt_loaded_major())))
		return NULL;
	return adapt_translate_to(stub_name, name, how, slot, translator);
}

/* Defines the hook the generated resolver of `name` calls when the loader
 * refused the runtime's own function: cudastub_cudart_adapt_<name>, which
 * returns `choice` (a void *: a stand-in, or NULL) as name's type. */
#define ADAPT_HOOK(name, choice)                                                                   \
	name##_fn cudastub_cudart_adapt_##name(void)                                               \
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

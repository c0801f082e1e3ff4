/*
 * What the adapters (stubs/cudart/adapt_*.c) ask of the loaded
 * runtime: its major, and its symbols by name.
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

#include "cudart_stub.h"

/* The loaded runtime's major (11, 12, 13), or 0 when none is loaded. */
static inline int adapt_loaded_major(void)
{
	if (cudastub_loader_load(&cudastub_cudart_library) != CUDASTUB_STATE_LOADED)
		return 0;
	return cudastub_loader_info(&cudastub_cudart_library)->major;
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

#endif

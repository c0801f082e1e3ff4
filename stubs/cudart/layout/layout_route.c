/*
 * Choosing a route (layout.h): what stands in for a function whose ABI the
 * loaded major does not share under its own name. Runs once per function,
 * from its generated route function, which the bind (loader_bind.c) calls
 * with the release it read.
 */
#define _GNU_SOURCE
#include <dlfcn.h>

#include "layout.h"

void *cudastub_route_choose(const struct cudastub_release *release, const char *name,
			    const struct cudastub_route *routes, struct cudastub_route_state *state,
			    void *translator, const char *query_name)
{
	struct cudastub_library *lib = release->lib;
	void *handle = release->handle, *sym;
	int major = release->major;
	const struct cudastub_route *r;

	/* no dlsym(NULL, ...) here: that would search the whole process,
	 * the stub itself included */
	if (!handle)
		return NULL;
	for (r = routes; r->name; r++) {
		if (r->major != major || !(sym = dlsym(handle, r->name)))
			continue;
		if (!r->layouts) {
			cudastub_log_debug(lib, "%s: CUDA %d's %s, as it is", name, major, r->name);
			return sym;
		}
		if (!translator || !state)
			return NULL;
		atomic_store_explicit(&state->query, query_name ? dlsym(handle, query_name) : NULL,
				      memory_order_release);
		atomic_store_explicit(&state->route, r, memory_order_release);
		atomic_store_explicit(&state->function, sym, memory_order_release);
		cudastub_log_debug(lib, "%s: CUDA %d's %s, structs translated between layouts",
				   name, major, r->name);
		return translator;
	}
	return NULL;
}

/*
 * Bind one function: decide from the generated gating row whether the
 * loaded major may be called under this name, and look the symbol up.
 *
 * A symbol whose ABI differs from the stub's is never looked up, so it can
 * never be called. What the call then answers is logged by the row's bind
 * (loader_bind.c), which knows the function's kind of answer. The decision is logged once per
 * function under CUDASTUB_DEBUG=1; the generated resolver stores the result, so this runs once per
 * function (a few times if threads race, with the same answer).
 */
#define _GNU_SOURCE
#include <dlfcn.h>

#include "loader_core.h"
#include "loader_load.h"
#include "loader_log.h"

static uint32_t loaded_major_bit(struct cudastub_library *lib)
{
	int major = cudastub_loader_info(lib)->major;

	return major > 0 && major < 32 ? CUDASTUB_MAJOR_BIT(major) : 0;
}

enum cudastub_unavailable cudastub_loader_why_unavailable(struct cudastub_library *lib,
							  const struct cudastub_function *fn)
{
	if (cudastub_loader_load(lib) != CUDASTUB_STATE_LOADED)
		return CUDASTUB_UNAVAILABLE_LIBRARY;
	if (fn->other_abi & loaded_major_bit(lib))
		return CUDASTUB_UNAVAILABLE_ABI;
	if (cudastub_loader_info(lib)->major > lib->abi_major)
		return CUDASTUB_UNAVAILABLE_REMOVED;
	return CUDASTUB_UNAVAILABLE_FUNCTION;
}

int cudastub_loader_unavailable(struct cudastub_library *lib, const struct cudastub_function *fn)
{
	return lib->codes[cudastub_loader_why_unavailable(lib, fn)];
}

int cudastub_loader_zero_and_fail(struct cudastub_library *lib, int *out,
				  const struct cudastub_function *fn)
{
	if (out)
		*out = 0;
	return cudastub_loader_unavailable(lib, fn);
}

void *cudastub_loader_bind(struct cudastub_library *lib, const char *name,
			   const struct cudastub_function *fn)
{
	uint32_t bit;
	void *sym;

	if (cudastub_loader_load(lib) != CUDASTUB_STATE_LOADED) {
		cudastub_log_debug(lib, "%s: no library", name);
		return NULL;
	}
	bit = loaded_major_bit(lib);
	if (!(fn->same_abi & bit) && !(fn->if_present & bit)) {
		enum cudastub_unavailable why = cudastub_loader_why_unavailable(lib, fn);

		cudastub_log_debug(lib, "%s: %s in CUDA %d: not forwarded", name,
				   why == CUDASTUB_UNAVAILABLE_ABI ? "different ABI"
								   : "not present",
				   cudastub_loader_info(lib)->major);
		return NULL;
	}
	sym = dlsym(cudastub_loader_handle(lib), name);
	if (!sym)
		cudastub_log_debug(lib, "%s: not exported by %s", name,
				   cudastub_loader_info(lib)->path);
	return sym;
}

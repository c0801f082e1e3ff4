/*
 * The load (loader_load.c): one search per library, run by the first call
 * that needs it and published once; the calls that come meanwhile wait for
 * it or answer from their fallback.
 */
#ifndef CUDASTUB_LOADER_LOAD_H
#define CUDASTUB_LOADER_LOAD_H

#include "loader_core.h"

CUDASTUB_HIDDEN cudastub_state cudastub_loader_load(struct cudastub_library *lib);
CUDASTUB_HIDDEN const cudastub_library_info *cudastub_loader_info(struct cudastub_library *lib);

/* What an error string says for the stub's own library-missing code: why
 * the search failed (searching first if none has run), or NULL once the
 * library is loaded, when the code came from an earlier failure. */
static inline const char *cudastub_loader_why_missing(struct cudastub_library *lib)
{
	if (cudastub_loader_load(lib) == CUDASTUB_STATE_LOADED)
		return NULL;
	return cudastub_loader_summary(lib);
}

#endif /* CUDASTUB_LOADER_LOAD_H */

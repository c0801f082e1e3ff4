/*
 * What the process has loaded already, as the search began (loader_loaded.c).
 */
#ifndef CUDASTUB_LOADER_LOADED_H
#define CUDASTUB_LOADER_LOADED_H

#include "loader_core.h"

/* Whether an object whose SONAME or file name is soname
 * was in the process when search s began (s NULL: now), read from the
 * process's list of objects with no system call (dlopen with RTLD_NOLOAD
 * searches the file system for a name that is not loaded): 0, or 1 for
 * "perhaps" (a hash matched: the caller's dlopen with RTLD_NOLOAD then
 * says for sure); dlopen(soname, flags | RTLD_NOLOAD) for one that is,
 * else NULL; which release SONAMEs are loaded (indices into
 * cudastub_release_sonames, ascending); and, once a search has loaded
 * something it keeps, a fresh look at the list for its next question. */
CUDASTUB_HIDDEN int cudastub_is_loaded(struct cudastub_search *s, const char *soname);
CUDASTUB_HIDDEN void *cudastub_dlopen_loaded(struct cudastub_search *s, const char *soname,
					     int flags);
CUDASTUB_HIDDEN size_t cudastub_loaded_releases(struct cudastub_search *s, unsigned short *hits,
						size_t max);
CUDASTUB_HIDDEN void cudastub_loaded_forget(struct cudastub_search *s);
/* Whether an object of the process may come from a Python package folder
 * (site-packages/, dist-packages/): 0 only when the search's list of
 * objects has none. */
CUDASTUB_HIDDEN int cudastub_loaded_from_python(struct cudastub_search *s);

#endif /* CUDASTUB_LOADER_LOADED_H */

/*
 * The search (loader_search.c): the candidates in the design's order, and
 * the dynamic loader's own folders walked by hand.
 */
#ifndef CUDASTUB_LOADER_SEARCH_H
#define CUDASTUB_LOADER_SEARCH_H

#include "loader_core.h"

/* loader_search.c */
CUDASTUB_HIDDEN cudastub_state cudastub_search(struct cudastub_search *s);
/*
 * The files dlopen(soname) from this stub would consider, in its order: the
 * folders of RTLD_DI_SERINFO that are not the system's defaults
 * (LD_LIBRARY_PATH, the stub's RUNPATH), ld.so.cache, then the default
 * folders. Calls visit with each path that exists until it returns
 * non-zero, and returns that value, or 0. Walking by full path lets every
 * file be checked before dlopen, and a stub under the real SONAME (a shim)
 * be skipped by file instead of hiding what lies behind it.
 */
CUDASTUB_HIDDEN int cudastub_loader_walk(struct cudastub_search *s, const char *soname,
					 int (*visit)(const char *path, void *ctx), void *ctx);
/* The same, as dlopen(soname) from the object of handle would look. */
CUDASTUB_HIDDEN int cudastub_loader_walk_from(void *handle, const char *soname,
					      int (*visit)(const char *path, void *ctx), void *ctx);

#endif /* CUDASTUB_LOADER_SEARCH_H */

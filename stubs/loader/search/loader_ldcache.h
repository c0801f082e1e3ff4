/*
 * The ld.so.cache look-up, to look past a stub under the real SONAME (loader_ldcache.c).
 */
#ifndef CUDASTUB_LOADER_LDCACHE_H
#define CUDASTUB_LOADER_LDCACHE_H

#include "loader_core.h"

/* Calls visit with each path the cache holds for soname
 * until it returns non-zero; returns that value, or 0. _parse reads a cache
 * already in memory (size bytes), trusting nothing in it. */
CUDASTUB_HIDDEN int cudastub_ldcache_each(const char *soname,
					  int (*visit)(const char *path, void *ctx), void *ctx);
CUDASTUB_HIDDEN int cudastub_ldcache_parse(const unsigned char *cache, size_t size,
					   const char *soname,
					   int (*visit)(const char *path, void *ctx), void *ctx);

#endif /* CUDASTUB_LOADER_LDCACHE_H */

/*
 * The dynamic loader's own records, read where debuggers read them
 * (loader_debug.c).
 */
#ifndef CUDASTUB_LOADER_DEBUG_H
#define CUDASTUB_LOADER_DEBUG_H

#include "loader_core.h"

/* The dynamic loader's record of the main namespace (its
 * struct r_debug, where debuggers find it), or NULL where none is found.
 * Its r_map heads the list of the process's objects. */
struct r_debug;
struct link_map;
CUDASTUB_HIDDEN struct r_debug *cudastub_loader_debug(void);
/* The object of that SONAME among those loaded at start-up (libc.so.6),
 * read without a lock (see there), or NULL. */
CUDASTUB_HIDDEN const struct link_map *cudastub_startup_object(const char *soname);
/* A symbol that ld.so itself defines (its own _r_debug, _rtld_global), from
 * its symbol table at AT_BASE: its address and size, or NULL. */
CUDASTUB_HIDDEN void *cudastub_ld_so_symbol(const char *name, size_t *size);

#endif /* CUDASTUB_LOADER_DEBUG_H */

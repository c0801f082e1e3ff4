/*
 * Symbols read from an object's own hash table (loader_symtab.c).
 */
#ifndef CUDASTUB_LOADER_SYMTAB_H
#define CUDASTUB_LOADER_SYMTAB_H

#include "loader_core.h"

/* Read through an object's own GNU hash table, not
 * dlsym's search of its dependencies too. Whether the object of map
 * itself defines any of names (NULL-ended; hashes, when not NULL, their
 * GNU hashes in the same order): 1 or 0, or -1 when it has no table this
 * can read (then ask dlsym). The size of its symbol name, when
 * the object itself defines it at address: 0, else -1. */
struct link_map;
CUDASTUB_HIDDEN int cudastub_object_defines_any(const struct link_map *map,
						const char *const *names, const uint32_t *hashes);
CUDASTUB_HIDDEN int cudastub_object_symbol_size(const struct link_map *map, const char *name,
						const void *address, size_t *size);
/* The address of the function or object name that the object of map
 * itself defines (its default version), or NULL (not there, an IFUNC, or
 * no table this can read). */
CUDASTUB_HIDDEN void *cudastub_object_symbol(const struct link_map *map, const char *name);
/* The same, and its size in *size. */
CUDASTUB_HIDDEN void *cudastub_object_symbol_sized(const struct link_map *map, const char *name,
						   size_t *size);

#endif /* CUDASTUB_LOADER_SYMTAB_H */

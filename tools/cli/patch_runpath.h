/*
 * Where a RUNPATH leads (patch_runpath.c).
 */
#ifndef CUDASTUB_CLI_PATCH_RUNPATH_H
#define CUDASTUB_CLI_PATCH_RUNPATH_H

#include <stddef.h>

/* One RUNPATH entry of len bytes with $ORIGIN (or ${ORIGIN}) read as dir. */
void patch_expand_origin(const char *entry, size_t len, const char *dir, char *out, size_t size);
/* The first file name that runpath (with $ORIGIN as dir, a real path)
 * leads to and the dynamic loader would take for a file of elf_class and
 * machine: its descriptor and path (in found), or -1. */
int runpath_find(const char *runpath, const char *dir, const char *name, int elf_class, int machine,
		 char *found, size_t size);

#endif

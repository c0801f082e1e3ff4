/*
 * A folder walked: its files, links and leftovers (patch_tree.c).
 */
#ifndef CUDASTUB_CLI_PATCH_TREE_H
#define CUDASTUB_CLI_PATCH_TREE_H

#include "patch_types.h"

/* Every ELF file under the folder root (open; path as the output names
 * it), with the stubs in o->stub_real. */
void patch_tree(struct patch_options *o, int root, const char *path);
/* A folder named as a private folder: reported by --check, removed by a
 * run when a killed run of this user left it. */
void patch_leftover(struct patch_options *o, int dir, const char *name, const char *path);

#endif

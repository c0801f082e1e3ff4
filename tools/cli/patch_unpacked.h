/*
 * A folder that is an unpacked wheel (patch_unpacked.c).
 */
#ifndef CUDASTUB_CLI_PATCH_UNPACKED_H
#define CUDASTUB_CLI_PATCH_UNPACKED_H

#include <stddef.h>

#include "patch_types.h"

/* Whether the open folder root is an unpacked wheel (holds one
 * .dist-info): then patched as a wheel, with one stub folder and content
 * names, grafted NVIDIA libraries nothing needs removed: 0 (-1 counted
 * as an error); 1 when it is no wheel. */
int patch_unpacked_wheel(struct patch_options *o, int root, const char *path);
/* The one entry of the folder dir whose name ends with suffix (and does
 * not start with a dot), in out; 0, or -1 when none or several. */
int patch_only_entry(int dir, const char *suffix, char *out, size_t size);

#endif

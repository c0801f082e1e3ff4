/*
 * Paths given, and the symbolic links a walk meets (patch_links.c).
 */
#ifndef CUDASTUB_CLI_PATCH_LINKS_H
#define CUDASTUB_CLI_PATCH_LINKS_H

#include "patch_types.h"

/* Fills o->reals and o->is_dir (0, or -1 out of memory), and frees them. */
int patch_resolve_paths(struct patch_options *o);
void patch_release_paths(struct patch_options *o);
/* The path given that deals with the file real: a folder given that holds
 * it, or a file given before the path numbered before; NULL if none. */
const char *patch_dealt_with_by(const struct patch_options *o, const char *real, int before);
/* Reports a link a folder walk met (never followed). */
void patch_link_met(struct patch_options *o, const char *link);

#endif

/*
 * Joining the parts of a path (loader_path.c).
 */
#ifndef CUDASTUB_LOADER_PATH_H
#define CUDASTUB_LOADER_PATH_H

#include "loader_core.h"

/* Joins two or three parts of a path with '/' into out (PATH_MAX bytes; b
 * and c may be NULL). One too long is skipped (0), never truncated into
 * the name of some other file. */
CUDASTUB_HIDDEN int cudastub_path_join(char *out, const char *a, const char *b, const char *c);

#endif /* CUDASTUB_LOADER_PATH_H */

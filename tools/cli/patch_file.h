/*
 * One file: opened, locked, planned, patched, reported (patch_file.c).
 */
#ifndef CUDASTUB_CLI_PATCH_FILE_H
#define CUDASTUB_CLI_PATCH_FILE_H

#include <sys/stat.h>

#include "patch_types.h"

/* Patches (plans, or checks) t's file, reporting what it did. */
void patch_file(struct patch_options *o, const struct patch_target *t);
/* t's file opened (fs_open_regular): 0 with *fd, or 1 when there is
 * nothing to do (gone since a walk met it, or reported and counted). */
int patch_open(struct patch_options *o, const struct patch_target *t, int *fd, struct stat *st);
/* Locks the open file fd (exclusive unless the run only reads) and checks
 * that t's name still names it, st then its fstat: 0 when it does, 1 when
 * it was renamed over meanwhile (start again), -1 with errno. */
int patch_lock(const struct patch_options *o, const struct patch_target *t, int fd,
	       struct stat *st);

#endif

/*
 * A plan carried out in a private folder, then renamed (patch_apply.c).
 */
#ifndef CUDASTUB_CLI_PATCH_APPLY_H
#define CUDASTUB_CLI_PATCH_APPLY_H

#include <stddef.h>
#include <sys/stat.h>

#include "patch_identity.h"
#include "patch_plan.h"
#include "patch_types.h"

/* Copies the stubs in, then patches a copy of t's file (open and locked
 * as fd, st its fstat) in a private folder beside it, checks the copy,
 * gives it the original's identity, syncs it and renames it over the
 * original, then syncs the folder. 0, or -1 with why (the original
 * untouched). */
int apply_plan(const struct plan *p, const struct patch_target *t, int fd, const struct stat *st,
	       struct identity_notes *n, char *why, size_t wsize);
/* The new copy of t's file (open as copy, named name in the folder from)
 * takes the identity of the original (open as original, st its fstat),
 * is synced and renamed over t's name; then t's folder is synced. 0, or
 * -1 with why (the original in place). */
int apply_replace(const struct patch_target *t, int original, const struct stat *st, int from,
		  const char *name, int copy, struct identity_notes *n, char *why, size_t wsize);
/* Copies the stubs the plan marks into its stub folder, under the
 * folder's lock, each through a private folder; 0, or -1 with why. */
int apply_stubs(const struct plan *p, char *why, size_t wsize);

#endif

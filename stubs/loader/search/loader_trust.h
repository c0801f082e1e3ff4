/*
 * Which files the search may take from folders it derived by itself (loader_trust.c).
 */
#ifndef CUDASTUB_LOADER_TRUST_H
#define CUDASTUB_LOADER_TRUST_H

#include "loader_core.h"

/* Why a file the search derived by itself (not named by
 * the user or the system) must not be loaded, or NULL: the file, as
 * resolved and as named, and every folder above it owned by root or the
 * real user and writable by no one else (a sticky folder may stand above
 * the one that holds it). why holds size bytes. */
CUDASTUB_HIDDEN const char *cudastub_trust_derived_file(const char *path, char *why, size_t size);
/* Whether the process runs in secure mode (AT_SECURE: set-user-ID,
 * set-group-ID, file capabilities): then no derived folder is searched. */
CUDASTUB_HIDDEN int cudastub_secure_mode(void);

#endif /* CUDASTUB_LOADER_TRUST_H */

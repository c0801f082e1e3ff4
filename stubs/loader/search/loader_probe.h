/*
 * A version probe's function, looked up and checked (loader_probe.c).
 */
#ifndef CUDASTUB_LOADER_PROBE_H
#define CUDASTUB_LOADER_PROBE_H

#include "loader_core.h"

/* Dlsym(handle, name) for a version probe, or NULL when
 * the function's first code is zeros (a damaged file); the reason is kept
 * until taken for that handle, written in why (size bytes): why, or NULL
 * when there is none. */
CUDASTUB_HIDDEN void *cudastub_probe_symbol(void *handle, const char *name);
CUDASTUB_HIDDEN const char *cudastub_probe_take_refusal(void *handle, char *why, size_t size);

#endif /* CUDASTUB_LOADER_PROBE_H */

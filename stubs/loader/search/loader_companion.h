/*
 * The library a real one dlopens by name, loaded from beside it (loader_companion.c).
 */
#ifndef CUDASTUB_LOADER_COMPANION_H
#define CUDASTUB_LOADER_COMPANION_H

#include "loader_core.h"

CUDASTUB_HIDDEN void cudastub_load_companion(struct cudastub_search *s);

#endif /* CUDASTUB_LOADER_COMPANION_H */

/*
 * Fields of a procfs stat file (loader_proc_stat.c).
 */
#ifndef CUDASTUB_LOADER_PROC_STAT_H
#define CUDASTUB_LOADER_PROC_STAT_H

#include "loader_core.h"

/* The field numbered field (from 1, as proc(5)
 * numbers them; 3, the state, or later) of the procfs stat file at path,
 * read into text; NULL when it cannot be read. */
CUDASTUB_HIDDEN const char *cudastub_proc_stat_field(const char *path, int field, char *text,
						     size_t size);

#endif /* CUDASTUB_LOADER_PROC_STAT_H */

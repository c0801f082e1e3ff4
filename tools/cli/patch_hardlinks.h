/*
 * A file with several names, refused with its names (patch_hardlinks.c).
 */
#ifndef CUDASTUB_CLI_PATCH_HARDLINKS_H
#define CUDASTUB_CLI_PATCH_HARDLINKS_H

#include <sys/stat.h>

#include "patch_types.h"

/* Reports that t's file (st) has other names and is left alone, naming
 * those found under the paths given; counted as an error. */
void hardlinks_refuse(struct patch_options *o, const struct patch_target *t, const struct stat *st);
void hardlinks_release(struct patch_options *o);

#endif

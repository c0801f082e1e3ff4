/*
 * A .whl: unpacked, patched, packed, put back (patch_wheel.c).
 */
#ifndef CUDASTUB_CLI_PATCH_WHEEL_H
#define CUDASTUB_CLI_PATCH_WHEEL_H

#include "patch_types.h"

/* Whether name is a .whl file's. */
int patch_is_wheel_name(const char *name);
/* The .whl file t: unpacked into a private folder beside it, patched
 * there, packed again and renamed over it. */
void patch_wheel(struct patch_options *o, const struct patch_target *t);

#endif

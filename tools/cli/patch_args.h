/*
 * The command line of `cudastub patch`, and the stub folder it names
 * (patch_args.c).
 */
#ifndef CUDASTUB_CLI_PATCH_ARGS_H
#define CUDASTUB_CLI_PATCH_ARGS_H

#include "patch_types.h"

/* Reads argv into o; -1 after printing a usage error. */
int patch_parse(int argc, char **argv, struct patch_options *o);
/* Resolves o->stub_dir into o->stub_real (the folder need not exist
 * yet); -1 after printing why not. */
int patch_stub_folder(struct patch_options *o);

#endif

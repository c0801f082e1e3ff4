/*
 * The programs `cudastub patch` runs: patchelf, Python (patch_run.c).
 */
#ifndef CUDASTUB_CLI_PATCH_RUN_H
#define CUDASTUB_CLI_PATCH_RUN_H

#include <stddef.h>

/* Runs argv (argv[0] a path, or a name looked up on PATH), with stdin
 * /dev/null, stdout into out and stderr into err (each NULL: discarded;
 * trailing newlines cut), and the folder fd (unless -1) as its descriptor
 * CHILD_FD. stdio is flushed first, so nothing buffered is written twice.
 * 0 when it exited 0; -1 otherwise, with a line saying why in err (or
 * errno, when it could not start). */
int run_program(char *const *argv, int fd, char *out, size_t osize, char *err, size_t esize);

#endif

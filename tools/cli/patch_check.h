/*
 * --check: a patched file finds its stubs and versions (patch_check.c).
 */
#ifndef CUDASTUB_CLI_PATCH_CHECK_H
#define CUDASTUB_CLI_PATCH_CHECK_H

/* Whether the file fd (path) loads its stubs: every DT_NEEDED entry
 * naming a stub is found through its RUNPATH or RPATH ($ORIGIN read as
 * dir, the file's folder's real path) and defines every version the file
 * needs of it. 0, or -1 after printing each fault. */
int check_loads(const char *path, int fd, const char *dir, const char *needed, const char *runpath);

#endif

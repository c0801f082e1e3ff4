/*
 * What `cudastub patch` asks of patchelf (patchelf.c).
 */
#ifndef CUDASTUB_CLI_PATCHELF_H
#define CUDASTUB_CLI_PATCHELF_H

#include <stddef.h>

/* The patchelf on PATH, or NULL. */
const char *patchelf_find(void);
/* The open file fd's DT_NEEDED entries (one a line) or RUNPATH, as
 * patchelf prints them; 0 or -1. */
int patchelf_needed(int fd, char *out, size_t size);
int patchelf_runpath(int fd, char *out, size_t size);
/* Each changes the file name in the private folder dir; 0, or -1 with
 * patchelf's complaint in why. */
int patchelf_replace_needed(int dir, const char *name, const char *const *from,
			    const char *const *to, int count, char *why, size_t wsize);
int patchelf_set_runpath(int dir, const char *name, const char *runpath, char *why, size_t wsize);
int patchelf_set_soname(int dir, const char *name, const char *soname, char *why, size_t wsize);

#endif

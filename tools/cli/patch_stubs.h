/*
 * The stubs `cudastub patch` copies in, and their copies (patch_stubs.c).
 */
#ifndef CUDASTUB_CLI_PATCH_STUBS_H
#define CUDASTUB_CLI_PATCH_STUBS_H

#include <stddef.h>
#include <sys/stat.h>

/* The file of this cudastub's stub for slot k and the CUDA abi (a real
 * path, in out), or NULL. */
const char *stub_source(int k, int abi, char *out, size_t size);
/* A stub file's name (its SONAME), from its path. */
const char *stub_file_name(const char *source);
/* Whether the stub folder stub_dir (a real path, there or not) holds
 * name as a copy of source, byte for byte. */
int stub_present(const char *stub_dir, const char *name, const char *source);
/* The same in the open stub folder dir. */
int stub_present_at(int dir, const char *name, const char *source);
/* Whether the open file there (closed here) holds the bytes of the build's
 * stub source. */
int stub_same_as_source(int there, const char *source);
/* The stub file source (a real path) opened to read: a stub a wheel
 * ships lies in anyone's tree, so no link is followed on the way; st its
 * fstat. A descriptor, or -1 with errno. */
int stub_open_source(const char *source, struct stat *st);

#endif

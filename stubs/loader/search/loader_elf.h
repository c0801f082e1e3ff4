/*
 * A candidate file, checked before dlopen ever maps it (loader_elf.c).
 */
#ifndef CUDASTUB_LOADER_ELF_H
#define CUDASTUB_LOADER_ELF_H

#include "loader_core.h"

/* Reads n bytes at offset at into buf; 0 when all were read. */
struct cudastub_elf_source {
	int (*read)(void *ctx, void *buf, size_t n, uint64_t at);
	void *ctx;
	uint64_t size; /* of the whole file */
};
enum { CUDASTUB_ELF_MAX_LOADS = 16 };
/* Why the file src reads is not a library this process could map, or NULL
 * when dlopen may have it; why (size bytes) holds a reason with numbers. */
CUDASTUB_HIDDEN const char *cudastub_elf_reject(const struct cudastub_elf_source *src, char *why,
						size_t size);
/* The same for the file at path; *absent is set when there is no file. */
CUDASTUB_HIDDEN const char *cudastub_elf_check_file(const char *path, int *absent, char *why,
						    size_t size);

#endif /* CUDASTUB_LOADER_ELF_H */

/*
 * The CUDA ABI a file needs, and which stub stands in for which library
 * (patch_cover.c).
 */
#ifndef CUDASTUB_CLI_PATCH_COVER_H
#define CUDASTUB_CLI_PATCH_COVER_H

#include <stddef.h>

/* The CUDA ABI of the stubs the file open as fd needs (needed: its
 * DT_NEEDED entries, one a line): the major its libraries name, else the
 * newest whose stubs define what it imports. 0 (why says it) when this
 * cudastub has no stubs of that ABI, -1 (why) when the file names two. */
int patch_file_abi(int fd, const char *needed, char *why, size_t size);
/* Whether this cudastub's stub of library k for the CUDA abi stands in
 * for the SONAME name; where it cannot, why. */
enum cover {
	COVER_NONE,	 /* name is none of library k's */
	COVER_STUB,	 /* the stub stands in for it */
	COVER_NOT_BUILT, /* this cudastub has no such stub of that ABI */
	COVER_OTHER_ABI, /* name is of another CUDA major than abi */
};
enum cover patch_cover(int k, const char *name, int abi, char *reason, size_t size);

#endif

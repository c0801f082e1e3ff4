/*
 * Owner, group, mode and attributes of a replacement (patch_identity.c).
 */
#ifndef CUDASTUB_CLI_PATCH_IDENTITY_H
#define CUDASTUB_CLI_PATCH_IDENTITY_H

#include <stddef.h>
#include <sys/stat.h>

enum { IDENTITY_NOTES = 4 };
/* What a replacement could not keep, a line each for the output. */
struct identity_notes {
	int count;
	char line[IDENTITY_NOTES][240];
};
/* Gives out the identity of the original (open as original, st its
 * fstat); 0, or -1 with why. */
int identity_copy(int original, const struct stat *st, int out, struct identity_notes *n, char *why,
		  size_t wsize);

#endif

/*
 * cudastub patch --unique-names: every stub a patched file needs is named
 * by its content, libcudart_stub-<8 hex digits>.so, and carries that name as
 * its SONAME, as auditwheel names the libraries it grafts into a wheel.
 *
 * Why: ld.so takes a DT_NEEDED entry as met by any object already loaded
 * under that SONAME. Two wheels that each ship libcudart_stub.so beside
 * their extension share whichever copy was loaded first: the second
 * wheel's import fails when the copies export another CUDA ABI (version
 * `libcudart.so.12' not found), and silently calls through the first
 * wheel's stub when they are two builds of one ABI. Names taken from the
 * content differ exactly when the files differ, so each wheel loads its
 * own stub, and two wheels that ship the very same stub share one copy,
 * which is the same code. The hash is FNV-1a (64 bits, the high 32 shown):
 * a name, not a checksum anyone relies on for security.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "patch.h"

/* FNV-1a 64 of the bytes of the open file fd, read from its start; 0, or
 * -1 when it cannot be read. */
static int content_hash(int fd, uint64_t *hash)
{
	unsigned char buf[65536];
	uint64_t h = 14695981039346656037ull;
	off_t at = 0;
	ssize_t n;

	while ((n = pread(fd, buf, sizeof buf, at)) > 0) {
		for (ssize_t i = 0; i < n; i++)
			h = (h ^ buf[i]) * 1099511628211ull;
		at += n;
	}
	*hash = h;
	return n == 0 ? 0 : -1;
}

/* The length of generic's stem: "libcudart_stub" of "libcudart_stub.so". */
static size_t stem_length(const char *generic)
{
	const char *dot = strstr(generic, ".so");

	return dot ? (size_t)(dot - generic) : strlen(generic);
}

int patch_content_name(int fd, const char *generic, char *out, size_t size)
{
	uint64_t h;

	if (content_hash(fd, &h) != 0)
		return -1;
	return snprintf(out, size, "%.*s-%08x.so", (int)stem_length(generic), generic,
			(unsigned)(h >> 32)) < (int)size
		       ? 0
		       : -1;
}

int patch_is_content_name(const char *name, const char *generic)
{
	size_t stem = stem_length(generic);

	if (strncmp(name, generic, stem) || name[stem] != '-')
		return 0;
	for (int i = 1; i <= 8; i++)
		if (!isxdigit((unsigned char)name[stem + (size_t)i]))
			return 0;
	return !strcmp(name + stem + 9, ".so");
}

void patch_expand_origin(const char *entry, size_t len, const char *dir, char *out, size_t size)
{
	if (len >= 7 && !strncmp(entry, "$ORIGIN", 7))
		snprintf(out, size, "%s%.*s", dir, (int)(len - 7), entry + 7);
	else if (len >= 9 && !strncmp(entry, "${ORIGIN}", 9))
		snprintf(out, size, "%s%.*s", dir, (int)(len - 9), entry + 9);
	else
		snprintf(out, size, "%.*s", (int)len, entry);
}

const char *patch_shipped_stub(const char *runpath, const char *dir, const char *generic, char *out,
			       size_t size)
{
	char folder[PATH_MAX], path[PATH_MAX + 256];
	struct stat st;

	for (const char *p = runpath; *p; p += strcspn(p, ":"), p += *p == ':') {
		size_t len = strcspn(p, ":");

		if (!len)
			continue;
		patch_expand_origin(p, len, dir, folder, sizeof folder);
		snprintf(path, sizeof path, "%s/%s", folder, generic);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && realpath(path, out) &&
		    strlen(out) < size)
			return out;
	}
	return NULL;
}

/*
 * Look a SONAME up in /etc/ld.so.cache, as the dynamic loader's own search
 * would: step 5 walks the loader's places by hand (cudastub_loader_walk),
 * so that every file is checked before dlopen and a stub under the real
 * SONAME is skipped by file, and the cache is one of them.
 *
 * The file is glibc's "new" format (glibc 2.32 and later write only this):
 *   "glibc-ld.so.cache" "1.1", uint32 nlibs, uint32 string bytes, then at
 *   offset 48 nlibs entries of { int32 flags; uint32 key, value;
 *   uint32 osversion; uint64 hwcap }, key and value being offsets of the
 *   SONAME and the path from the start of the file.
 * Anything else (an old-format cache, a truncated file) finds nothing.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader.h"

#define LDCACHE_PATH	   "/etc/ld.so.cache"
#define LDCACHE_MAGIC	   "glibc-ld.so.cache1.1"
#define LDCACHE_ENTRIES	   48
#define LDCACHE_ENTRY_SIZE 24

static uint32_t read_u32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof v);
	return v;
}

/* The NUL-ended string at off, or NULL if it runs past the file. */
static const char *string_at(const unsigned char *map, size_t size, uint32_t off)
{
	if (off >= size || !memchr(map + off, '\0', size - off))
		return NULL;
	return (const char *)map + off;
}

int cudastub_ldcache_parse(const unsigned char *cache, size_t size, const char *soname,
			   int (*visit)(const char *path, void *ctx), void *ctx)
{
	uint32_t nlibs, i;
	int done = 0;

	if (size < LDCACHE_ENTRIES || memcmp(cache, LDCACHE_MAGIC, sizeof LDCACHE_MAGIC - 1) != 0)
		return 0;
	nlibs = read_u32(cache + 20);
	for (i = 0; i < nlibs && !done; i++) {
		size_t at = LDCACHE_ENTRIES + (size_t)i * LDCACHE_ENTRY_SIZE;
		const char *key, *value;

		if (at + LDCACHE_ENTRY_SIZE > size)
			break;
		key = string_at(cache, size, read_u32(cache + at + 4));
		value = string_at(cache, size, read_u32(cache + at + 8));
		if (key && value && strcmp(key, soname) == 0)
			done = visit(value, ctx);
	}
	return done;
}

int cudastub_ldcache_each(const char *soname, int (*visit)(const char *path, void *ctx), void *ctx)
{
	struct stat st;
	unsigned char *map;
	int fd, done;
	size_t size;

	/* Only a regular file is opened, and without blocking: a FIFO put
	 * there would otherwise hold the first call for ever in open(). */
	if (stat(LDCACHE_PATH, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	fd = open(LDCACHE_PATH, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < LDCACHE_ENTRIES) {
		close(fd);
		return 0;
	}
	size = (size_t)st.st_size;
	map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return 0;
	done = cudastub_ldcache_parse(map, size, soname, visit, ctx);
	munmap(map, size);
	return done;
}

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
 *
 * ldconfig writes the entries sorted by SONAME, greatest first, in the
 * order where a run of digits compares as a number ("so.13" after
 * "so.9"), and the dynamic loader finds a name by bisection. So does this
 * file: a first call looks up a few names in a cache of some thousand
 * entries, and a scan per name was a third of the first call's own work.
 * A cache not in that order finds here what glibc's own lookup would find
 * in it: not everything.
 *
 * The file is mapped once per process, at the first lookup, and kept: one
 * stat per lookup sees whether ldconfig has replaced it since (it writes a
 * new file and renames it over the old), and only then is the new one
 * mapped. The old mapping is left in place, since another thread may be
 * reading it; it costs its pages once per ldconfig run a process sees.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader_core.h"
#include "loader_ldcache.h"
#include "loader_sys.h"

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

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* ldconfig's order of SONAMEs: bytes, except that runs of digits compare
 * by their value. Negative when a sorts before b. A run too long for an
 * int saturates rather than overflow; no SONAME has one. */
static int soname_order(const char *a, const char *b)
{
	while (*a) {
		if (is_digit(*a) && is_digit(*b)) {
			long x = 0, y = 0;

			while (is_digit(*a))
				x = x < 100000000 ? x * 10 + (*a++ - '0') : (a++, x);
			while (is_digit(*b))
				y = y < 100000000 ? y * 10 + (*b++ - '0') : (b++, y);
			if (x != y)
				return x < y ? -1 : 1;
		} else if (is_digit(*a)) {
			return 1;
		} else if (is_digit(*b)) {
			return -1;
		} else if (*a != *b) {
			return (unsigned char)*a - (unsigned char)*b;
		} else {
			a++, b++;
		}
	}
	return -(int)(unsigned char)*b;
}

/* The SONAME of entry i, or NULL if it is not in the file. */
static const char *key_of(const unsigned char *cache, size_t size, uint32_t i)
{
	return string_at(cache, size,
			 read_u32(cache + LDCACHE_ENTRIES + (size_t)i * LDCACHE_ENTRY_SIZE + 4));
}

int cudastub_ldcache_parse(const unsigned char *cache, size_t size, const char *soname,
			   int (*visit)(const char *path, void *ctx), void *ctx)
{
	uint32_t nlibs, low = 0, high, first;
	const char *key;
	int done = 0;

	if (size < LDCACHE_ENTRIES || memcmp(cache, LDCACHE_MAGIC, sizeof LDCACHE_MAGIC - 1) != 0)
		return 0;
	nlibs = read_u32(cache + 20);
	if ((size - LDCACHE_ENTRIES) / LDCACHE_ENTRY_SIZE < nlibs)
		nlibs = (uint32_t)((size - LDCACHE_ENTRIES) / LDCACHE_ENTRY_SIZE);
	/* the first entry whose name is not greater than soname (the entries
	 * run greatest first); a name that is not in the file ends the
	 * search, as it would glibc's */
	high = nlibs;
	while (low < high) {
		uint32_t middle = low + (high - low) / 2;

		if (!(key = key_of(cache, size, middle)))
			return 0;
		if (soname_order(key, soname) > 0)
			low = middle + 1;
		else
			high = middle;
	}
	/* every entry of that name, one per kind of library (64-bit, 32-bit,
	 * hardware capabilities): the visit checks each file itself */
	for (first = low; first < nlibs && !done; first++) {
		size_t at = LDCACHE_ENTRIES + (size_t)first * LDCACHE_ENTRY_SIZE;
		const char *value;

		if (!(key = key_of(cache, size, first)) || strcmp(key, soname) != 0)
			break;
		value = string_at(cache, size, read_u32(cache + at + 8));
		if (value)
			done = visit(value, ctx);
	}
	return done;
}

/* The cache as mapped, and the file it was mapped from. */
struct ldcache_file {
	const unsigned char *bytes;
	size_t size;
	dev_t dev;
	ino_t ino;
	struct timespec mtime;
};

static _Atomic(struct ldcache_file *) mapped;

static int is_same_file(const struct ldcache_file *f, const struct stat *st)
{
	return f->dev == st->st_dev && f->ino == st->st_ino && f->size == (size_t)st->st_size &&
	       f->mtime.tv_sec == st->st_mtim.tv_sec && f->mtime.tv_nsec == st->st_mtim.tv_nsec;
}

/* Maps the cache; NULL when it is not a regular file or cannot be read. */
static struct ldcache_file *map_cache(void)
{
	struct ldcache_file *f;
	struct stat st;
	void *bytes;
	int fd;

	/* Only a regular file is opened, and without blocking: a FIFO put
	 * there would otherwise hold the first call for ever in open(). */
	fd = cudastub_sys_open(LDCACHE_PATH, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return NULL;
	if (cudastub_sys_fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size < LDCACHE_ENTRIES || !(f = malloc(sizeof *f))) {
		cudastub_sys_close(fd);
		return NULL;
	}
	bytes = cudastub_sys_mmap((size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd);
	cudastub_sys_close(fd);
	if (bytes == MAP_FAILED) {
		free(f);
		return NULL;
	}
	*f = (struct ldcache_file){bytes, (size_t)st.st_size, st.st_dev, st.st_ino, st.st_mtim};
	return f;
}

/* The cache as it is now: the kept mapping, or a new one if the file has
 * changed or none was kept. */
static const struct ldcache_file *current_cache(void)
{
	struct ldcache_file *kept = atomic_load_explicit(&mapped, memory_order_acquire), *fresh;
	struct stat st;

	if (cudastub_sys_stat(LDCACHE_PATH, &st) != 0 || !S_ISREG(st.st_mode))
		return NULL;
	if (kept && is_same_file(kept, &st))
		return kept;
	if (!(fresh = map_cache()))
		return NULL;
	/* another thread may have mapped it first: keep one, drop the other */
	if (!atomic_compare_exchange_strong_explicit(&mapped, &kept, fresh, memory_order_acq_rel,
						     memory_order_acquire) &&
	    kept && is_same_file(kept, &st)) {
		cudastub_sys_munmap((void *)fresh->bytes, fresh->size);
		free(fresh);
		return kept;
	}
	return fresh;
}

int cudastub_ldcache_each(const char *soname, int (*visit)(const char *path, void *ctx), void *ctx)
{
	const struct ldcache_file *cache = current_cache();

	return cache ? cudastub_ldcache_parse(cache->bytes, cache->size, soname, visit, ctx) : 0;
}

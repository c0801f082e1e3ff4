/*
 * A library's SONAME rewritten in place, in its dynamic string table:
 * `cudastub shim` makes a stub into a shim this way. A shim is the stub's
 * own file under NVIDIA's SONAME (the build links the same objects with the
 * same version script under the other name), and every SONAME NVIDIA uses
 * is shorter than the stub's own (lib<lib>_stub_cu<N>-<tag>.so), so the new
 * name fits where the old one was, its tail filled with NULs, and no
 * offset in the file moves. The base version definition carries the same
 * name, so its hash is written anew too. What cannot be told from here is
 * whether the linker let another string share the old name's tail: the
 * caller compares the result's symbols and versions with the stub's.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "elf_read.h"
#include "elf_view.h"

enum { MAX_DEFS = 4096 };

/* The ELF hash of a version name (the System V ABI's, which vd_hash
 * holds). */
static unsigned long elf_name_hash(const char *name)
{
	unsigned long h = 0, g;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		h = (h << 4) + *p;
		g = h & 0xf0000000ul;
		if (g)
			h ^= g >> 24;
		h &= ~g;
	}
	return h;
}

static int write_at(const struct elf_view *e, const void *buf, size_t len, unsigned long off)
{
	size_t done = 0;

	if (off > e->size || len > e->size - off)
		return -1;
	while (done < len) {
		ssize_t put =
			pwrite(e->fd, (const char *)buf + done, len - done, (off_t)(off + done));

		if (put < 0 && errno == EINTR)
			continue;
		if (put <= 0)
			return -1;
		done += (size_t)put;
	}
	return 0;
}

/* A 4-byte field in the file's byte order. */
static void put_word(unsigned char *p, unsigned long v, int big)
{
	for (int i = 0; i < 4; i++)
		p[big ? 3 - i : i] = (unsigned char)(v >> (8 * i));
}

/* The base version definition (VER_FLG_BASE) named by the string at
 * name_at gets the hash of soname. */
static int rehash_base_version(const struct elf_view *e, unsigned long name_at, const char *soname)
{
	unsigned long tag, val, addr = 0, count = 0, at;
	unsigned char vd[20], aux[4], hash[4];
	int r;

	for (unsigned long i = 0; (r = elf_dynamic_entry(e, i, &tag, &val)) == 0; i++)
		if (tag == DT_VERDEF)
			addr = val;
		else if (tag == DT_VERDEFNUM)
			count = val;
	if (r < 0)
		return -1;
	if (!addr || !count)
		return 0;
	if ((at = elf_offset_of(e, addr, sizeof vd)) == ~0ul)
		return -1;
	for (unsigned long n = 0; n < count && n < MAX_DEFS; n++) {
		unsigned long next, first;

		if (elf_read_at(e, vd, sizeof vd, at) != 0)
			return -1;
		first = elf_field(vd + 12, 4, e->big);
		if ((elf_field(vd + 2, 2, e->big) & VER_FLG_BASE) && first <= e->size - at &&
		    elf_read_at(e, aux, sizeof aux, at + first) == 0 &&
		    elf_field(aux, 4, e->big) == name_at) {
			put_word(hash, elf_name_hash(soname), e->big);
			return write_at(e, hash, sizeof hash, at + 8);
		}
		next = elf_field(vd + 16, 4, e->big);
		if (!next || next > e->size - at)
			return 0;
		at += next;
	}
	return 0;
}

int elf_set_soname(int fd, const char *soname, const char **why)
{
	struct elf_view e;
	unsigned long tag, val, name_at = ~0ul;
	char old[512], fill[512] = {0};
	size_t len = strlen(soname);
	int r;

	*why = "it is no ELF file with a dynamic section";
	if (elf_view_open(&e, fd) != 0 || elf_view_dynamic(&e) != 0)
		return -1;
	for (unsigned long i = 0; (r = elf_dynamic_entry(&e, i, &tag, &val)) == 0; i++)
		if (tag == DT_SONAME)
			name_at = val;
	*why = "it has no SONAME";
	if (r < 0 || name_at == ~0ul || elf_dynamic_string(&e, name_at, old, sizeof old) != 0)
		return -1;
	*why = "the new SONAME is longer than the old one";
	if (len > strlen(old))
		return -1;
	*why = strerror(errno = EIO);
	/* the name, then NULs over the rest of the old one */
	if (write_at(&e, soname, len, e.strtab + name_at) != 0 ||
	    write_at(&e, fill, strlen(old) - len + 1, e.strtab + name_at + len) != 0 ||
	    rehash_base_version(&e, name_at, soname) != 0)
		return -1;
	return 0;
}

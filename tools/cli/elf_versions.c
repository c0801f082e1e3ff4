/*
 * The symbol versions a file needs of each library (DT_VERNEED, the
 * SHT_GNU_verneed section) and those a library defines (DT_VERDEF,
 * SHT_GNU_verdef), reached through the dynamic section as the dynamic
 * loader reaches them: `cudastub patch --check` proves with them that the
 * stub a patched file finds defines every version the file needs of it
 * (cudaMalloc@libcudart.so.13 needs the node libcudart.so.13), the check
 * ld.so makes at start-up. The two structures are the same in both ELF
 * classes. Every chain is followed for a capped number of links, each
 * read checked against the file's size, so a loop or a wild offset in a
 * hostile file ends the read instead of the program.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <string.h>

#include "elf_read.h"
#include "elf_view.h"

enum { MAX_ENTRIES = 4096, MAX_AUX = 4096 };

/* The file offset of the table that the dynamic tags addr_tag and
 * num_tag describe, and its entry count; 0 (count 0 when absent) or -1. */
static int version_table(const struct elf_view *e, unsigned long addr_tag, unsigned long num_tag,
			 unsigned long *off, unsigned long *count)
{
	unsigned long tag, val, addr = 0;
	int r;

	*count = 0;
	for (unsigned long i = 0; (r = elf_dynamic_entry(e, i, &tag, &val)) == 0; i++)
		if (tag == addr_tag)
			addr = val;
		else if (tag == num_tag)
			*count = val;
	if (r < 0)
		return -1;
	if (!addr || !*count) {
		*count = 0;
		return 0;
	}
	*off = elf_offset_of(e, addr, 16);
	return *off == ~0ul ? -1 : 0;
}

/* at + step, or -1 when it would leave the file. */
static int next_offset(const struct elf_view *e, unsigned long *at, unsigned long step)
{
	if (step > e->size || *at > e->size - step)
		return -1;
	*at += step;
	return 0;
}

/* Appends the non-weak names of the cnt Vernaux entries at at to out. */
static int needed_versions(const struct elf_view *e, unsigned long at, unsigned long cnt, char *out,
			   size_t size)
{
	unsigned char aux[16];

	for (unsigned long j = 0; j < cnt && j < MAX_AUX; j++) {
		unsigned long next;

		if (elf_read_at(e, aux, sizeof aux, at) != 0)
			return -1;
		if (!(elf_field(aux + 4, 2, e->big) & VER_FLG_WEAK) &&
		    elf_append_string(e, elf_field(aux + 8, 4, e->big), out, size) != 0)
			return -1;
		next = elf_field(aux + 12, 4, e->big);
		if (!next)
			break;
		if (next_offset(e, &at, next) != 0)
			return -1;
	}
	return 0;
}

int elf_version_needs(int fd, const char *from, char *out, size_t size)
{
	struct elf_view e;
	unsigned long at, count;
	unsigned char vn[16];
	char file[512];

	out[0] = '\0';
	if (elf_view_open(&e, fd) != 0 || elf_view_dynamic(&e) != 0 ||
	    version_table(&e, DT_VERNEED, DT_VERNEEDNUM, &at, &count) != 0)
		return -1;
	for (unsigned long n = 0; n < count && n < MAX_ENTRIES; n++) {
		unsigned long aux, next;

		if (elf_read_at(&e, vn, sizeof vn, at) != 0 ||
		    elf_dynamic_string(&e, elf_field(vn + 4, 4, e.big), file, sizeof file) != 0)
			return -1;
		aux = at;
		if (!strcmp(file, from) &&
		    (next_offset(&e, &aux, elf_field(vn + 8, 4, e.big)) != 0 ||
		     needed_versions(&e, aux, elf_field(vn + 2, 2, e.big), out, size) != 0))
			return -1;
		next = elf_field(vn + 12, 4, e.big);
		if (!next)
			break;
		if (next_offset(&e, &at, next) != 0)
			return -1;
	}
	if (*out)
		out[strlen(out) - 1] = '\0';
	return 0;
}

int elf_version_defs(int fd, char *out, size_t size)
{
	struct elf_view e;
	unsigned long at, count;
	unsigned char vd[20], aux[8];

	out[0] = '\0';
	if (elf_view_open(&e, fd) != 0 || elf_view_dynamic(&e) != 0 ||
	    version_table(&e, DT_VERDEF, DT_VERDEFNUM, &at, &count) != 0)
		return -1;
	for (unsigned long n = 0; n < count && n < MAX_ENTRIES; n++) {
		unsigned long name_at = at, next;

		/* a definition's own name is its first Verdaux; the others
		 * name the versions it inherits from */
		if (elf_read_at(&e, vd, sizeof vd, at) != 0 ||
		    next_offset(&e, &name_at, elf_field(vd + 12, 4, e.big)) != 0 ||
		    elf_read_at(&e, aux, sizeof aux, name_at) != 0 ||
		    elf_append_string(&e, elf_field(aux, 4, e.big), out, size) != 0)
			return -1;
		next = elf_field(vd + 16, 4, e.big);
		if (!next)
			break;
		if (next_offset(&e, &at, next) != 0)
			return -1;
	}
	if (*out)
		out[strlen(out) - 1] = '\0';
	return 0;
}

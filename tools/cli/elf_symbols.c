/*
 * The names of a file's dynamic symbols, those it defines or those it
 * needs from its libraries, read as the dynamic loader reads them: the
 * table DT_SYMTAB names, as many entries as its hash table (DT_HASH's
 * chain count, else the last index DT_GNU_HASH reaches) says, the names
 * in DT_STRTAB. `cudastub patch` reads with them which CUDA ABI's stubs
 * define every symbol a file imports. Counts are capped and every read
 * checked against the file's size: a hostile file ends the read.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <string.h>

#include "elf_read.h"
#include "elf_view.h"

enum { MAX_SYMBOLS = 1 << 20, MAX_BUCKETS = 1 << 20 };

struct dynsym {
	unsigned long table, entsize, count; /* file offset, bytes, entries */
	unsigned long hash, gnu_hash;	     /* their virtual addresses, or 0 */
};

static int read_word(const struct elf_view *e, unsigned long addr, unsigned long *v)
{
	unsigned char b[4];
	unsigned long off = elf_offset_of(e, addr, 4);

	if (off == ~0ul || elf_read_at(e, b, 4, off) != 0)
		return -1;
	*v = elf_field(b, 4, e->big);
	return 0;
}

/* The symbol count DT_GNU_HASH at addr implies: one past the highest
 * index its chains reach. */
static int gnu_hash_count(const struct elf_view *e, unsigned long addr, unsigned long *count)
{
	unsigned long nbuckets, symoffset, bloom, buckets, last = 0, v;

	if (read_word(e, addr, &nbuckets) || read_word(e, addr + 4, &symoffset) ||
	    read_word(e, addr + 8, &bloom) || nbuckets > MAX_BUCKETS || bloom > MAX_BUCKETS)
		return -1;
	buckets = addr + 16 + bloom * (e->wide ? 8 : 4);
	for (unsigned long i = 0; i < nbuckets; i++) {
		if (read_word(e, buckets + 4 * i, &v))
			return -1;
		if (v > last)
			last = v;
	}
	if (last < symoffset) {
		*count = symoffset;
		return 0;
	}
	/* the chain from the last start ends at a value with its low bit set */
	for (unsigned long n = 0; n < MAX_SYMBOLS; n++, last++) {
		if (read_word(e, buckets + 4 * nbuckets + 4 * (last - symoffset), &v))
			return -1;
		if (v & 1) {
			*count = last + 1;
			return 0;
		}
	}
	return -1;
}

static int find_table(const struct elf_view *e, struct dynsym *s)
{
	unsigned long tag, val, addr = 0;
	int r;

	memset(s, 0, sizeof *s);
	s->entsize = e->wide ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
	for (unsigned long i = 0; (r = elf_dynamic_entry(e, i, &tag, &val)) == 0; i++)
		if (tag == DT_SYMTAB)
			addr = val;
		else if (tag == DT_SYMENT && val)
			s->entsize = val;
		else if (tag == DT_HASH)
			s->hash = val;
		else if (tag == DT_GNU_HASH)
			s->gnu_hash = val;
	if (r < 0 || !addr || s->entsize < (e->wide ? 24u : 16u))
		return -1;
	if (s->hash ? read_word(e, s->hash + 4, &s->count)
		    : !s->gnu_hash || gnu_hash_count(e, s->gnu_hash, &s->count))
		return -1;
	if (s->count > MAX_SYMBOLS)
		return -1;
	s->table = elf_offset_of(e, addr, s->entsize);
	return s->table == ~0ul ? -1 : 0;
}

int elf_symbols(int fd, int defined, char *out, size_t size)
{
	struct elf_view e;
	struct dynsym s;
	size_t used = 0;

	out[0] = '\0';
	if (elf_view_open(&e, fd) != 0 || elf_view_dynamic(&e) != 0 || find_table(&e, &s) != 0)
		return -1;
	/* entry 0 is the null symbol */
	for (unsigned long i = 1; i < s.count; i++) {
		unsigned char sym[24];
		unsigned long name, info, shndx;
		int bind;

		if (elf_read_at(&e, sym, e.wide ? 24 : 16, s.table + i * s.entsize) != 0)
			return -1;
		name = elf_field(sym, 4, e.big);
		info = sym[e.wide ? 4 : 12];
		shndx = elf_field(sym + (e.wide ? 6 : 14), 2, e.big);
		bind = (int)(info >> 4);
		if ((bind != STB_GLOBAL && bind != STB_WEAK) || !name ||
		    (shndx != SHN_UNDEF) == !defined)
			continue;
		if (elf_append_string(&e, name, out + used, size - used) != 0)
			return -1;
		used += strlen(out + used);
	}
	return 0;
}

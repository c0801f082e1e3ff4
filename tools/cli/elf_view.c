/*
 * The headers of an ELF file read through its descriptor, bounded: the
 * file is anyone's (a tree root patches may belong to someone hostile),
 * so nothing it says is followed without checking it against the file's
 * size, and counts are capped (program headers, dynamic entries) so that
 * a file that claims millions costs no more than one that claims a few.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf_view.h"

enum { MAX_PHDRS = 512, MAX_DYN = 8192 };

unsigned long elf_field(const unsigned char *p, int size, int big)
{
	unsigned long v = 0;

	for (int i = 0; i < size; i++)
		v = v << 8 | p[big ? i : size - 1 - i];
	return v;
}

int elf_read_at(const struct elf_view *e, void *buf, unsigned long len, unsigned long off)
{
	unsigned long done = 0;

	if (off > e->size || len > e->size - off)
		return -1;
	while (done < len) {
		ssize_t got = pread(e->fd, (char *)buf + done, len - done, (off_t)(off + done));

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return -1;
		done += (unsigned long)got;
	}
	return 0;
}

int elf_view_open(struct elf_view *e, int fd)
{
	unsigned char h[64];
	struct stat st;

	memset(e, 0, sizeof *e);
	e->fd = fd;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 52)
		return -1;
	e->size = (unsigned long)st.st_size;
	if (elf_read_at(e, h, 52, 0) != 0 || memcmp(h, ELFMAG, SELFMAG) ||
	    (h[EI_CLASS] != ELFCLASS32 && h[EI_CLASS] != ELFCLASS64) ||
	    (h[EI_DATA] != ELFDATA2LSB && h[EI_DATA] != ELFDATA2MSB))
		return -1;
	e->wide = h[EI_CLASS] == ELFCLASS64;
	e->big = h[EI_DATA] == ELFDATA2MSB;
	if (e->wide && elf_read_at(e, h, 64, 0) != 0)
		return -1;
	e->type = elf_field(h + 16, 2, e->big);
	e->machine = elf_field(h + 18, 2, e->big);
	/* e_phoff, e_phentsize, e_phnum: the same fields at each class's
	 * offsets */
	e->phoff = elf_field(h + (e->wide ? 32 : 28), e->wide ? 8 : 4, e->big);
	e->phentsize = elf_field(h + (e->wide ? 54 : 42), 2, e->big);
	e->phnum = elf_field(h + (e->wide ? 56 : 44), 2, e->big);
	if (e->phnum > MAX_PHDRS || (e->phnum && e->phentsize < (e->wide ? 56u : 32u)) ||
	    e->phoff > e->size || e->phnum * e->phentsize > e->size - e->phoff)
		e->phnum = 0; /* no program header is read */
	return 0;
}

/* Program header i: its type, file offset, address and size in the file. */
static int program_header(const struct elf_view *e, unsigned long i, unsigned long *type,
			  unsigned long *off, unsigned long *vaddr, unsigned long *filesz)
{
	unsigned char ph[56];
	int w = e->wide ? 8 : 4;

	if (elf_read_at(e, ph, e->wide ? 56 : 32, e->phoff + i * e->phentsize) != 0)
		return -1;
	*type = elf_field(ph, 4, e->big);
	*off = elf_field(ph + (e->wide ? 8 : 4), w, e->big);
	*vaddr = elf_field(ph + (e->wide ? 16 : 8), w, e->big);
	*filesz = elf_field(ph + (e->wide ? 32 : 16), w, e->big);
	return 0;
}

/* The file offset of the byte at virtual address addr, through the
 * PT_LOAD whose file image holds it; ~0ul when none does. */
static unsigned long byte_offset(const struct elf_view *e, unsigned long addr)
{
	for (unsigned long i = 0; i < e->phnum; i++) {
		unsigned long type, off, vaddr, filesz;

		if (program_header(e, i, &type, &off, &vaddr, &filesz) != 0)
			return ~0ul;
		if (type == PT_LOAD && addr >= vaddr && addr - vaddr < filesz && off <= e->size &&
		    addr - vaddr < e->size - off)
			return off + (addr - vaddr);
	}
	return ~0ul;
}

/* A table may span two adjacent segments (patchelf lays .dynstr out so):
 * its bytes are read from the file only where both of its ends lie as far
 * apart in the file as in memory. */
unsigned long elf_offset_of(const struct elf_view *e, unsigned long addr, unsigned long len)
{
	unsigned long first = byte_offset(e, addr), last;

	if (first == ~0ul || !len || addr > ~0ul - (len - 1))
		return first;
	last = byte_offset(e, addr + (len - 1));
	return last != ~0ul && last >= first && last - first == len - 1 ? first : ~0ul;
}

int elf_dynamic_entry(const struct elf_view *e, unsigned long i, unsigned long *tag,
		      unsigned long *val)
{
	unsigned char dyn[16];
	unsigned long entry = e->wide ? 16 : 8;

	if (i >= e->dyn_count)
		return 1;
	if (elf_read_at(e, dyn, entry, e->dyn_off + i * entry) != 0)
		return -1;
	*tag = elf_field(dyn, (int)entry / 2, e->big);
	*val = elf_field(dyn + entry / 2, (int)entry / 2, e->big);
	return *tag == DT_NULL ? 1 : 0;
}

int elf_view_dynamic(struct elf_view *e)
{
	unsigned long type, off, vaddr, filesz, tag, val, strtab_addr = 0, i;
	int found = 0, r;

	for (i = 0; i < e->phnum && !found; i++) {
		if (program_header(e, i, &type, &off, &vaddr, &filesz) != 0)
			return -1;
		found = type == PT_DYNAMIC;
	}
	if (!found || off > e->size || filesz > e->size - off)
		return -1;
	e->dyn_off = off;
	e->dyn_count = filesz / (e->wide ? 16 : 8);
	if (e->dyn_count > MAX_DYN)
		e->dyn_count = MAX_DYN;
	e->strsz = 0;
	for (i = 0; (r = elf_dynamic_entry(e, i, &tag, &val)) == 0; i++) {
		if (tag == DT_STRTAB)
			strtab_addr = val;
		else if (tag == DT_STRSZ)
			e->strsz = val;
	}
	if (r < 0 || !strtab_addr || !e->strsz || e->strsz > e->size)
		return -1;
	e->strtab = elf_offset_of(e, strtab_addr, e->strsz);
	return e->strtab == ~0ul ? -1 : 0;
}

int elf_dynamic_string(const struct elf_view *e, unsigned long at, char *buf, size_t size)
{
	unsigned long len;

	if (!size || at >= e->strsz)
		return -1;
	len = e->strsz - at < size ? e->strsz - at : size;
	if (elf_read_at(e, buf, len, e->strtab + at) != 0 || !memchr(buf, '\0', len))
		return -1; /* no terminator within the table, or within reach */
	return 0;
}

int elf_append_string(const struct elf_view *e, unsigned long at, char *out, size_t size)
{
	size_t used = strlen(out), len;

	if (used + 2 >= size || elf_dynamic_string(e, at, out + used, size - used - 1) != 0) {
		out[used] = '\0';
		return -1;
	}
	len = strlen(out + used);
	out[used + len] = '\n';
	out[used + len + 1] = '\0';
	return 0;
}

/*
 * DT_NEEDED and the RUNPATH (or RPATH) of an ELF file, read from its
 * dynamic section with a few pread() calls, as `patchelf --print-needed`
 * and `--print-rpath` print them. patchelf reads the whole file into
 * memory for each question, so a folder walk that asked it about every
 * file took time and memory that grew with the files' sizes (879 MB and
 * 1 min 50 s on Debian's CUDA packages); this reads some kilobytes a file,
 * and patchelf runs only on the files that change. A file this cannot
 * read (damaged, or laid out in a way it does not follow) is handed to
 * patchelf, as before.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "patch.h"

enum { MAX_PHDRS = 256, MAX_DYN = 4096 };

static unsigned long field(const unsigned char *p, int size, int big)
{
	unsigned long v = 0;

	for (int i = 0; i < size; i++)
		v = v << 8 | p[big ? i : size - 1 - i];
	return v;
}

struct elf_view {
	int fd, wide, big;
	unsigned long phoff, phentsize, phnum;
};

/* The file offset of virtual address addr, through the PT_LOAD that
 * holds it; 0 when none does. */
static unsigned long offset_of(const struct elf_view *e, unsigned long addr)
{
	unsigned char ph[56];

	for (unsigned long i = 0; i < e->phnum && i < MAX_PHDRS; i++) {
		unsigned long off, vaddr, filesz;

		if (pread(e->fd, ph, sizeof ph, (off_t)(e->phoff + i * e->phentsize)) <
		    (e->wide ? 56 : 32))
			return 0;
		if (field(ph, 4, e->big) != PT_LOAD)
			continue;
		off = field(ph + (e->wide ? 8 : 4), e->wide ? 8 : 4, e->big);
		vaddr = field(ph + (e->wide ? 16 : 8), e->wide ? 8 : 4, e->big);
		filesz = field(ph + (e->wide ? 32 : 16), e->wide ? 8 : 4, e->big);
		if (addr >= vaddr && addr - vaddr < filesz)
			return addr - vaddr + off;
	}
	return 0;
}

/* Appends the string at strtab + at (bounded by strsz) and a newline. */
static int append_string(const struct elf_view *e, unsigned long strtab, unsigned long strsz,
			 unsigned long at, char *out, size_t size)
{
	size_t used = strlen(out);
	char name[4096];
	ssize_t got;

	if (at >= strsz)
		return -1;
	got = pread(e->fd, name, sizeof name - 1, (off_t)(strtab + at));
	if (got <= 0)
		return -1;
	name[got] = '\0';
	if (strlen(name) == (size_t)got || used + strlen(name) + 2 > size)
		return -1; /* no terminator within reach, or no room */
	snprintf(out + used, size - used, "%s\n", name);
	return 0;
}

int elf_dynamic_strings(const char *file, char *needed, size_t nsize, char *runpath, size_t rsize)
{
	unsigned char head[64] = {0}, ph[56], dyn[16];
	unsigned long dyn_off = 0, dyn_size = 0, strtab = 0, strsz = 0, rpath = ~0ul;
	unsigned long runpath_at = ~0ul, entry;
	struct elf_view e = {-1, 0, 0, 0, 0, 0};
	struct stat st;
	int ok = -1;

	needed[0] = runpath[0] = '\0';
	if (stat(file, &st) != 0 || !S_ISREG(st.st_mode) ||
	    (e.fd = open(file, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)) < 0)
		return -1;
	if (read(e.fd, head, sizeof head) < 52 || memcmp(head, ELFMAG, SELFMAG))
		goto out;
	e.wide = head[EI_CLASS] == ELFCLASS64;
	e.big = head[EI_DATA] == ELFDATA2MSB;
	e.phoff = field(head + (e.wide ? 32 : 28), e.wide ? 8 : 4, e.big);
	e.phentsize = field(head + (e.wide ? 54 : 42), 2, e.big);
	e.phnum = field(head + (e.wide ? 56 : 44), 2, e.big);
	if (e.phentsize < (e.wide ? 56u : 32u))
		goto out;
	for (unsigned long i = 0; i < e.phnum && i < MAX_PHDRS && !dyn_size; i++) {
		if (pread(e.fd, ph, sizeof ph, (off_t)(e.phoff + i * e.phentsize)) <
		    (e.wide ? 56 : 32))
			goto out;
		if (field(ph, 4, e.big) == PT_DYNAMIC) {
			dyn_off = field(ph + (e.wide ? 8 : 4), e.wide ? 8 : 4, e.big);
			dyn_size = field(ph + (e.wide ? 32 : 16), e.wide ? 8 : 4, e.big);
		}
	}
	entry = e.wide ? 16 : 8;
	/* two passes over the entries: the string table's place first */
	for (int pass = 0; pass < 2; pass++) {
		for (unsigned long i = 0; i < dyn_size / entry && i < MAX_DYN; i++) {
			unsigned long tag, val;

			if (pread(e.fd, dyn, entry, (off_t)(dyn_off + i * entry)) != (ssize_t)entry)
				goto out;
			tag = field(dyn, (int)entry / 2, e.big);
			val = field(dyn + entry / 2, (int)entry / 2, e.big);
			if (tag == DT_NULL)
				break;
			if (pass == 0 && tag == DT_STRTAB)
				strtab = offset_of(&e, val);
			else if (pass == 0 && tag == DT_STRSZ)
				strsz = val;
			else if (pass == 1 && tag == DT_NEEDED &&
				 append_string(&e, strtab, strsz, val, needed, nsize) != 0)
				goto out;
			else if (pass == 1 && tag == DT_RUNPATH)
				runpath_at = val;
			else if (pass == 1 && tag == DT_RPATH)
				rpath = val;
		}
		if (pass == 0 && (!dyn_size || !strtab || !strsz))
			goto out;
	}
	/* as patchelf prints it: the RUNPATH, else the RPATH */
	if (runpath_at != ~0ul || rpath != ~0ul)
		if (append_string(&e, strtab, strsz, runpath_at != ~0ul ? runpath_at : rpath,
				  runpath, rsize) != 0)
			goto out;
	ok = 0;
out:
	close(e.fd);
	/* patchelf's output has its last newline cut */
	if (*needed && needed[strlen(needed) - 1] == '\n')
		needed[strlen(needed) - 1] = '\0';
	if (*runpath && runpath[strlen(runpath) - 1] == '\n')
		runpath[strlen(runpath) - 1] = '\0';
	return ok;
}

int patch_read_needed(const char *file, char *out, size_t size)
{
	char runpath[8192];

	return elf_dynamic_strings(file, out, size, runpath, sizeof runpath) == 0
		       ? 0
		       : patchelf_needed(file, out, size);
}

int patch_read_runpath(const char *file, char *out, size_t size)
{
	char needed[16384];

	return elf_dynamic_strings(file, needed, sizeof needed, out, size) == 0
		       ? 0
		       : patchelf_runpath(file, out, size);
}

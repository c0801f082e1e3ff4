/*
 * What kind of file `cudastub patch` was given: not a program or library
 * at all, a statically linked one (no dynamic section, so nothing to
 * point at a stub and nothing patchelf can read), or one the dynamic
 * loader reads DT_NEEDED entries from. Read from the ELF header and the
 * program headers alone, so a static program is told apart before
 * patchelf is asked (patchelf fails on it, which is no failure of ours).
 */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "patch.h"

/* A field of size bytes at p, in the file's byte order (big: ELFDATA2MSB). */
static unsigned long field(const unsigned char *p, int size, int big)
{
	unsigned long v = 0;

	for (int i = 0; i < size; i++)
		v = v << 8 | p[big ? i : size - 1 - i];
	return v;
}

enum elf_kind elf_kind(const char *file)
{
	unsigned char head[64] = {0}, ph[56];
	unsigned long phoff, phentsize, phnum, type;
	struct stat st;
	int fd = -1, wide, big, dynamic = 0;
	ssize_t got = -1;

	/* Only a regular file is opened, and without blocking: a FIFO in a
	 * tree being patched would otherwise hold open() for ever. */
	if (stat(file, &st) == 0 && S_ISREG(st.st_mode))
		fd = open(file, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		got = read(fd, head, sizeof head);
	if (got < 52 || memcmp(head, ELFMAG, SELFMAG) ||
	    (head[EI_CLASS] != ELFCLASS32 && head[EI_CLASS] != ELFCLASS64)) {
		if (fd >= 0)
			close(fd);
		return ELF_KIND_OTHER;
	}
	wide = head[EI_CLASS] == ELFCLASS64;
	big = head[EI_DATA] == ELFDATA2MSB;
	type = field(head + 16, 2, big);
	/* e_phoff, e_phentsize, e_phnum: the same fields at the two classes'
	 * offsets */
	phoff = field(head + (wide ? 32 : 28), wide ? 8 : 4, big);
	phentsize = field(head + (wide ? 54 : 42), 2, big);
	phnum = field(head + (wide ? 56 : 44), 2, big);
	if (type != ET_EXEC && type != ET_DYN) { /* an object file, a core */
		close(fd);
		return ELF_KIND_OTHER;
	}
	for (unsigned long i = 0; i < phnum && !dynamic && phentsize >= 4; i++) {
		if (pread(fd, ph, 4, (off_t)(phoff + i * phentsize)) != 4)
			break;
		dynamic = field(ph, 4, big) == PT_DYNAMIC;
	}
	close(fd);
	return dynamic ? ELF_KIND_DYNAMIC : ELF_KIND_STATIC;
}

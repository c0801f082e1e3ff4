/*
 * What kind of file `cudastub patch` was given: not a program or library
 * at all, a statically linked one (no dynamic section, so nothing to
 * point at a stub and nothing patchelf can read), or one the dynamic
 * loader reads DT_NEEDED entries from. Read from the ELF header and the
 * program headers alone, so a static program is told apart before
 * patchelf is asked (patchelf fails on it, which is no failure of ours).
 * The descriptor is opened by the caller, never blocking, so a FIFO in a
 * tree being patched is never waited on.
 */
#define _GNU_SOURCE
#include <elf.h>

#include "elf_read.h"
#include "elf_view.h"

enum elf_kind elf_kind(int fd)
{
	struct elf_view e;
	unsigned char ph[4];

	if (elf_view_open(&e, fd) != 0)
		return ELF_KIND_OTHER;
	if (e.type != ET_EXEC && e.type != ET_DYN) /* an object file, a core */
		return ELF_KIND_OTHER;
	for (unsigned long i = 0; i < e.phnum; i++)
		if (elf_read_at(&e, ph, sizeof ph, e.phoff + i * e.phentsize) == 0 &&
		    elf_field(ph, 4, e.big) == PT_DYNAMIC)
			return ELF_KIND_DYNAMIC;
	return ELF_KIND_STATIC;
}

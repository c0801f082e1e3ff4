/*
 * DT_NEEDED and the RUNPATH (or RPATH) of an ELF file, read from its
 * dynamic section through a few bounded reads, as `patchelf
 * --print-needed` and `--print-rpath` print them. patchelf reads the whole
 * file into memory for each question, so a folder walk that asked it
 * about every file took time and memory that grew with the files' sizes
 * (879 MB and 1 min 50 s on Debian's CUDA packages); this reads some
 * kilobytes a file, and patchelf runs only on the files that change. A
 * file this cannot read (damaged, or laid out in a way it does not
 * follow) is handed to patchelf (patch_plan.c).
 */
#define _GNU_SOURCE
#include <elf.h>
#include <string.h>

#include "elf_read.h"
#include "elf_view.h"

int elf_dynamic_strings(int fd, char *needed, size_t nsize, char *runpath, size_t rsize)
{
	struct elf_view e;
	unsigned long tag, val, runpath_at = ~0ul, rpath_at = ~0ul;
	int r = 0;

	needed[0] = runpath[0] = '\0';
	if (elf_view_open(&e, fd) != 0 || elf_view_dynamic(&e) != 0)
		return -1;
	for (unsigned long i = 0; r == 0 && (r = elf_dynamic_entry(&e, i, &tag, &val)) == 0; i++)
		if (tag == DT_NEEDED)
			r = elf_append_string(&e, val, needed, nsize);
		else if (tag == DT_RUNPATH)
			runpath_at = val;
		else if (tag == DT_RPATH)
			rpath_at = val;
	if (r < 0)
		return -1;
	/* as patchelf prints it: the RUNPATH, else the RPATH */
	if ((runpath_at != ~0ul || rpath_at != ~0ul) &&
	    elf_append_string(&e, runpath_at != ~0ul ? runpath_at : rpath_at, runpath, rsize) != 0)
		return -1;
	/* patchelf's output has its last newline cut */
	if (*needed)
		needed[strlen(needed) - 1] = '\0';
	if (*runpath)
		runpath[strlen(runpath) - 1] = '\0';
	return 0;
}

int elf_identity(int fd, int *elf_class, int *machine)
{
	struct elf_view e;

	if (elf_view_open(&e, fd) != 0)
		return -1;
	*elf_class = e.wide ? ELFCLASS64 : ELFCLASS32;
	*machine = (int)e.machine;
	return 0;
}

/*
 * Where a function's code lies in a library file, for tests that damage
 * that code on purpose (tests/loader/test_damaged_content.c,
 * test_hostile_inputs.c).
 */
#include "ts_symbol_offset.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long ts_symbol_offset(const char *path, const char *name)
{
	FILE *f = fopen(path, "rb");
	Elf64_Ehdr eh;
	long found = -1;

	if (!f)
		return -1;
	if (fread(&eh, sizeof eh, 1, f) != 1 || eh.e_shentsize != sizeof(Elf64_Shdr)) {
		fclose(f);
		return -1;
	}
	Elf64_Shdr *sh = calloc(eh.e_shnum, sizeof *sh);
	Elf64_Phdr *ph = calloc(eh.e_phnum, sizeof *ph);

	if (sh && ph && fseek(f, (long)eh.e_shoff, SEEK_SET) == 0 &&
	    fread(sh, sizeof *sh, eh.e_shnum, f) == eh.e_shnum &&
	    fseek(f, (long)eh.e_phoff, SEEK_SET) == 0 &&
	    fread(ph, sizeof *ph, eh.e_phnum, f) == eh.e_phnum) {
		for (unsigned i = 0; i < eh.e_shnum && found < 0; i++) {
			if (sh[i].sh_type != SHT_DYNSYM || sh[i].sh_link >= eh.e_shnum)
				continue;
			const Elf64_Shdr *strs = &sh[sh[i].sh_link];
			char *str = malloc(strs->sh_size);
			Elf64_Sym *syms = malloc(sh[i].sh_size);
			size_t count = sh[i].sh_size / sizeof *syms;

			if (str && syms && fseek(f, (long)strs->sh_offset, SEEK_SET) == 0 &&
			    fread(str, 1, strs->sh_size, f) == strs->sh_size &&
			    fseek(f, (long)sh[i].sh_offset, SEEK_SET) == 0 &&
			    fread(syms, sizeof *syms, count, f) == count)
				for (size_t s = 0; s < count && found < 0; s++) {
					if (syms[s].st_name >= strs->sh_size ||
					    strcmp(str + syms[s].st_name, name) ||
					    !syms[s].st_value)
						continue;
					for (unsigned p = 0; p < eh.e_phnum; p++)
						if (ph[p].p_type == PT_LOAD &&
						    syms[s].st_value >= ph[p].p_vaddr &&
						    syms[s].st_value <
							    ph[p].p_vaddr + ph[p].p_filesz)
							found = (long)(syms[s].st_value -
								       ph[p].p_vaddr +
								       ph[p].p_offset);
				}
			free(str);
			free(syms);
		}
	}
	free(sh);
	free(ph);
	fclose(f);
	return found;
}

/*
 * What `cudastub patch` reads of an ELF file, always from an open
 * descriptor and never past the file's end: what kind of file it is
 * (elf_kind.c), its DT_NEEDED entries and RUNPATH (elf_dynamic.c), the
 * symbol versions it needs and defines (elf_versions.c) and its dynamic
 * symbols (elf_symbols.c), all through one
 * bounded view of its headers (elf_view.c). The files read are anyone's,
 * so each offset, size and count is checked against the file's size and a
 * fixed cap before anything is read at it.
 */
#ifndef CUDASTUB_CLI_ELF_READ_H
#define CUDASTUB_CLI_ELF_READ_H

#include <stddef.h>

/* What a file is, read from its ELF and program headers. */
enum elf_kind {
	ELF_KIND_OTHER,	  /* not an ELF executable or shared library */
	ELF_KIND_STATIC,  /* one without a dynamic section: statically linked */
	ELF_KIND_DYNAMIC, /* one the dynamic loader reads DT_NEEDED from */
};
enum elf_kind elf_kind(int fd);

/* The file's DT_NEEDED entries (one a line, no last newline) and its
 * RUNPATH, else its RPATH ("" for neither), as patchelf --print-needed and
 * --print-rpath print them; 0, or -1 when its dynamic section cannot be
 * read. */
int elf_dynamic_strings(int fd, char *needed, size_t nsize, char *runpath, size_t rsize);

/* The file's class (ELFCLASS32 or ELFCLASS64) and machine (e_machine),
 * which a library must share with the file that loads it; 0 or -1. */
int elf_identity(int fd, int *elf_class, int *machine);

/* The versions the file needs from the library named from (its
 * SHT_GNU_verneed entries, reached as the dynamic loader does through
 * DT_VERNEED), one a line, weak ones left out: the dynamic loader refuses
 * to start without the others. The versions a file defines (DT_VERDEF),
 * one a line. Each "" when there are none; 0, or -1 when unreadable. */
int elf_version_needs(int fd, const char *from, char *out, size_t size);
int elf_version_defs(int fd, char *out, size_t size);

/* The names of the file's global and weak dynamic symbols it defines
 * (defined set) or needs from its libraries, one a line (elf_symbols.c);
 * 0, or -1 when unreadable or out does not hold them. */
int elf_symbols(int fd, int defined, char *out, size_t size);

/* The file's SONAME, written where the old one was (elf_soname.c): the
 * file open to write, soname no longer than the old name; 0, or -1 with
 * *why. */
int elf_set_soname(int fd, const char *soname, const char **why);

#endif

/*
 * One ELF file's headers as elf_view.c reads them, shared by the readers
 * of elf_read.h: every read goes through elf_read_at, which refuses any
 * range that does not lie inside the file.
 */
#ifndef CUDASTUB_CLI_ELF_VIEW_H
#define CUDASTUB_CLI_ELF_VIEW_H

#include <stddef.h>

struct elf_view {
	int fd, wide, big;  /* ELFCLASS64; ELFDATA2MSB */
	unsigned long size; /* of the file, in bytes */
	unsigned long type, machine;
	unsigned long phoff, phentsize, phnum;
	/* filled by elf_view_dynamic: the dynamic section's entries and the
	 * string table they point into, as file offsets */
	unsigned long dyn_off, dyn_count, strtab, strsz;
};

/* A field of size bytes at p, in the file's byte order. */
unsigned long elf_field(const unsigned char *p, int size, int big);
/* Reads the ELF header of fd (a regular file); 0, or -1 if it is none. */
int elf_view_open(struct elf_view *e, int fd);
/* Reads len bytes at off into buf; 0, or -1 unless all lie in the file. */
int elf_read_at(const struct elf_view *e, void *buf, unsigned long len, unsigned long off);
/* The file offset of the len bytes at virtual address addr, all in one
 * PT_LOAD segment's file image; ~0ul when no segment holds them. */
unsigned long elf_offset_of(const struct elf_view *e, unsigned long addr, unsigned long len);
/* Finds the dynamic section and its string table; 0 or -1. */
int elf_view_dynamic(struct elf_view *e);
/* The dynamic entry number i: 0, 1 past the last (DT_NULL), -1 unreadable. */
int elf_dynamic_entry(const struct elf_view *e, unsigned long i, unsigned long *tag,
		      unsigned long *val);
/* The dynamic string table's string at index at, in buf; 0, or -1 when it
 * is outside the table or longer than buf. */
int elf_dynamic_string(const struct elf_view *e, unsigned long at, char *buf, size_t size);
/* Appends "<string at index at>\n" to the text out; 0, or -1 (no room). */
int elf_append_string(const struct elf_view *e, unsigned long at, char *out, size_t size);

#endif

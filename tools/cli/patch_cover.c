/*
 * The rule for CUDA majors, in one place: which CUDA ABI's stubs a file
 * needs, and which of this cudastub's stubs stands in for each library it
 * needs. A stub exports the ABI of one CUDA major, so a file gets the
 * stubs of the major its libraries name: libcudart.so.12 is CUDA 12's (a
 * CUDA 12 program runs on CUDA 13 through the 12-ABI stub, never through
 * the 13-ABI one, whose prototypes differ), and so is a stub of an
 * earlier cudastub whose versions the file needs are libcudart.so.12's.
 * A file whose libraries name no major (the driver's libcuda.so.1,
 * libnccl.so.2, libcudnn.so.9, or a name several majors share, such as
 * libcurand.so.10) gets the newest ABI whose stubs define every symbol it
 * imports that some ABI's stubs define: a program built with NCCL 2.29
 * (CUDA 12.4) calls functions 13.0's NCCL lacks. Two majors in one file
 * is no program of any release: the file is refused.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "elf_read.h"
#include "nvidia_names.h"
#include "patch_cover.h"
#include "patch_names.h"

enum { SYMBOLS_SIZE = 1 << 22 };

/* The majors the SONAME name serves for library k, as a mask of 1 << major
 * (~0 for one name for every major), or 0 when it is none of k's. */
static unsigned long soname_majors(int k, const char *name)
{
	unsigned long majors = 0;

	for (const struct cli_soname *so = cli_known_libraries[k].sonames; so && so->name; so++)
		if (!strcmp(so->name, name))
			majors |= so->major ? 1ul << so->major : ~0ul;
	return majors;
}

/* The majors a DT_NEEDED entry asks for: a stub's name says its own, an
 * earlier cudastub's by the versions the file needs of it, an NVIDIA
 * SONAME by its major; ~0 for none in particular. */
static unsigned long entry_majors(int fd, const char *line)
{
	struct stub_ref ref;
	char unhashed[256], versions[1024];
	const char *name = nvidia_unhashed(line, unhashed, sizeof unhashed);
	unsigned long majors = ~0ul, m;

	if (stub_parse(line, &ref)) {
		if (ref.form == STUB_TAGGED)
			return 1ul << ref.abi;
		if (elf_version_needs(fd, line, versions, sizeof versions) != 0)
			return ~0ul;
		/* its versions are the real library's SONAMEs: libcudart.so.12 */
		for (char *v = strtok(versions, "\n"); v; v = strtok(NULL, "\n"))
			for (int k = 0; k < PATCH_KINDS; k++)
				if ((m = cli_known_libraries[k].name ? soname_majors(k, v) : 0) &&
				    m != ~0ul)
					majors &= m;
		return majors;
	}
	for (int k = 0; k < PATCH_KINDS; k++)
		if ((m = cli_known_libraries[k].name ? soname_majors(k, name) : 0) && m != ~0ul)
			majors &= m;
	return majors;
}

/* "12" or "11 or 12": the majors of a mask, for a message. */
static void majors_text(unsigned long majors, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int m = 1; m < 64 && n < size; m++)
		if (majors & (1ul << m))
			n += (size_t)snprintf(buf + n, size - n, "%s%d", n ? " or " : "", m);
}

/* A newline-separated list of names, split in place and sorted, to look
 * names up in. */
struct name_set {
	char **names;
	size_t count;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int set_make(struct name_set *s, char *list)
{
	size_t n = 0;

	for (const char *c = list; *c; c++)
		n += *c == '\n';
	s->count = 0;
	if (!(s->names = malloc((n + 1) * sizeof *s->names)))
		return -1;
	for (char *at = list, *nl; *at; at = nl + 1) {
		if (!(nl = strchr(at, '\n')))
			break;
		*nl = '\0';
		s->names[s->count++] = at;
	}
	qsort(s->names, s->count, sizeof *s->names, by_name);
	return 0;
}

static int set_has(const struct name_set *s, const char *name)
{
	return s->count && bsearch(&name, s->names, s->count, sizeof *s->names, by_name);
}

/* Appends the symbols the stubs of abi define for the libraries the file
 * needs (needed) to defs. */
static void abi_definitions(const char *needed, int abi, char *defs, size_t size)
{
	char copy[16384], *save = NULL, path[4096];

	snprintf(copy, sizeof copy, "%s", needed);
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char unhashed[256];
		const char *name = nvidia_unhashed(line, unhashed, sizeof unhashed);

		for (int k = 0; k < PATCH_KINDS; k++) {
			size_t used = strlen(defs);
			FILE *f;

			if (!cli_known_libraries[k].name || !soname_majors(k, name) ||
			    !cli_stub_file(k, abi, path, sizeof path) || !(f = fopen(path, "re")))
				continue;
			elf_symbols(fileno(f), 1, defs + used, size - used);
			fclose(f);
		}
	}
}

/* Whether the stubs of abi define every import (a set) that some
 * candidate's stubs define (all). */
static int defines_every_import(const char *needed, int abi, const struct name_set *imports,
				const struct name_set *all, char *buf)
{
	struct name_set defs = {NULL, 0};
	int every = 1;

	buf[0] = '\0';
	abi_definitions(needed, abi, buf, SYMBOLS_SIZE);
	if (set_make(&defs, buf) != 0)
		return 0;
	for (size_t i = 0; i < imports->count && every; i++)
		every = !set_has(all, imports->names[i]) || set_has(&defs, imports->names[i]);
	free(defs.names);
	return every;
}

/* Of the ABIs in candidates, the newest whose stubs define every symbol
 * the file imports that the stubs of some candidate define. */
static int abi_by_symbols(int fd, const char *needed, unsigned long candidates)
{
	char *imports = malloc(SYMBOLS_SIZE), *every = calloc(1, SYMBOLS_SIZE),
	     *buf = malloc(SYMBOLS_SIZE);
	struct name_set in = {NULL, 0}, all = {NULL, 0};
	int chosen = 0, newest = 0;

	for (int m = 63; m > 0; m--)
		if (candidates & (1ul << m)) {
			newest = newest ? newest : m;
			if (every)
				abi_definitions(needed, m, every, SYMBOLS_SIZE);
		}
	if (imports && every && buf && elf_symbols(fd, 0, imports, SYMBOLS_SIZE) == 0 &&
	    set_make(&in, imports) == 0 && set_make(&all, every) == 0)
		for (int m = 63; m > 0 && !chosen; m--)
			if ((candidates & (1ul << m)) &&
			    defines_every_import(needed, m, &in, &all, buf))
				chosen = m;
	free(in.names);
	free(all.names);
	free(imports);
	free(every);
	free(buf);
	return chosen ? chosen : newest;
}

int patch_file_abi(int fd, const char *needed, char *why, size_t size)
{
	char copy[16384], *save = NULL, text[64], have_text[64];
	unsigned long asked = ~0ul, have = 0;
	int abis[16], n = cli_stub_abis(abis, 16);

	for (int i = 0; i < n; i++)
		have |= 1ul << abis[i];
	snprintf(copy, sizeof copy, "%s", needed);
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		asked &= entry_majors(fd, line);
	if (!asked) {
		snprintf(why, size, "it needs libraries of two CUDA majors");
		return -1;
	}
	if (!(asked & have)) {
		majors_text(asked, text, sizeof text);
		majors_text(have, have_text, sizeof have_text);
		snprintf(why, size,
			 "no stubs of the CUDA %s ABI in this cudastub (its stubs: CUDA %s)", text,
			 have_text);
		return 0;
	}
	asked &= have;
	if (!(asked & (asked - 1))) /* one major */
		return __builtin_ctzl(asked);
	return abi_by_symbols(fd, needed, asked);
}

enum cover patch_cover(int k, const char *name, int abi, char *reason, size_t size)
{
	unsigned long serves = cli_known_libraries[k].name ? soname_majors(k, name) : 0;
	char majors[64], path[4096];

	if (!serves)
		return COVER_NONE;
	if (!abi || !(serves & (1ul << abi))) {
		majors_text(serves == ~0ul ? 0 : serves, majors, sizeof majors);
		snprintf(reason, size, "no stub for the CUDA %s ABI in this cudastub",
			 *majors ? majors : "file's");
		return COVER_OTHER_ABI;
	}
	if (!cli_stub_file(k, abi, path, sizeof path)) {
		snprintf(reason, size, "no stub in this cudastub for the CUDA %d ABI", abi);
		return COVER_NOT_BUILT;
	}
	return COVER_STUB;
}

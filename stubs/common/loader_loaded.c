/*
 * Whether a library is already in the process, without a search.
 *
 * dlopen(name, RTLD_NOLOAD) answers that, but for a name that is not
 * loaded glibc first searches for it as it would to load it: the library
 * path, ld.so.cache and the default folders, opening every file of that
 * name it meets (about 40 system calls on this machine) before it answers
 * "not loaded". A first call asks about some 25 names (the release SONAMEs
 * of loader_release.c, libcuda.so.1, the library's own SONAMEs, its
 * companion), almost none of them loaded; that search was most of the
 * first call's wall time. The process's list of objects (dl_iterate_phdr)
 * answers with no system call. dlopen still makes the handle, asked only
 * for a name that is there, which glibc then finds in that list.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <string.h>

#include "loader_core.h"
#include "loader_process.h"
#include "loader_search.h"

/* The object's DT_SONAME, or NULL. glibc rewrites the dynamic section's
 * addresses to run-time ones where that section is writable (x86-64,
 * aarch64) and leaves link-time ones where it is not (RISC-V, MIPS): an
 * address below the object's base is the latter. */
static const char *soname_of(const struct dl_phdr_info *info)
{
	const ElfW(Dyn) *dyn = NULL;
	ElfW(Addr) strtab = 0;
	ElfW(Xword) name = 0;
	int has_name = 0;

	for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
			dyn = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
	for (; dyn && dyn->d_tag != DT_NULL; dyn++) {
		if (dyn->d_tag == DT_STRTAB)
			strtab = dyn->d_un.d_ptr;
		else if (dyn->d_tag == DT_SONAME)
			name = dyn->d_un.d_val, has_name = 1;
	}
	if (!strtab || !has_name)
		return NULL;
	if (strtab < info->dlpi_addr)
		strtab += info->dlpi_addr;
	return (const char *)strtab + name;
}

/* An object's names: its file's (the last part of its path) and its
 * SONAME; either may be NULL. */
struct object_names {
	const char *file, *soname;
};

static struct object_names names_of(const struct dl_phdr_info *info)
{
	const char *slash = info->dlpi_name ? strrchr(info->dlpi_name, '/') : NULL;

	return (struct object_names){slash ? slash + 1 : NULL, soname_of(info)};
}

static int has_name(const struct object_names *names, const char *name)
{
	return (names->file && strcmp(names->file, name) == 0) ||
	       (names->soname && strcmp(names->soname, name) == 0);
}

/* An object is name when its SONAME or its file name is. */
static int is_named(struct dl_phdr_info *info, size_t size, void *name)
{
	struct object_names names = names_of(info);

	(void)size;
	return has_name(&names, name);
}

int cudastub_is_loaded(const char *soname)
{
	return cudastub_dl_iterate_phdr(is_named, (void *)soname) != 0;
}

void *cudastub_dlopen_loaded(const char *soname, int flags)
{
	return cudastub_is_loaded(soname) ? cudastub_dlopen(soname, flags | RTLD_NOLOAD) : NULL;
}

/* A name's FNV-1a hash: the walk compares hashes, and strings only where
 * they match. */
static uint32_t name_hash(const char *name)
{
	uint32_t h = 2166136261u;

	for (const unsigned char *c = (const unsigned char *)name; *c; c++)
		h = (h ^ *c) * 16777619u;
	return h;
}

enum { HASHED_RELEASES = 256 }; /* more are compared by string */

/* The release SONAMEs the walk found loaded (indices into the list), and
 * their hashes. */
struct release_walk {
	unsigned short *hits;
	size_t count, max;
	uint32_t hash[HASHED_RELEASES];
	size_t hashed;
};

/* An object's names are read and hashed once, then compared with every
 * release SONAME's hash: 48 names compared as strings, per object, were
 * most of the walk's cost. */
static int note_releases(struct dl_phdr_info *info, size_t size, void *ctx)
{
	struct release_walk *walk = ctx;
	struct object_names names = names_of(info);
	uint32_t file = names.file ? name_hash(names.file) : 0;
	uint32_t soname = names.soname ? name_hash(names.soname) : 0;

	(void)size;
	for (size_t i = 0; cudastub_release_sonames[i].soname && walk->count < walk->max; i++) {
		const char *name = cudastub_release_sonames[i].soname;

		if (i < walk->hashed && walk->hash[i] != file && walk->hash[i] != soname)
			continue;
		if (has_name(&names, name))
			walk->hits[walk->count++] = (unsigned short)i;
	}
	return 0;
}

/* One walk of the loaded objects for every release SONAME (a walk per name
 * cost as much again for each library the specs add): the indices found,
 * ascending and each once, at most max. */
size_t cudastub_loaded_releases(unsigned short *hits, size_t max)
{
	struct release_walk walk = {.hits = hits, .max = max};
	size_t kept = 0;

	while (walk.hashed < HASHED_RELEASES && cudastub_release_sonames[walk.hashed].soname) {
		walk.hash[walk.hashed] = name_hash(cudastub_release_sonames[walk.hashed].soname);
		walk.hashed++;
	}
	cudastub_dl_iterate_phdr(note_releases, &walk);
	for (size_t i = 1; i < walk.count; i++) /* a few at most: insertion sort */
		for (size_t j = i; j > 0 && hits[j - 1] > hits[j]; j--) {
			unsigned short t = hits[j];

			hits[j] = hits[j - 1];
			hits[j - 1] = t;
		}
	for (size_t i = 0; i < walk.count; i++)
		if (!kept || hits[kept - 1] != hits[i])
			hits[kept++] = hits[i];
	return kept;
}

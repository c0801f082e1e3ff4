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
#include "loader_loaded.h"

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

/* A name's FNV-1a hash (the generator hashes the release SONAMEs the
 * same way: emit_libraries.py). */
static uint32_t name_hash(const char *name)
{
	uint32_t h = 2166136261u;

	for (const unsigned char *c = (const unsigned char *)name; *c; c++)
		h = (h ^ *c) * 16777619u;
	return h;
}

static int walk_is_loaded(const char *soname)
{
	return cudastub_dl_iterate_phdr(is_named, (void *)soname) != 0;
}

static void note_hash(struct cudastub_loaded *l, uint32_t h)
{
	l->hash[l->count++] = h;
	l->seen[(h >> 6) & 3] |= (uint64_t)1 << (h & 63);
}

/* Each object's names, hashed: a name is read and hashed once per search,
 * where every question walked the list again and compared every name. */
static int note_names(struct dl_phdr_info *info, size_t size, void *ctx)
{
	struct cudastub_loaded *l = ctx;
	struct object_names names = names_of(info);

	(void)size;
	if (l->count + 2 > sizeof l->hash / sizeof *l->hash) {
		l->state = -1;
		return 1;
	}
	if (names.file)
		note_hash(l, name_hash(names.file));
	if (names.soname)
		note_hash(l, name_hash(names.soname));
	if (!l->from_python && info->dlpi_name && strstr(info->dlpi_name, "-packages/"))
		l->from_python = 1;
	return 0;
}

static const struct cudastub_loaded *snapshot(struct cudastub_search *s)
{
	if (s->loaded.state == 0) {
		s->loaded.state = 1;
		s->loaded.count = 0;
		s->loaded.from_python = 0;
		memset(s->loaded.seen, 0, sizeof s->loaded.seen);
		cudastub_dl_iterate_phdr(note_names, &s->loaded);
	}
	return s->loaded.state == 1 ? &s->loaded : NULL;
}

static int has_hash(const struct cudastub_loaded *l, uint32_t h)
{
	if (!(l->seen[(h >> 6) & 3] & ((uint64_t)1 << (h & 63))))
		return 0;
	for (unsigned i = 0; i < l->count; i++)
		if (l->hash[i] == h)
			return 1;
	return 0;
}

int cudastub_loaded_from_python(struct cudastub_search *s)
{
	const struct cudastub_loaded *l = snapshot(s);

	return !l || l->from_python;
}

void cudastub_loaded_forget(struct cudastub_search *s)
{
	s->loaded.state = 0;
}

/* A hash that matches only says "maybe": every caller then asks dlopen
 * with RTLD_NOLOAD, which answers for the name itself. One that matches
 * none is an object that was not there when the search began. */
int cudastub_is_loaded(struct cudastub_search *s, const char *soname)
{
	const struct cudastub_loaded *l = s ? snapshot(s) : NULL;

	return l ? has_hash(l, name_hash(soname)) : walk_is_loaded(soname);
}

void *cudastub_dlopen_loaded(struct cudastub_search *s, const char *soname, int flags)
{
	return cudastub_is_loaded(s, soname) ? cudastub_dlopen(soname, flags | RTLD_NOLOAD) : NULL;
}

/* Without a snapshot (too many objects): one walk that marks the release
 * SONAMEs each object's names hash to, not one walk per SONAME. */
struct release_marks {
	unsigned char *seen;
	size_t count;
};

static int mark_releases(struct dl_phdr_info *info, size_t size, void *ctx)
{
	struct release_marks *m = ctx;
	struct object_names names = names_of(info);
	uint32_t file = names.file ? name_hash(names.file) : 0;
	uint32_t soname = names.soname ? name_hash(names.soname) : 0;

	(void)size;
	for (size_t i = 0; i < m->count; i++)
		if ((names.file && cudastub_release_soname_hashes[i] == file) ||
		    (names.soname && cudastub_release_soname_hashes[i] == soname))
			m->seen[i] = 1;
	return 0;
}

size_t cudastub_loaded_releases(struct cudastub_search *s, unsigned short *hits, size_t max)
{
	const struct cudastub_loaded *l = snapshot(s);
	unsigned char seen[512] = {0};
	struct release_marks marks = {seen, 0};
	size_t found = 0;

	while (cudastub_release_sonames[marks.count].soname && marks.count < sizeof seen)
		marks.count++;
	if (!l)
		cudastub_dl_iterate_phdr(mark_releases, &marks);
	for (size_t i = 0; i < marks.count && found < max; i++)
		if (l ? has_hash(l, cudastub_release_soname_hashes[i]) : seen[i])
			hits[found++] = (unsigned short)i;
	return found;
}

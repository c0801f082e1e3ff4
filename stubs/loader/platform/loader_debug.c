/*
 * The dynamic loader's record of the main namespace (its struct r_debug:
 * the list of loaded objects, and whether that list is being changed), and
 * through it the objects loaded at start-up.
 *
 * ld.so writes the address of the record it keeps into the main program's
 * DT_DEBUG entry, where debuggers read it; the program's headers come from
 * the auxiliary vector, not from a walk of the loaded objects, which would
 * take a loader lock. A program that names _r_debug itself holds a copy
 * made at start-up (a copy relocation), which every other object's
 * _r_debug then means, which ld.so never updates, and whose r_state reads
 * RT_ADD for ever: the stub never reads that one. Where the program has no
 * DT_DEBUG, ld.so's own _r_debug is read from ld.so's symbol table (its
 * base address is in the auxiliary vector too). The stub does not name
 * _r_debug among its imports: that made every stub need
 * ld-linux-x86-64.so.2, one more name for the dynamic loader to match
 * against every loaded object at every start.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <link.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/auxv.h>

#include "loader_core.h"
#include "loader_debug.h"
#include "loader_symtab.h"

static _Atomic(struct r_debug *) loader_debug;
static atomic_int looked;

/* The dynamic section of the object whose program headers are at phdr
 * (count of them), loaded at bias; NULL when it has none. */
static const ElfW(Dyn) * dynamic_of(const ElfW(Phdr) * phdr, size_t count, ElfW(Addr) bias)
{
	for (size_t i = 0; phdr && i < count; i++)
		if (phdr[i].p_type == PT_DYNAMIC)
			return (const ElfW(Dyn) *)(bias + phdr[i].p_vaddr);
	return NULL;
}

/* The main program's DT_DEBUG, as ld.so filled it in, or NULL. */
static struct r_debug *from_program(void)
{
	const ElfW(Phdr) *phdr = (const ElfW(Phdr) *)getauxval(AT_PHDR);
	size_t count = getauxval(AT_PHNUM);
	const ElfW(Dyn) *dyn = NULL;

	for (size_t i = 0; phdr && i < count; i++)
		if (phdr[i].p_type == PT_PHDR)
			dyn = dynamic_of(phdr, count, (ElfW(Addr))phdr - phdr[i].p_vaddr);
	for (; dyn && dyn->d_tag != DT_NULL; dyn++)
		if (dyn->d_tag == DT_DEBUG && dyn->d_un.d_ptr)
			return (struct r_debug *)dyn->d_un.d_ptr;
	return NULL;
}

void *cudastub_ld_so_symbol(const char *name, size_t *size)
{
	const ElfW(Ehdr) *ehdr = (const ElfW(Ehdr) *)getauxval(AT_BASE);
	struct link_map ld_so;

	if (!ehdr || memcmp(ehdr->e_ident, ELFMAG, SELFMAG) != 0)
		return NULL;
	memset(&ld_so, 0, sizeof ld_so);
	ld_so.l_addr = (ElfW(Addr))ehdr;
	ld_so.l_ld =
		(ElfW(Dyn) *)dynamic_of((const ElfW(Phdr) *)((const char *)ehdr + ehdr->e_phoff),
					ehdr->e_phnum, ld_so.l_addr);
	return cudastub_object_symbol_sized(&ld_so, name, size);
}

struct r_debug *cudastub_loader_debug(void)
{
	struct r_debug *debug = atomic_load_explicit(&loader_debug, memory_order_acquire);

	/* looked up once; threads that race it find the same */
	if (!debug && !atomic_load_explicit(&looked, memory_order_acquire)) {
		if (!(debug = from_program()))
			debug = cudastub_ld_so_symbol("_r_debug", NULL);
		atomic_store_explicit(&loader_debug, debug, memory_order_release);
		atomic_store_explicit(&looked, 1, memory_order_release);
	}
	return debug;
}

/* The object's DT_SONAME, or NULL (loader_loaded.c reads it the same way,
 * from dl_iterate_phdr's view). */
static const char *soname_of(const struct link_map *map)
{
	ElfW(Addr) strtab = 0;
	ElfW(Xword) name = 0;
	int has_name = 0;

	for (const ElfW(Dyn) *d = map->l_ld; d && d->d_tag != DT_NULL; d++) {
		if (d->d_tag == DT_STRTAB)
			strtab = d->d_un.d_ptr;
		else if (d->d_tag == DT_SONAME)
			name = d->d_un.d_val, has_name = 1;
	}
	if (!strtab || !has_name)
		return NULL;
	if (strtab < map->l_addr)
		strtab += map->l_addr;
	return (const char *)strtab + name;
}

/* Whether the object's path ends in /soname: libc.so.6 is found under
 * that name (it is every program's DT_NEEDED name for it), so its dynamic
 * section need not be read. */
static int named(const struct link_map *map, const char *soname)
{
	size_t n = map->l_name ? strlen(map->l_name) : 0, k = strlen(soname);

	return n > k && map->l_name[n - k - 1] == '/' && strcmp(map->l_name + n - k, soname) == 0;
}

/*
 * The list is read without the loader's lock, so this is only for an
 * object that was loaded at start-up, before the first library the
 * program dlopen()s: the list grows at its end, and an object loaded at
 * start-up is never unloaded, so every entry up to it stays as it is
 * whatever another thread loads or unloads meanwhile. libc.so.6 is one:
 * every stub needs it.
 */
const struct link_map *cudastub_startup_object(const char *soname)
{
	struct r_debug *debug = cudastub_loader_debug();
	const struct link_map *head = debug ? debug->r_map : NULL, *map;

	for (map = head; map; map = map->l_next)
		if (named(map, soname))
			return map;
	for (map = head; map; map = map->l_next) {
		const char *name = soname_of(map);

		if (name && strcmp(name, soname) == 0)
			return map;
	}
	return NULL;
}

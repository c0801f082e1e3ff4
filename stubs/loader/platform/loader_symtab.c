/*
 * Whether a loaded object itself defines a symbol, read from its own
 * dynamic symbol table through its hash table, as the dynamic loader reads
 * it, but in that one object only.
 *
 * A candidate is a cudastub build when it defines one of the stubs'
 * markers (cudastub_<lib>_info). dlsym answers that for one name, but
 * searches the object's dependencies too (so a second call, dladdr1,
 * must say whose symbol it found), and a name that is not there costs a
 * formatted error message: some 1,900 instructions per marker, thirty
 * markers per candidate, and every candidate of NVIDIA's has none. Here a
 * name that is not there is usually turned away by the hash table's Bloom
 * filter in a few dozen instructions.
 *
 * Only GNU hash tables are read (every linker of the last fifteen years
 * writes one by default; NVIDIA's libraries have them). An object without
 * one answers -1, and the caller asks dlsym as before.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <string.h>

#include "loader_core.h"
#include "loader_symtab.h"

/* A chain longer than this is no table a linker wrote. */
#define MAX_CHAIN 65536

/* glibc rewrites the dynamic section's addresses to run-time ones where
 * that section is writable (x86-64, aarch64) and leaves link-time ones
 * where it is not (RISC-V, MIPS): an address below the object's base is
 * the latter. */
static const void *at_run_time(const struct link_map *map, ElfW(Addr) address)
{
	return (const void *)(address < map->l_addr ? address + map->l_addr : address);
}

static uint32_t gnu_hash(const char *name)
{
	uint32_t h = 5381;

	for (const unsigned char *c = (const unsigned char *)name; *c; c++)
		h = h * 33 + *c;
	return h;
}

/* An object's dynamic symbols and the GNU hash table over them. */
struct symtab {
	const struct link_map *map;
	const uint32_t *buckets, *chain;
	const ElfW(Addr) * bloom;
	const ElfW(Sym) * symbols;
	const ElfW(Half) * versions; /* DT_VERSYM, or NULL */
	const char *strings;
	uint32_t nbuckets, first, bloom_words, shift;
};

/* Reads map's dynamic section once for any number of lookups: 0, or -1
 * when it has no GNU hash table the dynamic loader could read either. */
static int symtab_open(const struct link_map *map, struct symtab *t)
{
	const uint32_t *table = NULL;

	memset(t, 0, sizeof *t);
	if (!map || !map->l_ld)
		return -1;
	t->map = map;
	for (const ElfW(Dyn) *d = map->l_ld; d->d_tag != DT_NULL; d++) {
		if (d->d_tag == DT_GNU_HASH)
			table = at_run_time(map, d->d_un.d_ptr);
		else if (d->d_tag == DT_SYMTAB)
			t->symbols = at_run_time(map, d->d_un.d_ptr);
		else if (d->d_tag == DT_STRTAB)
			t->strings = at_run_time(map, d->d_un.d_ptr);
		else if (d->d_tag == DT_VERSYM)
			t->versions = at_run_time(map, d->d_un.d_ptr);
	}
	if (!table || !t->symbols || !t->strings)
		return -1;
	t->nbuckets = table[0];
	t->first = table[1];
	t->bloom_words = table[2];
	t->shift = table[3];
	/* the dynamic loader requires a power of two */
	if (t->nbuckets == 0 || t->bloom_words == 0 || (t->bloom_words & (t->bloom_words - 1)) != 0)
		return -1;
	t->bloom = (const ElfW(Addr) *)(table + 4);
	t->buckets = (const uint32_t *)(t->bloom + t->bloom_words);
	t->chain = t->buckets + t->nbuckets;
	return 0;
}

/* Whether symbol index of the table is a hidden version of its name (a
 * compatibility symbol, name@VERSION, beside the default name@@VERSION). */
static int hidden_version(const struct symtab *t, uint32_t index)
{
	return t->versions && (t->versions[index] & 0x8000);
}

/* The symbol name (whose GNU hash is h) the object defines itself, or
 * NULL; its default version where it has several. */
static const ElfW(Sym) * symtab_find(const struct symtab *t, const char *name, uint32_t h)
{
	const unsigned bits = sizeof(ElfW(Addr)) * 8;
	const ElfW(Sym) *hidden = NULL;
	uint32_t index;
	ElfW(Addr) word, mask;

	word = t->bloom[(h / bits) & (t->bloom_words - 1)];
	mask = ((ElfW(Addr))1 << (h % bits)) | ((ElfW(Addr))1 << ((h >> t->shift) % bits));
	if ((word & mask) != mask)
		return NULL;
	index = t->buckets[h % t->nbuckets];
	if (index < t->first)
		return NULL;
	for (unsigned steps = 0; steps < MAX_CHAIN; steps++, index++) {
		uint32_t link = t->chain[index - t->first];
		const ElfW(Sym) *sym = &t->symbols[index];

		if ((link | 1) == (h | 1) && sym->st_shndx != SHN_UNDEF &&
		    strcmp(t->strings + sym->st_name, name) == 0) {
			if (!hidden_version(t, index))
				return sym;
			hidden = sym;
		}
		if (link & 1) /* the end of this bucket's chain */
			break;
	}
	return hidden;
}

int cudastub_object_defines_any(const struct link_map *map, const char *const *names,
				const uint32_t *hashes)
{
	struct symtab t;

	if (symtab_open(map, &t) != 0)
		return -1;
	for (size_t i = 0; names[i]; i++)
		if (symtab_find(&t, names[i], hashes ? hashes[i] : gnu_hash(names[i])))
			return 1;
	return 0;
}

int cudastub_object_symbol_size(const struct link_map *map, const char *name, const void *address,
				size_t *size)
{
	struct symtab t;
	const ElfW(Sym) * sym;

	if (symtab_open(map, &t) != 0 || !(sym = symtab_find(&t, name, gnu_hash(name))) ||
	    (const char *)map->l_addr + sym->st_value != (const char *)address)
		return -1;
	*size = (size_t)sym->st_size;
	return 0;
}

void *cudastub_object_symbol_sized(const struct link_map *map, const char *name, size_t *size)
{
	struct symtab t;
	const ElfW(Sym) * sym;

	if (symtab_open(map, &t) != 0 || !(sym = symtab_find(&t, name, gnu_hash(name))))
		return NULL;
	/* an IFUNC's address is its resolver's, not the function's */
	if ((sym->st_info & 0xf) == STT_GNU_IFUNC) /* ELF32_ST_TYPE, ELF64_ST_TYPE */
		return NULL;
	if (size)
		*size = (size_t)sym->st_size;
	return (char *)map->l_addr + sym->st_value;
}

void *cudastub_object_symbol(const struct link_map *map, const char *name)
{
	return cudastub_object_symbol_sized(map, name, NULL);
}

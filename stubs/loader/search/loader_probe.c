/*
 * A version probe's function, looked at before the probe calls it.
 *
 * The probe is the first code of a candidate the stub runs after dlopen
 * (stubs/loader/search/loader_candidate.c, step 5). A file with sound headers can
 * still hold a block of zeros where code should be: a power loss after the
 * size was written, a downloader that preallocates and never fills a block,
 * a punched hole. The ELF checks read headers only (loader_elf.c), so such
 * a file is mapped, and calling zeros kills the process (SIGSEGV on x86-64,
 * SIGILL on aarch64), where a healthy copy further down the search would
 * have served.
 *
 * What is checked costs no system call and reads only memory the loader has
 * mapped already, within the one memory page that holds the function's
 * entry:
 *   - the entry's first bytes (16, or the symbol's size if smaller): all
 *     zeros is no function's code on x86-64 or aarch64 (an undefined
 *     instruction on aarch64, a store through a register on x86-64);
 *   - every 4 KiB block of that page that the function's body (its symbol's
 *     size) touches: a whole block of zeros is a lost file-system block,
 *     never code.
 * A zero block or hole anywhere else (the rest of the function, code it
 * calls, a constructor, data) is not seen here: it crashes when it is
 * executed or read, as it would in a program linked to that file directly.
 * The check reads the code page, which assumes code segments are readable
 * (PF_R with PF_X, as every linker writes them and NVIDIA ships them); an
 * execute-only segment, where the hardware enforces one, would fault here.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>

#include "loader_core.h"
#include "loader_probe.h"
#include "loader_symtab.h"

enum {
	BLOCK = 4096,	 /* the file-system block a lost write zeroes */
	ENTRY_BYTES = 16 /* no function starts with this many zero bytes */
};

/* The probe symbols refused and not yet told, by the candidate's handle
 * (searches of different libraries may run at once): the reason is
 * written again when it is taken, from what was refused. One refused while
 * all are taken is told as the probe's failure only. */
enum { REFUSALS = 8, FREE = 0, WRITING = 1, KEPT = 2 };
static struct refusal {
	atomic_int state;
	void *handle;
	const void *fn;
	const char *name;
} refusals[REFUSALS];

static int all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

static size_t memory_page(void)
{
	unsigned long page = getauxval(AT_PAGESZ);

	return page >= BLOCK ? (size_t)page : BLOCK;
}

/* Where fn, name's entry in the object of handle, lies: the object's base
 * and the symbol's size (0 if unknown). Read from the object's own symbol
 * table; dladdr1, which scans every symbol of the object for the nearest,
 * only where that cannot answer (a function of a dependency). 0, or -1
 * when fn is in no loaded object. */
static int locate(void *handle, const void *fn, const char *name, uintptr_t *base, size_t *size)
{
	struct link_map *map = NULL;
	const ElfW(Sym) *sym = NULL;
	Dl_info where;

	if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map &&
	    cudastub_object_symbol_size(map, name, fn, size) == 0) {
		*base = (uintptr_t)map->l_addr;
		return 0;
	}
	if (!dladdr1(fn, &where, (void **)&sym, RTLD_DL_SYMENT) || !where.dli_fbase)
		return -1;
	*base = (uintptr_t)where.dli_fbase;
	*size = sym ? (size_t)sym->st_size : 0;
	return 0;
}

/* Why the code at fn, name's entry, cannot be what the library was built
 * with (written in why, of size bytes), or NULL. */
static const char *zeroed_code(void *handle, const void *fn, const char *name, char *why,
			       size_t why_size)
{
	uintptr_t entry = (uintptr_t)fn, page = memory_page(), page_end, body_end, block, base;
	size_t body, head, size = 0;

	/* Outside every loaded object there is nothing known to be mapped to
	 * read: leave it to the probe. */
	if (locate(handle, fn, name, &base, &size) != 0)
		return NULL;
	page_end = (entry & ~(page - 1)) + page;
	body = size ? size : 1;
	body_end = body < page_end - entry ? entry + body : page_end;
	head = body < ENTRY_BYTES ? body : ENTRY_BYTES;
	if (head > page_end - entry)
		head = page_end - entry;
	if (all_zero((const unsigned char *)fn, head)) {
		snprintf(why, why_size,
			 "damaged: the code of %s (at 0x%llx in the library) is zeros", name,
			 (unsigned long long)(entry - base));
		return why;
	}
	for (block = entry & ~(uintptr_t)(BLOCK - 1); block < body_end; block += BLOCK)
		if (all_zero((const unsigned char *)block, BLOCK)) {
			snprintf(why, why_size,
				 "damaged: the 4 KiB block at 0x%llx in the library, which holds "
				 "code of %s, is zeros",
				 (unsigned long long)(block - base), name);
			return why;
		}
	return NULL;
}

static void keep_refusal(void *handle, const void *fn, const char *name)
{
	for (int i = 0; i < REFUSALS; i++) {
		struct refusal *r = &refusals[i];
		int free_state = FREE;

		if (atomic_compare_exchange_strong(&r->state, &free_state, WRITING)) {
			r->handle = handle;
			r->fn = fn;
			r->name = name;
			atomic_store_explicit(&r->state, KEPT, memory_order_release);
			return;
		}
	}
}

void *cudastub_probe_symbol(void *handle, const char *name)
{
	void *fn = dlsym(handle, name);
	char why[256];

	if (fn && zeroed_code(handle, fn, name, why, sizeof why)) {
		keep_refusal(handle, fn, name);
		return NULL;
	}
	return fn;
}

const char *cudastub_probe_take_refusal(void *handle, char *why, size_t size)
{
	const char *told = NULL;

	for (int i = 0; i < REFUSALS; i++) {
		struct refusal *r = &refusals[i];

		if (atomic_load_explicit(&r->state, memory_order_acquire) != KEPT ||
		    r->handle != handle)
			continue;
		if (!told)
			told = zeroed_code(handle, r->fn, r->name, why, size);
		atomic_store(&r->state, FREE);
	}
	return told;
}

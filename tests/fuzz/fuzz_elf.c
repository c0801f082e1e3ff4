/*
 * The ELF check (stubs/loader/search/loader_elf.c) over arbitrary bytes, as the
 * stub runs it over a file. Besides never crashing, what it accepts must
 * hold what dlopen needs: checked here again, independently, so a check
 * that lets a damaged file through is a finding.
 */
#include <elf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "loader.h"

struct image {
	const uint8_t *data;
	size_t size;
};

static int read_image(void *ctx, void *buf, size_t n, uint64_t at)
{
	const struct image *im = ctx;

	if (at > im->size || n > im->size - at)
		return -1;
	memcpy(buf, im->data + at, n);
	return 0;
}

/* What an accepted image must hold: a 64-bit shared object of this
 * process's machine whose program headers and PT_LOAD/PT_DYNAMIC segments
 * lie inside it. */
#if defined(__x86_64__)
#define THIS_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define THIS_MACHINE EM_AARCH64
#endif

static void check_accepted(const struct image *im)
{
	Elf64_Ehdr eh;

	if (im->size < sizeof eh)
		abort();
	memcpy(&eh, im->data, sizeof eh);
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_type != ET_DYN || eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum == 0 ||
	    eh.e_machine != THIS_MACHINE)
		abort();
	if (eh.e_phoff > im->size ||
	    (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr) > im->size - eh.e_phoff)
		abort();
	for (unsigned i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;

		memcpy(&ph, im->data + eh.e_phoff + i * sizeof ph, sizeof ph);
		if ((ph.p_type == PT_LOAD || ph.p_type == PT_DYNAMIC) &&
		    (ph.p_offset > im->size || ph.p_filesz > im->size - ph.p_offset))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct image im = {data, size};
	struct cudastub_elf_source src = {read_image, &im, size};
	char why[256];
	const char *verdict = cudastub_elf_reject(&src, why, sizeof why);

	if (!verdict)
		check_accepted(&im);
	else if (!*verdict || strlen(verdict) >= sizeof why + 128)
		abort(); /* a reason, and a bounded one */
	return 0;
}

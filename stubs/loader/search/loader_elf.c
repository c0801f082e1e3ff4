/*
 * A candidate file, checked before dlopen ever maps it.
 *
 * glibc maps a library's loadable segments straight from the file, so a
 * truncated copy (a failed download, a full disk) kills the process with
 * SIGBUS inside dlopen, and a damaged one can send the loader through
 * pointers outside the mapping. The stub asks what dlopen would need of the
 * file first, and skips a candidate that would not hold, with the real
 * reason:
 *   - an ELF header, of this process's class, byte order and machine, for a
 *     shared object;
 *   - program headers, and every PT_LOAD and PT_DYNAMIC segment, inside the
 *     file;
 *   - the dynamic section's addresses inside the loadable segments.
 * The checks read through a callback, so the fuzz targets run the same code
 * over a buffer that the stub runs over a file.
 *
 * Before any of that, only a regular file is opened at all (a FIFO, a
 * socket or a device is skipped by its type: see cudastub_elf_check_file).
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader_core.h"
#include "loader_elf.h"
#include "loader_sys.h"

#if defined(__x86_64__)
#define OWN_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define OWN_MACHINE EM_AARCH64
#else
#error "cudastub: this architecture's ELF machine is not known to loader_elf.c"
#endif

/* Program headers or dynamic entries read at a time. */
enum { BATCH = 32 };

static const char *machine_name(unsigned machine)
{
	switch (machine) {
	case EM_X86_64: return "x86-64";
	case EM_AARCH64: return "aarch64";
	case EM_386: return "i386";
	case EM_ARM: return "arm";
	case EM_PPC64: return "ppc64";
	case EM_RISCV: return "riscv";
	case EM_S390: return "s390";
	}
	return NULL;
}

static int read_exact(const struct cudastub_elf_source *src, void *buf, size_t n, uint64_t at)
{
	return at <= src->size && n <= src->size - at && src->read(src->ctx, buf, n, at) == 0;
}

static int segment_fits(const struct cudastub_elf_source *src, uint64_t offset, uint64_t size)
{
	return offset <= src->size && size <= src->size - offset;
}

/* Whether [addr, addr + size) lies inside one PT_LOAD's memory. */
static int mapped(const Elf64_Phdr *loads, unsigned count, uint64_t addr, uint64_t size)
{
	for (unsigned i = 0; i < count; i++)
		if (addr >= loads[i].p_vaddr && addr - loads[i].p_vaddr <= loads[i].p_memsz &&
		    size <= loads[i].p_memsz - (addr - loads[i].p_vaddr))
			return 1;
	return 0;
}

/* The dynamic entries that hold addresses the loader reads through. */
static int is_address_tag(int64_t tag)
{
	switch (tag) {
	case DT_HASH:
	case DT_GNU_HASH:
	case DT_STRTAB:
	case DT_SYMTAB:
	case DT_RELA:
	case DT_REL:
	case DT_JMPREL:
	case DT_INIT:
	case DT_FINI:
	case DT_INIT_ARRAY:
	case DT_FINI_ARRAY:
	case DT_VERSYM:
	case DT_VERDEF:
	case DT_VERNEED: return 1;
	}
	return 0;
}

static const char *check_dynamic(const struct cudastub_elf_source *src, const Elf64_Phdr *dynamic,
				 const Elf64_Phdr *loads, unsigned load_count, char *why,
				 size_t size)
{
	uint64_t count = dynamic->p_filesz / sizeof(Elf64_Dyn), strtab = 0, strsz = 0;

	for (uint64_t first = 0; first < count; first += BATCH) {
		Elf64_Dyn batch[BATCH];
		unsigned n = count - first < BATCH ? (unsigned)(count - first) : BATCH;

		if (!read_exact(src, batch, n * sizeof *batch,
				dynamic->p_offset + first * sizeof *batch))
			return "damaged: its dynamic section cannot be read";
		for (unsigned i = 0; i < n; i++) {
			if (batch[i].d_tag == DT_NULL)
				goto done;
			if (batch[i].d_tag == DT_STRTAB)
				strtab = batch[i].d_un.d_ptr;
			if (batch[i].d_tag == DT_STRSZ)
				strsz = batch[i].d_un.d_val;
			if (is_address_tag(batch[i].d_tag) &&
			    !mapped(loads, load_count, batch[i].d_un.d_ptr, 1)) {
				snprintf(
					why, size,
					"damaged: dynamic entry %lld points to 0x%llx, outside its "
					"loadable segments",
					(long long)batch[i].d_tag,
					(unsigned long long)batch[i].d_un.d_ptr);
				return why;
			}
		}
	}
done:
	if (!strtab)
		return "damaged: no string table in its dynamic section";
	if (!mapped(loads, load_count, strtab, strsz))
		return "damaged: its string table runs past its loadable segments";
	return NULL;
}

const char *cudastub_elf_reject(const struct cudastub_elf_source *src, char *why, size_t size)
{
	Elf64_Ehdr eh;
	Elf64_Phdr loads[CUDASTUB_ELF_MAX_LOADS], dynamic = {0};
	unsigned load_count = 0, have_dynamic = 0;
	const char *name;

	if (src->size == 0)
		return "empty file";
	if (src->size < SELFMAG)
		return "not an ELF file";
	if (!read_exact(src, eh.e_ident, SELFMAG, 0))
		return "unreadable";
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0)
		return "not an ELF file";
	if (src->size < sizeof eh) {
		snprintf(why, size, "truncated: %llu bytes, less than an ELF header",
			 (unsigned long long)src->size);
		return why;
	}
	if (!read_exact(src, &eh, sizeof eh, 0))
		return "unreadable";
	if (eh.e_ident[EI_CLASS] != ELFCLASS64)
		return "wrong architecture: a 32-bit ELF file (this process is 64-bit)";
	if (eh.e_ident[EI_DATA] != ELFDATA2LSB)
		return "wrong architecture: big-endian (this process is little-endian)";
	if (eh.e_machine != OWN_MACHINE) {
		name = machine_name(eh.e_machine);
		if (name)
			snprintf(why, size, "wrong architecture: %s (this process is %s)", name,
				 machine_name(OWN_MACHINE));
		else
			snprintf(why, size,
				 "wrong architecture: ELF machine %u (this process is %s)",
				 eh.e_machine, machine_name(OWN_MACHINE));
		return why;
	}
	if (eh.e_type != ET_DYN) {
		snprintf(why, size, "not a shared library (ELF type %u)", eh.e_type);
		return why;
	}
	if (eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum == 0)
		return "damaged: no usable program headers";
	if (!segment_fits(src, eh.e_phoff, (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr))) {
		snprintf(why, size,
			 "truncated: its program headers end past the end of the file (%llu bytes)",
			 (unsigned long long)src->size);
		return why;
	}
	for (unsigned first = 0; first < eh.e_phnum; first += BATCH) {
		Elf64_Phdr batch[BATCH];
		unsigned n = eh.e_phnum - first < BATCH ? eh.e_phnum - first : BATCH;

		if (!read_exact(src, batch, n * sizeof *batch, eh.e_phoff + first * sizeof *batch))
			return "unreadable";
		for (unsigned i = 0; i < n; i++) {
			const Elf64_Phdr *ph = &batch[i];

			if (ph->p_type != PT_LOAD && ph->p_type != PT_DYNAMIC)
				continue;
			if (!segment_fits(src, ph->p_offset, ph->p_filesz)) {
				snprintf(why, size,
					 "truncated: a %s segment ends at %llu, past the end of "
					 "the file (%llu bytes)",
					 ph->p_type == PT_LOAD ? "loadable" : "dynamic",
					 (unsigned long long)ph->p_offset +
						 (unsigned long long)ph->p_filesz,
					 (unsigned long long)src->size);
				return why;
			}
			if (ph->p_type == PT_DYNAMIC) {
				dynamic = *ph;
				have_dynamic = 1;
			} else if (ph->p_filesz > ph->p_memsz) {
				return "damaged: a loadable segment is larger in the file than "
				       "in memory";
			} else if (load_count == CUDASTUB_ELF_MAX_LOADS) {
				return "damaged: too many loadable segments";
			} else {
				loads[load_count++] = *ph;
			}
		}
	}
	if (!load_count)
		return "damaged: no loadable segment";
	if (!have_dynamic)
		return "damaged: no dynamic section";
	return check_dynamic(src, &dynamic, loads, load_count, why, size);
}

static int read_file(void *ctx, void *buf, size_t n, uint64_t at)
{
	int fd = *(const int *)ctx;
	size_t done = 0;

	while (done < n) {
		ssize_t got =
			cudastub_sys_pread(fd, (char *)buf + done, n - done, (off_t)(at + done));

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return -1;
		done += (size_t)got;
	}
	return 0;
}

/* Why a path that is not a regular file is skipped, for the search log. */
static const char *not_a_library_file(mode_t mode)
{
	if (S_ISDIR(mode))
		return "not a file: a directory";
	if (S_ISFIFO(mode))
		return "a FIFO, not a library file";
	if (S_ISSOCK(mode))
		return "a socket, not a library file";
	if (S_ISCHR(mode))
		return "a character device, not a library file";
	if (S_ISBLK(mode))
		return "a block device, not a library file";
	return "not a regular file";
}

/* Why path could not be stat'ed or opened; sets *absent for a file that
 * is not there. */
static const char *unopenable(int err, int *absent, char *why, size_t size)
{
	switch (err) {
	case ENOENT:
	case ENOTDIR: *absent = 1; return "absent";
	case ENAMETOOLONG: return "name too long for this system";
	case EACCES: return "permission denied";
	case EISDIR: return "not a file: a directory";
	}
	snprintf(why, size, "cannot be opened: %s", strerror(err));
	return why;
}

/*
 * The file's type is asked before it is opened: open() of a FIFO waits for
 * a writer for ever, and open() of a device may act on the device (a tape
 * rewinds, a terminal becomes the controlling one). Only a regular file is
 * opened, and then without blocking and without taking a terminal, in case
 * the name was replaced between the two calls; fstat() then confirms that
 * what was opened is the regular file that was asked about.
 */
const char *cudastub_elf_check_file(const char *path, int *absent, char *why, size_t size)
{
	struct cudastub_elf_source src = {read_file, NULL, 0};
	const char *verdict;
	struct stat named, opened;
	int fd;

	*absent = 0;
	if (cudastub_sys_stat(path, &named) != 0)
		return unopenable(errno, absent, why, size);
	if (!S_ISREG(named.st_mode))
		return not_a_library_file(named.st_mode);
	fd = cudastub_sys_open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return unopenable(errno, absent, why, size);
	if (cudastub_sys_fstat(fd, &opened) != 0) {
		cudastub_sys_close(fd);
		return "unreadable";
	}
	if (!S_ISREG(opened.st_mode)) {
		cudastub_sys_close(fd);
		return not_a_library_file(opened.st_mode);
	}
	if (opened.st_dev != named.st_dev || opened.st_ino != named.st_ino) {
		cudastub_sys_close(fd);
		return "replaced while it was being checked";
	}
	src.ctx = &fd;
	src.size = (uint64_t)opened.st_size;
	verdict = cudastub_elf_reject(&src, why, size);
	cudastub_sys_close(fd);
	return verdict;
}

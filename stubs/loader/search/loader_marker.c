/*
 * The CUDA release a library was built for, read from its own read-only
 * data (spec: cuda_release marker).
 *
 * NCCL's API says its own version and nothing of the CUDA it was built
 * with: ncclGetVersion answers 22809 for NCCL 2.28.9 built for CUDA 12 and
 * for CUDA 13 alike, and the library links its runtime statically, so no
 * DT_NEEDED names one either. Its version banner does: a string constant
 * the build writes into .rodata, "NCCL version 2.28.9+cuda13.0". So the
 * probe reads the "<major>.<minor>" after the marker.
 *
 * Only .rodata is read, by pread from the file the loader mapped (its
 * link_map name): NCCL's is some 200 KiB of a file of 200 MiB that is
 * mostly GPU code, never touched here. The section headers locate it: a
 * few reads of headers, then the section in blocks. A file whose headers
 * do not hold together answers -1, as one without the text does: the
 * candidate is then skipped with the probe's reason.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader_core.h"
#include "loader_sys.h"

enum {
	BLOCK = 4096,	     /* read at a time */
	MAX_SECTIONS = 4096, /* more is no library a linker wrote */
	TAIL = 64	     /* kept between blocks: a marker and its version */
};

static int read_at(int fd, void *buf, size_t n, off_t at)
{
	return cudastub_sys_pread(fd, buf, n, at) == (ssize_t)n ? 0 : -1;
}

/* The offset and size of the section named name in the file fd; 0 when
 * found. */
static int find_section(int fd, off_t file_size, const char *name, off_t *offset, size_t *size)
{
	ElfW(Ehdr) eh;
	ElfW(Shdr) strtab, sh;
	size_t len = strlen(name) + 1;
	char got[32];

	if (len > sizeof got || read_at(fd, &eh, sizeof eh, 0) != 0 ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_shentsize != sizeof sh ||
	    eh.e_shnum == 0 || eh.e_shnum > MAX_SECTIONS || eh.e_shstrndx >= eh.e_shnum ||
	    eh.e_shoff == 0 || (off_t)(eh.e_shoff + (uint64_t)eh.e_shnum * sizeof sh) > file_size ||
	    read_at(fd, &strtab, sizeof strtab,
		    (off_t)(eh.e_shoff + (uint64_t)eh.e_shstrndx * sizeof sh)) != 0)
		return -1;
	for (unsigned i = 1; i < eh.e_shnum; i++) {
		if (read_at(fd, &sh, sizeof sh, (off_t)(eh.e_shoff + (uint64_t)i * sizeof sh)) != 0)
			return -1;
		if (sh.sh_type != SHT_PROGBITS || sh.sh_name >= strtab.sh_size ||
		    sh.sh_name + len > strtab.sh_size ||
		    read_at(fd, got, len, (off_t)(strtab.sh_offset + sh.sh_name)) != 0 ||
		    memcmp(got, name, len) != 0)
			continue;
		if (sh.sh_offset + sh.sh_size > (uint64_t)file_size)
			return -1;
		*offset = (off_t)sh.sh_offset;
		*size = (size_t)sh.sh_size;
		return 0;
	}
	return -1;
}

/* "13.0" at p (up to end) as major and minor: 0, or -1. */
static int parse_version(const char *p, const char *end, int *major, int *minor)
{
	int n[2] = {0, 0};

	for (int k = 0; k < 2; k++) {
		int digits = 0;

		while (p < end && *p >= '0' && *p <= '9' && digits < 3) {
			n[k] = n[k] * 10 + (*p++ - '0');
			digits++;
		}
		if (digits == 0 || digits > 2 || (k == 0 && (p >= end || *p++ != '.')))
			return -1;
	}
	if (n[0] < 1)
		return -1;
	*major = n[0];
	*minor = n[1];
	return 0;
}

/* The first marker in the section followed by a version, read in blocks;
 * the last TAIL bytes of a block are read again with the next, so a marker
 * across two is seen. */
static int scan(int fd, off_t offset, size_t size, const char *marker, int *major, int *minor)
{
	char buf[BLOCK + TAIL];
	size_t mlen = strlen(marker), done = 0;

	if (mlen == 0 || mlen + 8 > TAIL)
		return -1;
	while (done < size) {
		size_t n = size - done < sizeof buf ? size - done : sizeof buf;
		int last = done + n == size;
		/* hits from here on are read again, whole, with the next block */
		size_t limit = last ? n : n - TAIL;
		const char *hit = buf;

		if (read_at(fd, buf, n, offset + (off_t)done) != 0)
			return -1;
		/* the text itself may stand elsewhere without a version (a
		 * format string, or the marker as the caller spells it) */
		while ((hit = memmem(hit, n - (size_t)(hit - buf), marker, mlen)) != NULL &&
		       (size_t)(hit - buf) < limit) {
			if (parse_version(hit + mlen, buf + n, major, minor) == 0)
				return 0;
			hit++;
		}
		if (last)
			break;
		done += n - TAIL;
	}
	return -1;
}

int cudastub_cuda_version_in_file(const char *path, const char *marker, int *major, int *minor)
{
	struct stat st;
	off_t offset;
	size_t size;
	int fd, rc = -1;

	fd = cudastub_sys_open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -1;
	if (cudastub_sys_fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    find_section(fd, st.st_size, ".rodata", &offset, &size) == 0)
		rc = scan(fd, offset, size, marker, major, minor);
	cudastub_sys_close(fd);
	return rc;
}

int cudastub_cuda_version_after_marker(void *handle, const char *marker, int *major, int *minor)
{
	struct link_map *map = NULL;

	if (dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || !map || !map->l_name || !*map->l_name)
		return -1;
	return cudastub_cuda_version_in_file(map->l_name, marker, major, minor);
}

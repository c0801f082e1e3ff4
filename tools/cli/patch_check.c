/*
 * `cudastub patch --check` proves that a patched file loads: each
 * DT_NEEDED entry that names a stub must lead, through the file's own
 * RUNPATH (or RPATH) with $ORIGIN read as the file's folder, to a file the
 * dynamic loader would take (a regular ELF file of the file's class and
 * machine; the first one found, as the loader takes it), and that file
 * must define every version the file needs of it. These are the checks
 * ld.so makes before main: a RUNPATH that leads nowhere (one written from
 * a temporary folder, say) fails here, as an import would.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf_read.h"
#include "patch.h"

/* Whether the entry name names a stub: one's own name, libcudastub.so, or
 * a content name of either. */
static int stub_name(const char *name)
{
	for (int k = 0; k < PATCH_SLOTS; k++) {
		const char *generic = stub_generic(k);

		if (generic && (!strcmp(name, generic) || patch_is_content_name(name, generic)))
			return 1;
	}
	return 0;
}

/* path opened to read if it is a regular ELF file of elf_class and
 * machine; -1 otherwise. Looked at through O_PATH first, so that nothing
 * but a regular file is ever opened (no FIFO waited on, no device). */
static int open_candidate(const char *path, int elf_class, int machine)
{
	char self[64];
	struct stat st;
	int at = open(path, O_PATH | O_CLOEXEC), fd = -1, c, m;

	if (at < 0)
		return -1;
	snprintf(self, sizeof self, "/proc/self/fd/%d", at);
	if (fstat(at, &st) == 0 && S_ISREG(st.st_mode))
		fd = open(self, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	close(at);
	if (fd >= 0 && (elf_identity(fd, &c, &m) != 0 || c != elf_class || m != machine)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* The first file name that runpath (with $ORIGIN as dir) leads to and the
 * dynamic loader would take: its descriptor and path (in found), or -1. */
static int find_through(const char *runpath, const char *dir, const char *name, int elf_class,
			int machine, char *found, size_t size)
{
	char folder[PATH_MAX];

	for (const char *p = runpath; *p; p += strcspn(p, ":"), p += *p == ':') {
		size_t len = strcspn(p, ":");
		int fd;

		if (!len)
			continue;
		patch_expand_origin(p, len, dir, folder, sizeof folder);
		if (snprintf(found, size, "%s/%s", folder, name) >= (int)size)
			continue;
		if ((fd = open_candidate(found, elf_class, machine)) >= 0)
			return fd;
	}
	return -1;
}

/* How many versions the file fd needs of name that stub (at found) does
 * not define, each reported. */
static int versions_missing(const char *path, int fd, const char *name, int stub, const char *found)
{
	char needs[8192], defs[16384], *v, *save = NULL;
	int missing = 0;

	if (elf_version_needs(fd, name, needs, sizeof needs) != 0 ||
	    elf_version_defs(stub, defs, sizeof defs) != 0) {
		cli_line(stdout, "%s: would not load: the symbol versions of %s cannot be read",
			 path, found);
		return 1;
	}
	for (v = strtok_r(needs, "\n", &save); v; v = strtok_r(NULL, "\n", &save))
		if (!plan_needs_name(defs, v)) {
			cli_line(stdout,
				 "%s: would not load: %s defines no version %s, which it needs of "
				 "%s",
				 path, found, v, name);
			missing++;
		}
	return missing;
}

int check_loads(const char *path, int fd, const char *dir, const char *needed, const char *runpath)
{
	char names[16384], found[PATH_MAX + 256], *name, *save = NULL;
	int elf_class, machine, faults = 0;

	if (elf_identity(fd, &elf_class, &machine) != 0)
		return 0; /* no ELF file: nothing it loads */
	snprintf(names, sizeof names, "%s", needed);
	for (name = strtok_r(names, "\n", &save); name; name = strtok_r(NULL, "\n", &save)) {
		int stub;

		if (!stub_name(name))
			continue;
		stub = find_through(runpath, dir, name, elf_class, machine, found, sizeof found);
		if (stub < 0) {
			cli_line(stdout, "%s: would not load: its RUNPATH (%s) leads to no %s",
				 path, *runpath ? runpath : "none", name);
			faults++;
			continue;
		}
		faults += versions_missing(path, fd, name, stub, found);
		close(stub);
	}
	return faults ? -1 : 0;
}

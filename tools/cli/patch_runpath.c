/*
 * Where a RUNPATH leads, as the dynamic loader follows it: each entry with
 * $ORIGIN (or ${ORIGIN}) read as the file's folder, and in the first
 * folder that holds the name, a regular ELF file of the file's class and
 * machine (the loader skips any other). `--check` proves with it that a
 * patched file finds its stubs; the plan, that a file linked to stubs
 * already finds them where they are.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf_read.h"
#include "patch_runpath.h"

void patch_expand_origin(const char *entry, size_t len, const char *dir, char *out, size_t size)
{
	if (len >= 7 && !strncmp(entry, "$ORIGIN", 7))
		snprintf(out, size, "%s%.*s", dir, (int)(len - 7), entry + 7);
	else if (len >= 9 && !strncmp(entry, "${ORIGIN}", 9))
		snprintf(out, size, "%s%.*s", dir, (int)(len - 9), entry + 9);
	else
		snprintf(out, size, "%.*s", (int)len, entry);
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

int runpath_find(const char *runpath, const char *dir, const char *name, int elf_class, int machine,
		 char *found, size_t size)
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

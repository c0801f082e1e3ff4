/*
 * What `cudastub patch` asks of patchelf: read a file's DT_NEEDED entries
 * and RUNPATH (for the files elf_dynamic.c cannot read), replace entries,
 * set the RUNPATH or the SONAME. patchelf opens files by name, so it is
 * only ever given /proc/self/fd/3/<name>: a name in a private folder
 * (private_folder.c) reached through the folder's descriptor, or a file's
 * own descriptor, which no one else can redirect.
 *
 * Debian 12's patchelf 0.14 corrupts a file given several --replace-needed
 * and --set-rpath at once, so the RUNPATH is a call of its own; the
 * entries are replaced in one call, since each call reads and writes the
 * whole file (MAGMA's 447 MB library: 24.5 s one entry a call, 11.3 s in
 * one, the same entries and version needs read back).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "patch_fs.h"
#include "patch_run.h"
#include "patchelf.h"

const char *patchelf_find(void)
{
	static char found[4096];
	const char *path = getenv("PATH");
	char dirs[8192], *dir, *save = NULL;

	if (found[0])
		return found;
	snprintf(dirs, sizeof dirs, "%s", path ? path : "/usr/bin:/bin");
	for (dir = strtok_r(dirs, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		snprintf(found, sizeof found, "%s/patchelf", *dir ? dir : ".");
		if (access(found, X_OK) == 0)
			return found;
	}
	found[0] = '\0';
	return NULL;
}

/* Runs patchelf with args, the last of them the file: name in the folder
 * dir, or with name NULL the open file dir itself. */
static int run(char **args, int n, int dir, const char *name, char *out, size_t size, char *why,
	       size_t wsize)
{
	char *argv[8 + 3 * CUDASTUB_LIB_COUNT], file[300];
	int count = 0;

	if (!patchelf_find() || !fs_child_path(name, file, sizeof file) ||
	    n + 3 > (int)(sizeof argv / sizeof *argv)) {
		if (why)
			snprintf(why, wsize, "patchelf not found, or a name too long");
		return -1;
	}
	argv[count++] = (char *)patchelf_find();
	for (int i = 0; i < n; i++)
		argv[count++] = args[i];
	argv[count++] = file;
	argv[count] = NULL;
	return run_program(argv, dir, out, size, why, wsize);
}

int patchelf_needed(int fd, char *out, size_t size)
{
	char *args[] = {"--print-needed"};

	return run(args, 1, fd, NULL, out, size, NULL, 0);
}

int patchelf_runpath(int fd, char *out, size_t size)
{
	char *args[] = {"--print-rpath"};

	return run(args, 1, fd, NULL, out, size, NULL, 0);
}

int patchelf_replace_needed(int dir, const char *name, const char *const *from,
			    const char *const *to, int count, char *why, size_t wsize)
{
	char *args[3 * CUDASTUB_LIB_COUNT + 3];
	int n = 0;

	if (count < 1 || count > CUDASTUB_LIB_COUNT + 1)
		return -1;
	for (int i = 0; i < count; i++) {
		args[n++] = "--replace-needed";
		args[n++] = (char *)from[i];
		args[n++] = (char *)to[i];
	}
	return run(args, n, dir, name, NULL, 0, why, wsize);
}

int patchelf_set_runpath(int dir, const char *name, const char *runpath, char *why, size_t wsize)
{
	char *args[] = {"--set-rpath", (char *)runpath};

	return run(args, 2, dir, name, NULL, 0, why, wsize);
}

int patchelf_set_soname(int dir, const char *name, const char *soname, char *why, size_t wsize)
{
	char *args[] = {"--set-soname", (char *)soname};

	return run(args, 2, dir, name, NULL, 0, why, wsize);
}

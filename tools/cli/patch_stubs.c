/*
 * The stubs `cudastub patch` copies into a tree: those this command links
 * (found where the dynamic loader loaded them), and libcudastub.so, every
 * stub in one file, from beside them. Whether a stub folder holds one
 * already is read through descriptors, never following a link in it: a
 * link planted at a stub's name is no stub, and is replaced.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "patch.h"
#include "patch_fs.h"

const char *stub_generic(int k)
{
	return k == COMBINED_SLOT ? COMBINED_NAME : cli_known_libraries[k].stub;
}

/* The file of the stub this command links for library k, or NULL: the
 * object its info lives in. */
static const char *linked_stub(int k)
{
	static char paths[PATCH_KINDS][PATH_MAX];
	const cudastub_library_info *info;
	Dl_info where;

	if (!cli_known_libraries[k].name || !(info = cudastub_info((cudastub_lib)k)))
		return NULL;
	if (paths[k][0])
		return paths[k];
	if (!dladdr((const void *)info, &where) || !where.dli_fname ||
	    !realpath(where.dli_fname, paths[k]))
		return NULL;
	return paths[k];
}

/* libcudastub.so of the build whose stubs this command links, or NULL:
 * the one beside them (installed, lib/), else, while they are the build
 * tree's own, the one that build made (stubs/, a folder above theirs).
 * No other folder is looked in: a file found there would be copied into
 * the patched tree. */
static const char *combined_file(void)
{
	static char path[PATH_MAX];
	const char *stub = NULL, *slash;

	for (int k = 0; k < PATCH_KINDS && !stub; k++)
		stub = linked_stub(k);
	if (!stub || !(slash = strrchr(stub, '/')))
		return NULL;
	if (snprintf(path, sizeof path, "%.*s/%s", (int)(slash - stub), stub, COMBINED_NAME) <
		    (int)sizeof path &&
	    access(path, R_OK) == 0)
		return path;
#ifdef CUDASTUB_CLI_BUILT_COMBINED
	/* realpath'd like the stub's path (linked_stub) */
	if (realpath(CUDASTUB_CLI_BUILD_DIR, path) && !strncmp(stub, path, strlen(path)) &&
	    stub[strlen(path)] == '/' && access(CUDASTUB_CLI_BUILT_COMBINED, R_OK) == 0)
		return CUDASTUB_CLI_BUILT_COMBINED;
#endif
	return NULL;
}

const char *stub_source(int k)
{
	return k == COMBINED_SLOT ? combined_file() : linked_stub(k);
}

int stub_open_source(const char *source, struct stat *st)
{
	char folder[PATH_MAX];
	const char *slash = strrchr(source, '/');
	size_t len = slash ? (size_t)(slash - source) : 0;
	int dir, fd;

	if (!slash || snprintf(folder, sizeof folder, "%.*s", (int)(len ? len : 1), source) >=
			      (int)sizeof folder) {
		errno = EINVAL;
		return -1;
	}
	if ((dir = fs_open_folder(folder, 0)) < 0)
		return -1;
	fd = fs_open_regular(dir, slash + 1, st);
	close(dir);
	return fd;
}

int stub_present_at(int dir, int k, const char *name, const char *source)
{
	struct stat st;
	int there = fs_open_regular(dir, name, &st), from, same;

	if (there < 0)
		return 0;
	if (strcmp(name, stub_generic(k))) {
		close(there);
		return 1;
	}
	from = stub_open_source(source, &st);
	same = from >= 0 && fs_same_bytes(from, there);
	if (from >= 0)
		close(from);
	close(there);
	return same;
}

int stub_present(const char *stub_dir, int k, const char *name, const char *source)
{
	int dir = fs_open_folder(stub_dir, 0), present;

	if (dir < 0)
		return 0;
	present = stub_present_at(dir, k, name, source);
	close(dir);
	return present;
}

/*
 * The stubs `cudastub patch` copies into a tree: this cudastub's, of the
 * CUDA ABI a file needs (stub_files.c finds them), and libcudastub_cu<major>,
 * every stub of that ABI in one file. Whether a stub folder holds one
 * already is read through descriptors, never following a link in it: a
 * link planted at a stub's name is no stub, and is replaced.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "patch_fs.h"
#include "patch_names.h"
#include "patch_stubs.h"

const char *stub_source(int k, int abi, char *out, size_t size)
{
	return k == COMBINED_SLOT ? cli_combined_file(abi, out, size)
				  : cli_stub_file(k, abi, out, size);
}

const char *stub_file_name(const char *source)
{
	const char *slash = strrchr(source, '/');

	return slash ? slash + 1 : source;
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

int stub_same_as_source(int there, const char *source)
{
	struct stat st;
	int from = stub_open_source(source, &st), same;

	same = from >= 0 && fs_same_bytes(from, there);
	if (from >= 0)
		close(from);
	close(there);
	return same;
}

int stub_present_at(int dir, const char *name, const char *source)
{
	struct stat st;
	int there = fs_open_regular(dir, name, &st);

	/* the same name is the same build's stub; the bytes say it was not
	 * changed since */
	return there >= 0 && stub_same_as_source(there, source);
}

int stub_present(const char *stub_dir, const char *name, const char *source)
{
	int dir = fs_open_folder(stub_dir, 0), present;

	if (dir < 0)
		return 0;
	present = stub_present_at(dir, name, source);
	close(dir);
	return present;
}

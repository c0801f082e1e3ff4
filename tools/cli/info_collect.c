/*
 * The info report's data: each stub's info, copied with what it keeps as
 * data escaped, and the stub file that answered. The stubs are the ones
 * this command links (cli_collect) or a stub file given by --stub
 * (info_stub.c); both end in cli_fill.
 */
#define _GNU_SOURCE
#include "cli.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Points l's info at escaped copies of what the stub keeps as data, as it
 * came from outside: the path loaded and each attempt's path. Its messages
 * the stub escaped itself; own_version it wrote from numbers. Whatever
 * cannot be copied is left out, never shown raw. */
static void escape_data(struct cli_library *l)
{
	cudastub_library_info *info = &l->info;
	unsigned count = info->attempts ? info->attempt_count : 0;

	l->path = info->path ? cli_escaped(info->path) : NULL;
	info->path = l->path;
	l->attempts = count ? calloc(count, sizeof *l->attempts) : NULL;
	if (!l->attempts) {
		info->attempts_dropped += count;
		count = 0;
	}
	for (unsigned i = 0; i < count; i++) {
		const char *path = info->attempts[i].path;

		l->attempts[i] = info->attempts[i];
		l->attempts[i].path = path ? cli_escaped(path) : NULL;
	}
	info->attempts = l->attempts;
	info->attempt_count = count;
}

void cli_release(struct cli_library *libs, int count)
{
	for (int i = 0; i < count; i++) {
		for (unsigned a = 0; libs[i].attempts && a < libs[i].info.attempt_count; a++)
			free((char *)libs[i].attempts[a].path);
		free(libs[i].attempts);
		free(libs[i].path);
		free(libs[i].stub_path);
	}
}

void cli_fill(struct cli_library *l, int lib, const cudastub_library_info *info)
{
	Dl_info where;

	memset(l, 0, sizeof *l);
	l->name = cli_known_libraries[lib].name;
	l->env_path = cli_known_libraries[lib].env_path;
	l->release_aware = cli_known_libraries[lib].release_aware;
	if (!info) {
		l->info.name = l->name;
		l->info.state = CUDASTUB_STATE_NOT_LINKED;
		l->info.error = "this cudastub has no such stub";
		return;
	}
	l->info = *info;
	if (!l->info.name)
		l->info.name = l->name;
	escape_data(l);
	/* the info lives in the stub's own data: its file is the stub's */
	if (dladdr(info, &where) && where.dli_fname && *where.dli_fname)
		l->stub_path = cli_escaped(where.dli_fname);
}

/* The info of library lib's stub for abi, after its search when load is
 * set; NULL when this cudastub has no such stub (*why says so). */
static const cudastub_library_info *stub_info(int lib, int abi, int load, const char **why)
{
	const cudastub_library_info *(*info)(void);
	cudastub_state (*search)(void);
	char path[4096];
	void *handle;

	*why = "this cudastub has no stub of this library for that CUDA ABI";
	if (!cli_stub_file(lib, abi, path, sizeof path))
		return NULL;
	/* kept open: a stub never unloads what it loaded, nor is it unloaded */
	if (!(handle = cli_open_stub(path, why)))
		return NULL;
	if (cli_stub_entry_points(handle, lib, &info, &search) != 0) {
		*why = "the stub file defines no entry points of its library";
		return NULL;
	}
	if (load)
		search();
	return info();
}

int cli_collect(struct cli_library *libs, cli_library_set wanted, int load, int abi)
{
	int n = 0;

	for (int i = 0; i < CUDASTUB_LIB_COUNT; i++) {
		const cudastub_library_info *info;
		const char *why;

		if (!cli_known_libraries[i].name)
			continue; /* a hole */
		if (wanted && !(wanted & 1u << i))
			continue;
		/* loading only what was asked for: each search costs dlopen()s */
		info = stub_info(i, abi, load, &why);
		cli_fill(&libs[n], i, info);
		if (!info)
			libs[n].info.error = why;
		n++;
	}
	return n;
}

int cli_library_by_name(const char *name)
{
	/* the CMake target's word for the driver: cudastub::cuda_driver */
	if (!strcasecmp(name, "cuda_driver"))
		return CUDASTUB_LIB_CUDA;
	for (int i = 0; i < CUDASTUB_LIB_COUNT; i++)
		if (cli_known_libraries[i].name && !strcasecmp(name, cli_known_libraries[i].name))
			return i;
	return -1;
}

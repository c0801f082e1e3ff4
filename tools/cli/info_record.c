/*
 * One library's record in the info report: a stub's info copied, with
 * what the stub keeps as data escaped, and the stub file that answered;
 * and its release. Filled for the stubs the command finds
 * (info_collect.c) and for a stub file given by --stub (info_stub.c).
 */
#define _GNU_SOURCE
#include "cli.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

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

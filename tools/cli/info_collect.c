/*
 * The info report's data: each stub's info, copied with what it keeps as
 * data escaped, and the stub file that answered. The stubs are the ones
 * this command links (cli_collect) or a stub file given by --stub
 * (info_stub.c); both fill their records with cli_fill (info_record.c).
 */
#define _GNU_SOURCE
#include "cli.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

/*
 * Where this cudastub's stubs are: the files of every library for every
 * CUDA ABI (their names: the generated table, cli_known_libraries), in the
 * one folder that holds them. Installed, that is lib/ beside the
 * command's bin/ (bin/../lib: a prefix, a wheel's package folder); in the
 * build tree, the build's lib/ (CUDASTUB_CLI_BUILD_LIB_DIR), taken only
 * while the command that runs is that build's own, so that a copy of the
 * command elsewhere never reaches into a build tree.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* The folder of the running command, in buf; NULL when unknown. */
static const char *command_folder(char *buf, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);
	char *slash;

	if (n <= 0 || (size_t)n >= size - 1)
		return NULL;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	return buf;
}

/* Whether folder holds file. */
static int holds(const char *folder, const char *file)
{
	char path[PATH_MAX];

	return snprintf(path, sizeof path, "%s/%s", folder, file) < (int)sizeof path &&
	       access(path, R_OK) == 0;
}

const char *cli_stub_folder(void)
{
	static char folder[PATH_MAX];
	static int done;
	char exe[PATH_MAX], lib[PATH_MAX];
	const char *probe = NULL;

	if (done)
		return folder[0] ? folder : NULL;
	done = 1;
	/* any stub file of this build tells the folder is this cudastub's */
	for (int i = 0; i < CUDASTUB_LIB_COUNT && !probe; i++)
		if (cli_known_libraries[i].name && cli_known_libraries[i].stubs[0].name)
			probe = cli_known_libraries[i].stubs[0].name;
	if (!probe || !command_folder(exe, sizeof exe))
		return NULL;
	if (snprintf(lib, sizeof lib, "%s/../lib", exe) < (int)sizeof lib && holds(lib, probe) &&
	    realpath(lib, folder))
		return folder;
#ifdef CUDASTUB_CLI_BUILD_DIR
	{
		char build[PATH_MAX];

		if (realpath(CUDASTUB_CLI_BUILD_DIR, build) &&
		    !strncmp(exe, build, strlen(build)) && exe[strlen(build)] == '/' &&
		    holds(CUDASTUB_CLI_BUILD_LIB_DIR, probe) &&
		    realpath(CUDASTUB_CLI_BUILD_LIB_DIR, folder))
			return folder;
	}
#endif
	folder[0] = '\0';
	return NULL;
}

/* The file name of library lib's stub for abi, or NULL. */
static const char *stub_name(int lib, int abi)
{
	for (const struct cli_soname *s = cli_known_libraries[lib].stubs; s && s->name; s++)
		if (s->major == abi)
			return s->name;
	return NULL;
}

const char *cli_stub_file(int lib, int abi, char *out, size_t size)
{
	const char *folder = cli_stub_folder(), *name = stub_name(lib, abi);

	if (!folder || !name || snprintf(out, size, "%s/%s", folder, name) >= (int)size ||
	    access(out, R_OK) != 0)
		return NULL;
	return out;
}

const char *cli_combined_file(int abi, char *out, size_t size)
{
	const char *folder = cli_stub_folder();

	for (const struct cli_soname *c = cli_combined_files; folder && c->name; c++)
		if (c->major == abi && snprintf(out, size, "%s/%s", folder, c->name) < (int)size &&
		    access(out, R_OK) == 0)
			return out;
	return NULL;
}

/* Whether some library's stub of abi is there. */
static int abi_present(int abi)
{
	char path[PATH_MAX];

	for (int i = 0; i < CUDASTUB_LIB_COUNT; i++)
		if (cli_known_libraries[i].name && cli_stub_file(i, abi, path, sizeof path))
			return 1;
	return 0;
}

int cli_stub_abis(int *abis, int max)
{
	int n = 0;

	/* every major the table names, newest first, that is there */
	for (int i = 0; i < CUDASTUB_LIB_COUNT; i++) {
		for (const struct cli_soname *s = cli_known_libraries[i].stubs; s && s->name; s++) {
			int seen = 0, at = n;

			for (int j = 0; j < n; j++)
				seen |= abis[j] == s->major;
			if (seen || n == max || !abi_present(s->major))
				continue;
			while (at > 0 && abis[at - 1] < s->major) {
				abis[at] = abis[at - 1];
				at--;
			}
			abis[at] = s->major;
			n++;
		}
	}
	return n;
}

/*
 * The command line of `cudastub patch`: its options (each one that takes a
 * value also as --opt=value), the paths to patch, and the stub folder as
 * an absolute real path, worked out even where the folder does not exist
 * yet: --dry-run and --check print the plan for a folder a real run would
 * create, and change nothing, the folder included. A real run makes it
 * when a stub first goes there, one folder at a time, never through a
 * link (patch_fs.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "patch_args.h"
#include "patch_fs.h"
#include "patch_types.h"

/* argv[*i] as the option name given (followed by its value, or
 * name=value): the value, with *i moved past it; NULL when argv[*i] is
 * not that option. *missing is set when it is, with no value. */
static const char *option_value(int argc, char **argv, int *i, const char *name, int *missing)
{
	size_t len = strlen(name);

	if (strncmp(argv[*i], name, len))
		return NULL;
	if (argv[*i][len] == '=' && argv[*i][len + 1])
		return argv[*i] + len + 1;
	if (argv[*i][len] == '=') { /* "--stub-dir=": no folder either */
		*missing = 1;
		return NULL;
	}
	if (argv[*i][len])
		return NULL; /* a longer option's name */
	if (*i + 1 < argc)
		return argv[++*i];
	*missing = 1;
	return NULL;
}

int patch_parse(int argc, char **argv, struct patch_options *o)
{
	int missing = 0;
	const char *value;

	o->paths = calloc((size_t)argc, sizeof *o->paths);
	if (!o->paths)
		return -1;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--dry-run")) {
			o->dry_run = 1;
		} else if (!strcmp(argv[i], "--check")) {
			o->check = 1;
		} else if (!strcmp(argv[i], "--strict")) {
			o->strict = 1;
		} else if (!strcmp(argv[i], "--unique-names")) {
			o->unique_names = 1;
		} else if (!strcmp(argv[i], "--combined")) {
			o->combined = 1;
		} else if ((value = option_value(argc, argv, &i, "--stub-dir", &missing))) {
			o->stub_dir = value;
		} else if (missing) {
			cli_line(stderr, "cudastub patch: %s needs a folder", argv[i]);
			return -1;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			o->help = 1;
		} else if (argv[i][0] == '-') {
			cli_line(stderr, "cudastub patch: unknown option '%s'", argv[i]);
			return -1;
		} else {
			o->paths[o->path_count++] = argv[i];
		}
	}
	return 0;
}

_Static_assert(sizeof((struct patch_options *)0)->stub_real == PATH_MAX, "realpath's size");

int patch_stub_folder(struct patch_options *o)
{
	if (!o->stub_dir)
		return 0;
	if (fs_real_path_to_be(o->stub_dir, o->stub_real) != 0) {
		cli_line(stderr, "cudastub patch: %s: %s", o->stub_dir, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * cudastub info [--json]: make every stub this command links run its
 * search now, then report what each found. The report is the answer, so
 * the exit status is 0 whether or not anything was found.
 */
#include "cli.h"

#include <stdio.h>
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
	}
}

int cli_collect(struct cli_library *libs, int load)
{
	int n = 0;

	for (int i = 0; i < CUDASTUB_LIB_COUNT; i++) {
		const cudastub_library_info *info;
		struct cli_library *l = &libs[n];

		if (!cli_known_libraries[i].name)
			continue; /* a hole */
		n++;
		memset(l, 0, sizeof *l);
		l->name = cli_known_libraries[i].name;
		l->env_path = cli_known_libraries[i].env_path;
		l->release_aware = cli_known_libraries[i].release_aware;
		if (load)
			cudastub_load((cudastub_lib)i);
		info = cudastub_info((cudastub_lib)i);
		if (!info) {
			l->info.name = l->name;
			l->info.state = CUDASTUB_STATE_NOT_LINKED;
			l->info.error = "this cudastub command was built without this stub";
			continue;
		}
		l->info = *info;
		if (!l->info.name)
			l->info.name = l->name;
		escape_data(l);
	}
	return n;
}

static void info_usage(FILE *out)
{
	fputs("Usage: cudastub info [--json]\n"
	      "\n"
	      "Loads the library behind every stub this command links, the way the\n"
	      "first call of a program would, and reports for each: its state, the\n"
	      "version and path loaded, the search step that found it, the ABI the\n"
	      "stub was built for, and every candidate the search tried.\n"
	      "\n"
	      "  --json      print the report as a JSON object\n"
	      "  -h, --help  show this help and exit\n",
	      out);
}

int cli_info(int argc, char **argv)
{
	struct cli_library libs[CUDASTUB_LIB_COUNT];
	int json = 0, count;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			json = 1;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			info_usage(stdout);
			return 0;
		} else {
			cli_line(stderr, "cudastub info: unknown argument '%s'", argv[i]);
			fputc('\n', stderr);
			info_usage(stderr);
			return CLI_EXIT_USAGE;
		}
	}
	count = cli_collect(libs, 1);
	if (json)
		cli_info_json(stdout, libs, count);
	else
		cli_info_text(stdout, libs, count);
	cli_release(libs, count);
	return 0;
}

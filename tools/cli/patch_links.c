/*
 * Symbolic links, and a file reached twice. A link named on the command
 * line stands for its target: the target is patched (in place, so the link
 * keeps pointing at it) and the link is kept. In a folder walk a link is
 * reported, never followed: its target, when it lies in a folder given, is
 * patched where the walk meets it as a file, so nothing is patched twice;
 * one outside is left alone, since the walk was asked for those folders.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "patch_links.h"
#include "patch_types.h"

int patch_resolve_paths(struct patch_options *o)
{
	o->reals = calloc((size_t)o->path_count + 1, sizeof *o->reals);
	o->is_dir = calloc((size_t)o->path_count + 1, sizeof *o->is_dir);
	if (!o->reals || !o->is_dir)
		return -1;
	for (int i = 0; i < o->path_count; i++) {
		struct stat st;

		o->reals[i] = realpath(o->paths[i], NULL); /* NULL: reported as it is met */
		o->is_dir[i] = o->reals[i] && stat(o->reals[i], &st) == 0 && S_ISDIR(st.st_mode);
	}
	return 0;
}

void patch_release_paths(struct patch_options *o)
{
	for (int i = 0; o->reals && i < o->path_count; i++)
		free(o->reals[i]);
	free(o->reals);
	free(o->is_dir);
}

const char *patch_dealt_with_by(const struct patch_options *o, const char *real, int before)
{
	for (int j = 0; j < o->path_count; j++) {
		size_t len = o->reals[j] ? strlen(o->reals[j]) : 0;

		if (!len)
			continue;
		if (o->is_dir[j] && !strncmp(real, o->reals[j], len) &&
		    (real[len] == '/' || len == 1))
			return o->paths[j]; /* a folder given holds it */
		if (!o->is_dir[j] && j < before && !strcmp(real, o->reals[j]))
			return o->paths[j]; /* an earlier file given is it */
	}
	return NULL;
}

void patch_link_met(struct patch_options *o, const char *link)
{
	char *real = realpath(link, NULL);
	const char *by = real ? patch_dealt_with_by(o, real, o->path_count) : NULL;

	if (!real)
		cli_line(stdout, "%s: a symbolic link to nothing; left alone", link);
	else if (by)
		cli_line(stdout,
			 "%s: a symbolic link to %s, dealt with as itself; the link is kept", link,
			 real);
	else
		cli_line(stdout,
			 "%s: a symbolic link to %s, outside the folders given; left alone (name "
			 "the link to patch its target)",
			 link, real);
	free(real);
}

/*
 * A folder given (or a wheel unpacked): every regular file under it is
 * patched where the walk meets it (patch_walk.c: through descriptors,
 * never following a link), each symbolic link is reported, and each
 * private folder (private_folder.c) is a leftover or another run's work.
 *
 * A leftover is what a run killed halfway leaves: a private folder
 * holding a copy that never replaced anything. --check reports every one
 * and fails, since the tree is not as a finished run leaves it; a run
 * removes those a run of this user left (its own kind: this user's, mode
 * 0700, only folders and regular files of this user in it) and says so,
 * and leaves any other alone, naming it. A private folder still locked
 * is a run at work, and is passed over.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "patch_file.h"
#include "patch_links.h"
#include "patch_tree.h"
#include "patch_types.h"
#include "patch_walk.h"
#include "private_folder.h"

void patch_leftover(struct patch_options *o, int dir, const char *name, const char *path)
{
	enum leftover kind = private_leftover(dir, name);

	if (kind == LEFTOVER_IN_USE)
		return;
	if (o->check || o->dry_run) {
		cli_line(stdout, "%s: left by a cudastub patch that was stopped; %s", path,
			 kind == LEFTOVER_OURS ? "a run of this user removes it"
					       : "not this user's: remove it by hand");
		if (o->check)
			o->errors++;
		return;
	}
	if (kind == LEFTOVER_FOREIGN)
		cli_line(stdout,
			 "%s: left by a cudastub patch that was stopped, not this user's; "
			 "left alone: remove it by hand",
			 path);
	else if (private_remove_leftover(dir, name) == 0)
		cli_line(stdout, "%s: removed, left by a cudastub patch that was stopped", path);
	else if (errno != EWOULDBLOCK) /* in use after all: a run at work */
		cli_line(stderr, "cudastub patch: %s: cannot remove this leftover: %s", path,
			 strerror(errno));
}

static void visit(void *ctx, enum walk_kind kind, const struct walk_entry *e)
{
	struct patch_options *o = ctx;
	struct patch_target t = {e->dir, e->name, e->path, 0};

	switch (kind) {
	case WALK_FILE: patch_file(o, &t); break;
	case WALK_LINK: patch_link_met(o, e->path); break;
	case WALK_PRIVATE: patch_leftover(o, e->dir, e->name, e->path); break;
	case WALK_ERROR:
		cli_line(stderr, "cudastub patch: %s: cannot read this folder: %s", e->path,
			 strerror(e->err));
		o->errors++;
		break;
	}
}

void patch_tree(struct patch_options *o, int root, const char *path)
{
	walk_tree(root, path, o->in_private, visit, o);
}

/*
 * Folder walks that never follow a link (patch_walk.c).
 */
#ifndef CUDASTUB_CLI_PATCH_WALK_H
#define CUDASTUB_CLI_PATCH_WALK_H

#include <sys/stat.h>

/* What a walk meets. */
enum walk_kind {
	WALK_FILE,    /* a regular file */
	WALK_LINK,    /* a symbolic link: reported, never followed */
	WALK_PRIVATE, /* a folder named as a private folder: not entered */
	WALK_ERROR,   /* a folder that could not be read (err) */
};
struct walk_entry {
	int dir;	  /* the folder that holds it */
	const char *name; /* its name there */
	const char *path; /* as the output names it */
	struct stat st;	  /* its lstat */
	int err;	  /* WALK_ERROR: errno */
};
typedef void (*walk_visit)(void *ctx, enum walk_kind kind, const struct walk_entry *e);
/* Walks the folder root (path: as the output names it), depth first, each
 * folder's names in byte order, read in full before any is visited (so a
 * file renamed over while its folder is walked is met once), never
 * through a link. With enter_private, folders named as private folders
 * are walked as any other (a tree a private folder holds). */
void walk_tree(int root, const char *path, int enter_private, walk_visit visit, void *ctx);

#endif

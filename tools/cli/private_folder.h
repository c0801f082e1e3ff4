/*
 * Private folders: where a patched copy is made (private_folder.c;
 * patch_fs.h says why through descriptors).
 */
#ifndef CUDASTUB_CLI_PRIVATE_FOLDER_H
#define CUDASTUB_CLI_PRIVATE_FOLDER_H

/* A private folder: made with a fresh random name (".cudastub-" and six
 * letters or digits) inside the folder parent, mode 0700, checked after
 * opening to be the one made (this user's, 0700, empty), and locked
 * (flock) for as long as it is used, so that another run can tell it in
 * use from one a killed run left. Inside it no one else can create,
 * rename or link anything, and it lies on the file system of the file it
 * replaces, so a rename out of it is atomic. While it is made, parent is
 * locked shared (a run taking a leftover locks it exclusively first),
 * unless the caller holds an exclusive lock on parent (parent_locked). */
struct private_folder {
	int parent, fd;
	char name[32];
};
int private_make(int parent, int parent_locked, struct private_folder *pf);
/* Removes the folder and all it holds; keeps errno. */
void private_remove(struct private_folder *pf);
/* Whether name is a private folder's. */
int private_is_name(const char *name);
/* What a folder named as a private folder is. */
enum leftover {
	LEFTOVER_IN_USE,  /* locked: a run is using it */
	LEFTOVER_OURS,	  /* left by a run of this user: this user's, 0700, only
			     folders and regular files of this user in it */
	LEFTOVER_FOREIGN, /* anything else */
};
enum leftover private_leftover(int parent, const char *name);
/* Removes the leftover name (of this user's kind, checked again under its
 * lock); 0, or -1 with errno. */
int private_remove_leftover(int parent, const char *name);

#endif

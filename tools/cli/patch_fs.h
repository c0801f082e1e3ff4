/*
 * The file system as `cudastub patch` touches it: through descriptors,
 * never through a name someone else can change between two steps. The
 * trees it patches may belong to another user, who can rename, replace or
 * link any name in them at any moment, while the command may run as root.
 * So every folder is opened one component at a time without following a
 * link, every file relative to its folder's descriptor without following a
 * link, and every later step (read, lock, copy, owner, mode, rename) is
 * made on those descriptors.
 *
 *   patch_fs.c       folders and files opened so, copies, comparisons
 *   patch_private.c  private folders: where a patched copy is made
 *   patch_walk.c     folder walks
 *   patch_run.c      the programs the command runs (patchelf, Python)
 */
#ifndef CUDASTUB_CLI_PATCH_FS_H
#define CUDASTUB_CLI_PATCH_FS_H

#include <dirent.h>
#include <stddef.h>
#include <sys/stat.h>

/* ---- patch_fs.c ---- */

/* The folder at the absolute path real, opened one component at a time,
 * none through a link; with make, a missing one is made (mode 0755). A
 * descriptor (close-on-exec), or -1 with errno. */
int fs_open_folder(const char *real, int make);
/* The regular file name in the folder dir, opened to read without
 * following a link and without blocking, st its fstat; -1 with errno
 * (ELOOP: a link; EINVAL: no regular file). */
int fs_open_regular(int dir, const char *name, struct stat *st);
/* Copies every byte of in, from its start, to out; 0, or -1 with errno. */
int fs_copy(int in, int out);
/* Whether a and b hold the same bytes. */
int fs_same_bytes(int a, int b);
/* The entries of the folder dir, read from its start through a copy of
 * its descriptor (closedir closes the copy, not dir); NULL with errno. */
DIR *fs_read_folder(int dir);
/* flock(fd, how), again after a signal; 0 also where the file system
 * has no such lock (then the lock is not there: a rename is still
 * atomic, and each copy private), or -1 with errno (EWOULDBLOCK). */
int fs_lock(int fd, int how);
/* fsync, again after an interrupting signal; 0 or -1 with errno. */
int fs_sync(int fd);
/* The real path of path in out (PATH_MAX bytes), its missing last parts
 * appended as they are written (each "a/b/" of a folder not yet made); 0,
 * or -1 with errno. */
int fs_real_path_to_be(const char *path, char *out);
/* The path the kernel knows the folder dir by now, in out; 0, or -1. */
int fs_folder_path(int dir, char *out, size_t size);
/* Whether /proc/self/fd names this process's descriptors: the only way
 * to hand another program a file by a name no one else can change. */
int fs_proc_usable(void);
/* "/proc/self/fd/<CHILD_FD>/<name>", or with name NULL the descriptor
 * itself: the name under which a program run with run_program's fd (as
 * its descriptor CHILD_FD) sees a file of that folder. */
enum { CHILD_FD = 3 };
const char *fs_child_path(const char *name, char *buf, size_t size);

/* ---- patch_private.c ---- */

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

/* ---- patch_walk.c ---- */

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

/* ---- patch_run.c ---- */

/* Runs argv (argv[0] a path, or a name looked up on PATH), with stdin
 * /dev/null, stdout into out and stderr into err (each NULL: discarded;
 * trailing newlines cut), and the folder fd (unless -1) as its descriptor
 * CHILD_FD. stdio is flushed first, so nothing buffered is written twice.
 * 0 when it exited 0; -1 otherwise, with a line saying why in err (or
 * errno, when it could not start). */
int run_program(char *const *argv, int fd, char *out, size_t osize, char *err, size_t esize);

#endif

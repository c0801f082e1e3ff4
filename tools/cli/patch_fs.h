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
 *   private_folder.c private folders: where a patched copy is made
 *   patch_walk.c     folder walks
 *   patch_run.c      the programs the command runs (patchelf, Python)
 *
 * each declaring what it defines in a header of its own name.
 */
#ifndef CUDASTUB_CLI_PATCH_FS_H
#define CUDASTUB_CLI_PATCH_FS_H

#include <dirent.h>
#include <stddef.h>
#include <sys/stat.h>

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

#endif

/*
 * Private folders (patch_fs.h): where `cudastub patch` makes each patched
 * copy, each stub copy and each unpacked wheel, beside what it replaces.
 *
 * Why a folder and not a temporary file: patchelf opens files by name, and
 * the folder of the file may belong to someone who renames names in it at
 * will. A folder only this user can write, reached through an open
 * descriptor (/proc/self/fd/N/<name>), is a place where a name means what
 * it meant when it was made. It is made in the target's own folder, on the
 * same file system, so the copy is renamed over the original atomically
 * and no second copy of a large library is needed elsewhere.
 *
 * Its lock (flock, held while it is used and dropped by the kernel when a
 * run is killed) tells a folder in use from one a killed run left: a later
 * run removes the leftovers of its own kind, and `--check` reports every
 * one.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "patch_fs.h"
#include "private_folder.h"

static const char prefix[] = ".cudastub-";
static const char letters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
enum { RANDOM_LETTERS = 6, MAX_DEPTH = 64, MAX_TRIES = 64 };

int private_is_name(const char *name)
{
	size_t len = sizeof prefix - 1;

	if (strncmp(name, prefix, len) || strlen(name) != len + RANDOM_LETTERS)
		return 0;
	return strspn(name + len, letters) == RANDOM_LETTERS;
}

/* A fresh name in out (32 bytes); 0, or -1 with errno. */
static int random_name(char *out)
{
	unsigned char bytes[RANDOM_LETTERS];
	size_t len = sizeof prefix - 1;

	if (getrandom(bytes, sizeof bytes, 0) != (ssize_t)sizeof bytes)
		return -1;
	memcpy(out, prefix, len);
	for (int i = 0; i < RANDOM_LETTERS; i++)
		out[len + (size_t)i] = letters[bytes[i] % (sizeof letters - 1)];
	out[len + RANDOM_LETTERS] = '\0';
	return 0;
}

/* Whether the folder fd holds nothing. */
static int empty_folder(int fd)
{
	DIR *d = fs_read_folder(fd);
	struct dirent *e;
	int empty = 1;

	if (!d)
		return 0;
	while (empty && (e = readdir(d)))
		empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
	closedir(d);
	return empty;
}

/* Whether fd is the folder private_make just made: this user's, 0700,
 * empty, and still named name in parent. */
static int is_made(int parent, const char *name, int fd)
{
	struct stat st, by_name;

	return fstat(fd, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
	       (st.st_mode & 07777) == 0700 && st.st_nlink == 2 && empty_folder(fd) &&
	       fstatat(parent, name, &by_name, AT_SYMLINK_NOFOLLOW) == 0 &&
	       by_name.st_dev == st.st_dev && by_name.st_ino == st.st_ino;
}

/* The folder parent locked through a descriptor of its own (how: LOCK_SH
 * to make a private folder in it, LOCK_EX|LOCK_NB to take one for a
 * leftover), so that no other lock this process holds on parent changes;
 * the descriptor, or -1 with errno. Between mkdir and flock a private
 * folder is unlocked yet in use: the parent's lock covers that moment. */
static int lock_parent(int parent, int how)
{
	int fd = openat(parent, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0 && fs_lock(fd, how) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* One try at a fresh private folder: 0, 1 for another try, -1 (errno). */
static int make_once(int parent, struct private_folder *pf)
{
	if (random_name(pf->name) != 0)
		return -1;
	if (mkdirat(parent, pf->name, 0700) != 0)
		return errno == EEXIST ? 1 : -1;
	pf->fd = openat(parent, pf->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (pf->fd < 0 && errno != ENOENT && errno != ELOOP && errno != ENOTDIR)
		return -1;
	/* renamed or replaced before it was locked: another name */
	if (pf->fd >= 0 && fs_lock(pf->fd, LOCK_EX | LOCK_NB) == 0 &&
	    is_made(parent, pf->name, pf->fd)) {
		pf->parent = parent;
		return 0;
	}
	if (pf->fd >= 0)
		close(pf->fd);
	return 1;
}

int private_make(int parent, int parent_locked, struct private_folder *pf)
{
	int lock = parent_locked ? fcntl(parent, F_DUPFD_CLOEXEC, 0) : lock_parent(parent, LOCK_SH);
	int r = 1;

	for (int tries = 0; lock >= 0 && r == 1 && tries < MAX_TRIES; tries++)
		r = make_once(parent, pf);
	if (lock >= 0)
		close(lock);
	if (r == 1)
		errno = EEXIST;
	return r == 0 ? 0 : -1;
}

/* Removes everything in the folder fd; with only_ours, first checks that
 * it holds nothing but folders and regular files of this user (1 when it
 * does, 0 when not, -1 on error, nothing removed unless 1). */
static int clear_folder(int fd, int only_ours, int depth);

/* One entry of a folder being cleared. */
static int clear_entry(int fd, const char *name, int only_ours, int depth)
{
	struct stat st;
	int sub, r;

	if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return errno == ENOENT ? 1 : -1;
	if (only_ours && (st.st_uid != geteuid() || (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))))
		return 0;
	if (!S_ISDIR(st.st_mode))
		return only_ours ? 1 : unlinkat(fd, name, 0) == 0 ? 1 : -1;
	sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (sub < 0)
		return -1;
	r = clear_folder(sub, only_ours, depth + 1);
	close(sub);
	if (r == 1 && !only_ours && unlinkat(fd, name, AT_REMOVEDIR) != 0)
		return -1;
	return r;
}

static int clear_folder(int fd, int only_ours, int depth)
{
	DIR *d = depth <= MAX_DEPTH ? fs_read_folder(fd) : NULL;
	struct dirent *e;
	int r = 1;

	if (!d)
		return depth > MAX_DEPTH ? 0 : -1;
	while (r == 1 && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			r = clear_entry(fd, e->d_name, only_ours, depth);
	closedir(d);
	/* a folder read while entries go may skip some: read it again */
	if (r == 1 && !only_ours && !empty_folder(fd))
		return depth > MAX_DEPTH ? -1 : clear_folder(fd, 0, depth + 1);
	return r;
}

/* Removes the folder name of parent if it is still the folder fd. */
static int remove_if_same(int parent, const char *name, int fd)
{
	struct stat st, by_name;

	if (fstat(fd, &st) != 0 || fstatat(parent, name, &by_name, AT_SYMLINK_NOFOLLOW) != 0)
		return -1;
	if (st.st_dev != by_name.st_dev || st.st_ino != by_name.st_ino) {
		errno = ENOENT; /* renamed away: nothing of ours under that name */
		return -1;
	}
	return unlinkat(parent, name, AT_REMOVEDIR);
}

void private_remove(struct private_folder *pf)
{
	int err = errno;

	if (pf->fd < 0)
		return;
	clear_folder(pf->fd, 0, 0);
	remove_if_same(pf->parent, pf->name, pf->fd);
	close(pf->fd);
	pf->fd = -1;
	errno = err;
}

/* The folder name of parent, opened and locked (without waiting) unless
 * it is in use: its descriptor, -1 (in use, or not a folder: errno). */
static int open_unused(int parent, const char *name)
{
	int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd >= 0 && fs_lock(fd, LOCK_EX | LOCK_NB) != 0) {
		close(fd);
		errno = EWOULDBLOCK;
		return -1;
	}
	return fd;
}

/* Whether the open folder fd is of this user's kind. */
static int ours(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && st.st_uid == geteuid() && (st.st_mode & 07777) == 0700 &&
	       clear_folder(fd, 1, 0) == 1;
}

enum leftover private_leftover(int parent, const char *name)
{
	int lock = lock_parent(parent, LOCK_EX | LOCK_NB), fd;
	enum leftover kind = LEFTOVER_IN_USE; /* a folder being made beside it */

	if (lock < 0)
		return errno == EWOULDBLOCK ? LEFTOVER_IN_USE : LEFTOVER_FOREIGN;
	if ((fd = open_unused(parent, name)) < 0)
		kind = errno == EWOULDBLOCK ? LEFTOVER_IN_USE : LEFTOVER_FOREIGN;
	else
		kind = ours(fd) ? LEFTOVER_OURS : LEFTOVER_FOREIGN;
	if (fd >= 0)
		close(fd);
	close(lock);
	return kind;
}

int private_remove_leftover(int parent, const char *name)
{
	int lock = lock_parent(parent, LOCK_EX | LOCK_NB), fd = -1, rc = -1;

	if (lock >= 0 && (fd = open_unused(parent, name)) >= 0) {
		if (!ours(fd))
			errno = EPERM;
		else if (clear_folder(fd, 0, 0) == 1)
			rc = remove_if_same(parent, name, fd);
	}
	if (fd >= 0)
		close(fd);
	if (lock >= 0)
		close(lock);
	return rc;
}

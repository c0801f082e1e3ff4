/*
 * Folders and files opened through descriptors that no rename can
 * redirect, and the copies and comparisons `cudastub patch` makes through
 * them (patch_fs.h says why).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "patch_fs.h"

/* Makes the folder name in parent and opens it. It goes to the owner and
 * group of parent: a folder made in someone's tree is theirs to empty. */
static int make_folder(int parent, const char *name)
{
	struct stat st;
	int made = mkdirat(parent, name, 0755) == 0, fd;

	if (!made && errno != EEXIST)
		return -1;
	fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (made && fd >= 0 && fstat(parent, &st) == 0 && fchown(fd, st.st_uid, st.st_gid) != 0)
		errno = 0; /* kept as this user's: nothing depends on it */
	return fd;
}

int fs_open_folder(const char *real, int make)
{
	char part[PATH_MAX], *name, *save = NULL;
	int fd, next;

	if (real[0] != '/' || snprintf(part, sizeof part, "%s", real) >= (int)sizeof part) {
		errno = real[0] != '/' ? EINVAL : ENAMETOOLONG;
		return -1;
	}
	fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	for (name = strtok_r(part, "/", &save); fd >= 0 && name;
	     name = strtok_r(NULL, "/", &save)) {
		if (!strcmp(name, "..") || !strcmp(name, ".")) {
			close(fd);
			errno = EINVAL; /* a real path has none */
			return -1;
		}
		next = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0 && errno == ENOENT && make)
			next = make_folder(fd, name);
		if (next < 0) {
			int err = errno;

			close(fd);
			errno = err;
			return -1;
		}
		close(fd);
		fd = next;
	}
	return fd;
}

int fs_open_regular(int dir, const char *name, struct stat *st)
{
	int fd;

	/* a device is never opened (a tape rewinds on open); what is opened
	 * is checked again below, in case the name changed meanwhile */
	if (fstatat(dir, name, st, AT_SYMLINK_NOFOLLOW) != 0)
		return -1;
	if (!S_ISREG(st->st_mode)) {
		errno = S_ISLNK(st->st_mode) ? ELOOP : EINVAL;
		return -1;
	}
	fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	return fd;
}

/* Writes all of buf at off; 0 or -1 with errno. */
static int write_all(int fd, const char *buf, size_t len, off_t off)
{
	while (len) {
		ssize_t n = pwrite(fd, buf, len, off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return -1;
		}
		buf += n;
		len -= (size_t)n;
		off += n;
	}
	return 0;
}

int fs_copy(int in, int out)
{
	enum { CHUNK = 1 << 20 };
	char *buf = malloc(CHUNK);
	off_t at = 0;
	ssize_t n = 0;
	int rc = 0;

	if (!buf)
		return -1;
	while (rc == 0) {
		n = pread(in, buf, CHUNK, at);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		rc = write_all(out, buf, (size_t)n, at);
		at += n;
	}
	if (rc == 0 && n < 0)
		rc = -1;
	if (rc == 0 && ftruncate(out, at) != 0)
		rc = -1;
	free(buf);
	return rc;
}

int fs_same_bytes(int a, int b)
{
	enum { CHUNK = 1 << 16 };
	char *x = malloc(2 * CHUNK), *y = x ? x + CHUNK : NULL;
	struct stat sa, sb;
	off_t at = 0;
	int same = x && fstat(a, &sa) == 0 && fstat(b, &sb) == 0 && sa.st_size == sb.st_size;

	while (same && at < sa.st_size) {
		ssize_t na = pread(a, x, CHUNK, at), nb = na > 0 ? pread(b, y, (size_t)na, at) : -1;

		same = na > 0 && nb == na && !memcmp(x, y, (size_t)na);
		at += na > 0 ? na : 0;
	}
	free(x);
	return same;
}

int fs_lock(int fd, int how)
{
	while (flock(fd, how) != 0) {
		/* NFS refuses an exclusive lock on a descriptor open to read
		 * (EBADF); some file systems have none */
		if (errno == ENOLCK || errno == EOPNOTSUPP || errno == EBADF)
			return 0;
		if (errno != EINTR)
			return -1;
	}
	return 0;
}

int fs_sync(int fd)
{
	int rc;

	while ((rc = fsync(fd)) != 0 && errno == EINTR)
		;
	return rc;
}

int fs_folder_path(int dir, char *out, size_t size)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof link, "/proc/self/fd/%d", dir);
	n = readlink(link, out, size - 1);
	if (n > 0 && ((size_t)n >= size - 1 || out[0] != '/'))
		errno = ENAMETOOLONG; /* or no path in this process's root */
	if (n <= 0 || (size_t)n >= size - 1 || out[0] != '/')
		return -1;
	out[n] = '\0';
	/* a folder removed meanwhile reads "<path> (deleted)" */
	if (n > 10 && !strcmp(out + n - 10, " (deleted)")) {
		errno = ENOENT;
		return -1;
	}
	return 0;
}

int fs_proc_usable(void)
{
	char link[64];
	struct stat by_fd, by_name;
	int fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC), ok;

	if (fd < 0)
		return 0;
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	ok = fstat(fd, &by_fd) == 0 && stat(link, &by_name) == 0 &&
	     by_fd.st_dev == by_name.st_dev && by_fd.st_ino == by_name.st_ino;
	close(fd);
	return ok;
}

const char *fs_child_path(const char *name, char *buf, size_t size)
{
	if (snprintf(buf, size, "/proc/self/fd/%d%s%s", CHILD_FD, name ? "/" : "",
		     name ? name : "") >= (int)size)
		return NULL;
	return buf;
}

DIR *fs_read_folder(int dir)
{
	int copy = fcntl(dir, F_DUPFD_CLOEXEC, 0);
	DIR *d = copy >= 0 ? fdopendir(copy) : NULL;

	if (!d) {
		if (copy >= 0)
			close(copy);
		return NULL;
	}
	rewinddir(d); /* the copy shares the position of every other reader */
	return d;
}

int fs_real_path_to_be(const char *path, char *out)
{
	char head[PATH_MAX], *slash;
	size_t len;

	if (realpath(path, out))
		return 0;
	if (errno != ENOENT || snprintf(head, sizeof head, "%s", path) >= (int)sizeof head)
		return -1;
	len = strlen(head);
	while (len > 1 && head[len - 1] == '/')
		head[--len] = '\0';
	slash = strrchr(head, '/');
	if (slash && (!strcmp(slash + 1, "..") || !strcmp(slash + 1, ".")))
		return -1; /* "gone/.." means nothing a folder walk can place */
	if (!slash && fs_real_path_to_be(".", out) != 0)
		return -1;
	if (slash && fs_real_path_to_be(slash == head ? "/" : (*slash = '\0', head), out) != 0)
		return -1;
	len = strlen(out);
	if (snprintf(out + len, PATH_MAX - len, "%s%s", len > 1 ? "/" : "",
		     slash ? slash + 1 : head) >= (int)(PATH_MAX - len)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

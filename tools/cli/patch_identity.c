/*
 * A patched copy takes the original's place, so it takes its identity:
 * owner and group first (a chown clears set-ID bits, so the mode comes
 * after it), then every extended attribute (user.*, the ACLs in
 * system.posix_acl_*, security.selinux, ...), then the mode, all on the
 * copy's descriptor. Where the owner cannot be kept (a run without the
 * right to chown), a set-user-ID bit is dropped, and where the group
 * cannot, a set-group-ID bit: a set-ID program never passes to an owner or
 * group it did not have, root least of all.
 *
 * security.capability is the exception. patchelf rewrites a file in
 * place, and the kernel removes a file's capabilities whenever its
 * content is written (setcap, then patchelf, then getcap prints nothing),
 * since capabilities granted to one program must not carry over to
 * another. A patched program is another program, so this does the same,
 * and says so.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "patch_identity.h"

static const char capability[] = "security.capability";

static void note(struct identity_notes *n, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void note(struct identity_notes *n, const char *fmt, ...)
{
	va_list ap;

	if (n->count >= IDENTITY_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(n->line[n->count++], sizeof n->line[0], fmt, ap);
	va_end(ap);
}

/* Every extended attribute name of fd, each NUL-terminated, in a new
 * buffer (*len bytes); NULL with errno (ENOTSUP: none can exist). */
static char *attribute_names(int fd, ssize_t *len)
{
	char *list = NULL;

	for (int tries = 0; tries < 4; tries++) {
		ssize_t size = flistxattr(fd, NULL, 0);

		if (size <= 0) {
			*len = size;
			return size == 0 ? calloc(1, 1) : NULL;
		}
		free(list);
		if (!(list = malloc((size_t)size)))
			return NULL;
		*len = flistxattr(fd, list, (size_t)size);
		if (*len >= 0)
			return list;
		if (errno != ERANGE) /* grown meanwhile: ask again */
			break;
	}
	free(list);
	return NULL;
}

/* Copies the attribute name of from to to; 0, or -1 with errno. */
static int copy_attribute(int from, int to, const char *name)
{
	ssize_t size = fgetxattr(from, name, NULL, 0);
	char *value = size >= 0 ? malloc((size_t)size + 1) : NULL;
	int rc = -1;

	if (value && (size = fgetxattr(from, name, value, (size_t)size)) >= 0)
		rc = fsetxattr(to, name, value, (size_t)size, 0);
	free(value);
	return rc;
}

/* Every extended attribute of from but its capabilities, onto to. */
static int copy_attributes(int from, int to, struct identity_notes *n, char *why, size_t wsize)
{
	ssize_t len;
	char *names = attribute_names(from, &len);

	if (!names) {
		if (errno == ENOTSUP)
			return 0;
		snprintf(why, wsize, "cannot list its extended attributes: %s", strerror(errno));
		return -1;
	}
	for (char *name = names; name < names + len; name += strlen(name) + 1) {
		if (!strcmp(name, capability)) {
			note(n,
			     "its file capabilities (%s) are not carried over: a patched "
			     "program is another program, as when patchelf writes it in "
			     "place; set them again with setcap",
			     capability);
			continue;
		}
		if (copy_attribute(from, to, name) != 0) {
			snprintf(why, wsize, "cannot keep its extended attribute %s: %s", name,
				 strerror(errno));
			free(names);
			return -1;
		}
	}
	free(names);
	return 0;
}

/* Owner and group as far as they can be kept; the mode less the set-ID
 * bits that would pass to another owner or group. */
static mode_t give_owner(const struct stat *st, int out, struct identity_notes *n)
{
	mode_t mode = st->st_mode & 07777;
	struct stat now;
	int err = 0;

	if (fchown(out, st->st_uid, st->st_gid) != 0) {
		err = errno;
		/* a member of the group may give it the group alone */
		if (fchown(out, (uid_t)-1, st->st_gid) != 0 && errno != EPERM)
			err = errno;
	}
	if (fstat(out, &now) != 0)
		now.st_uid = geteuid(), now.st_gid = getegid();
	if (now.st_uid != st->st_uid)
		note(n, "its owner (uid %u) could not be kept (%s): the patched file is uid %u's%s",
		     (unsigned)st->st_uid, strerror(err), (unsigned)now.st_uid,
		     mode & S_ISUID ? ", without its set-user-ID bit" : "");
	if (now.st_uid != st->st_uid)
		mode &= (mode_t)~S_ISUID;
	if (now.st_gid != st->st_gid && (mode & S_ISGID)) {
		note(n, "its group (gid %u) could not be kept: its set-group-ID bit is dropped",
		     (unsigned)st->st_gid);
		mode &= (mode_t)~S_ISGID;
	}
	return mode;
}

int identity_copy(int original, const struct stat *st, int out, struct identity_notes *n, char *why,
		  size_t wsize)
{
	mode_t mode = give_owner(st, out, n);

	if (copy_attributes(original, out, n, why, wsize) != 0)
		return -1;
	if (fchmod(out, mode) != 0) {
		snprintf(why, wsize, "cannot give its copy mode %04o: %s", (unsigned)mode,
			 strerror(errno));
		return -1;
	}
	return 0;
}

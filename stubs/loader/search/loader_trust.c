/*
 * Which files the search may take from folders it derives by itself.
 *
 * A folder the user names (CUDASTUB_<LIB>_PATH, CUDA_HOME, LD_LIBRARY_PATH)
 * is the user's choice, and the dynamic loader's own folders are the
 * system's. A folder the stub works out from where it lies (pip's wheel
 * folders above and beside the stub) is chosen by no one: if another user
 * can write there, that user chooses what every process loading the stub
 * runs. NVIDIA's libraries never search relative to themselves, and glibc's
 * $ORIGIN names one exact folder and is ignored in secure mode. So the rule
 * for such a file is the one ssh applies to ~/.ssh:
 *
 *   - the file and every folder above it, up to /, are owned by root or by
 *     the process's real user;
 *   - none of them is writable by group or others, except that a folder
 *     above the one holding the file may be, when it is sticky (/tmp,
 *     /var/tmp, /dev/shm): in a sticky folder no one else can rename or
 *     remove what the user owns, and what the user owns is checked in turn;
 *   - the chain is checked for the file as resolved (realpath: where a
 *     symbolic link leads) and for the folder that names it, whose link
 *     another user could otherwise change after the check.
 *
 * So a virtual environment under /tmp that the user made is searched, and
 * a folder another user made there, or any folder below a world-writable
 * one that is not sticky, is refused with its reason. Group-writable
 * folders are refused even where the group holds only the user: the stub
 * cannot tell who is in a group without reading the group database.
 *
 * In secure mode (AT_SECURE: set-user-ID, set-group-ID, file capabilities)
 * no derived folder is searched at all (loader_search.c), as glibc ignores
 * $ORIGIN and LD_LIBRARY_PATH there.
 *
 * What it cannot catch: a file changed by root or the user, which the
 * process trusts anyway, and a file system that lies about owners and
 * modes (some network and FUSE mounts).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader_core.h"
#include "loader_trust.h"
#include "loader_log.h"
#include "loader_sys.h"

static int trusted_owner(const struct stat *st)
{
	return st->st_uid == 0 || st->st_uid == getuid();
}

static const char *writers(mode_t mode)
{
	if ((mode & S_IWGRP) && (mode & S_IWOTH))
		return "its group and others";
	return (mode & S_IWOTH) ? "others" : "its group";
}

/* Why one object of the chain is not trusted, or NULL. holder: it holds
 * the file directly (no sticky exception), or is the file itself. */
static const char *distrust_one(const char *path, const struct stat *st, int holder, char *why,
				size_t size)
{
	char shown[512];

	if (!trusted_owner(st)) {
		snprintf(why, size, "%s is owned by user %lu, neither root nor this user (%lu)",
			 cudastub_log_shorten(path, shown, sizeof shown), (unsigned long)st->st_uid,
			 (unsigned long)getuid());
		return why;
	}
	if ((st->st_mode & (S_IWGRP | S_IWOTH)) && (holder || !(st->st_mode & S_ISVTX))) {
		snprintf(why, size, "%s is writable by %s (mode %04o%s)",
			 cudastub_log_shorten(path, shown, sizeof shown), writers(st->st_mode),
			 (unsigned)(st->st_mode & 07777),
			 S_ISDIR(st->st_mode) && (st->st_mode & S_ISVTX)
				 ? ", sticky, but it holds the file"
				 : "");
		return why;
	}
	return NULL;
}

/* path's folder, in place: "/a/b" for "/a/b/c", "/" for "/c"; 0 when
 * there is no slash. */
static int cut_to_folder(char *path)
{
	char *slash = strrchr(path, '/');

	if (!slash)
		return 0;
	if (slash == path)
		slash[1] = '\0';
	else
		*slash = '\0';
	return 1;
}

/* Checks the folder path (resolved, absolute) and every folder above it.
 * The first is the file's holder. */
static const char *distrust_folders(char *path, char *why, size_t size)
{
	int holder = 1;

	for (;;) {
		struct stat st;

		if (cudastub_sys_stat(path, &st) != 0) {
			snprintf(why, size, "cannot check %s: %s", path, strerror(errno));
			return why;
		}
		if (distrust_one(path, &st, holder, why, size))
			return why;
		if (!strcmp(path, "/") || !cut_to_folder(path))
			return NULL;
		holder = 0;
	}
}

const char *cudastub_trust_derived_file(const char *path, char *why, size_t size)
{
	char file[PATH_MAX], holder[PATH_MAX], named[PATH_MAX], walk[PATH_MAX];
	struct stat st;

	if (!realpath(path, file)) {
		snprintf(why, size, "cannot be resolved: %s", strerror(errno));
		return why;
	}
	if (cudastub_sys_stat(file, &st) != 0) {
		snprintf(why, size, "cannot check %s: %s", file, strerror(errno));
		return why;
	}
	if (distrust_one(file, &st, 1, why, size))
		return why;
	strcpy(holder, file);
	cut_to_folder(holder);
	strcpy(walk, holder);
	if (distrust_folders(walk, why, size))
		return why;

	/* The folder that names the file, when a link leads elsewhere: its
	 * link could be changed after the check by whoever may write there. */
	if (strlen(path) >= sizeof named)
		return NULL;
	strcpy(named, path);
	if (!cut_to_folder(named))
		return NULL;
	if (!realpath(named, walk)) {
		snprintf(why, size, "cannot be resolved: %s", strerror(errno));
		return why;
	}
	if (!strcmp(walk, holder))
		return NULL;
	return distrust_folders(walk, why, size);
}

int cudastub_secure_mode(void)
{
	return getauxval(AT_SECURE) != 0;
}

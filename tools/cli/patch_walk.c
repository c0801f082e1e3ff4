/*
 * Folder walks that never follow a link and never look a path up again:
 * each folder is opened from its parent's descriptor (O_NOFOLLOW), its
 * entries are examined relative to it, and the visitor gets the folder's
 * descriptor and the entry's name, so whatever it opens is the entry the
 * walk met, wherever the tree's owner renames things meanwhile. A
 * symbolic link is reported, never entered, so a link loop ends the walk
 * of nothing; FIFOs, sockets and devices are passed over unopened.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "patch_fs.h"
#include "patch_walk.h"
#include "private_folder.h"

struct walk {
	int enter_private;
	walk_visit visit;
	void *ctx;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* The names in the folder fd, sorted, in a new array (*n of them); NULL
 * with errno when it cannot be read. */
static char **folder_names(int fd, size_t *n)
{
	DIR *d = fs_read_folder(fd);
	char **names = NULL, **more;
	size_t cap = 0;
	struct dirent *e;

	*n = 0;
	if (!d)
		return NULL;
	errno = 0;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (*n == cap) {
			size_t bigger = cap ? 2 * cap : 64;

			if (!(more = realloc(names, bigger * sizeof *names))) {
				errno = ENOMEM;
				break;
			}
			names = more;
			cap = bigger;
		}
		if (!(names[*n] = strdup(e->d_name)))
			break;
		++*n;
		errno = 0;
	}
	if (errno) {
		int err = errno;

		closedir(d);
		free_names(names, *n);
		errno = err;
		return NULL;
	}
	closedir(d);
	if (*n) /* an empty folder has no array to sort */
		qsort(names, *n, sizeof *names, by_name);
	return names ? names : calloc(1, sizeof *names);
}

static void walk_folder(const struct walk *w, int fd, const char *path);

/* One entry of the folder fd. */
static void walk_entry(const struct walk *w, int fd, const char *path, const char *name)
{
	struct walk_entry e = {fd, name, NULL, {0}, 0};
	size_t len = strlen(path) + strlen(name) + 2;
	char *child = malloc(len);
	int sub;

	if (!child)
		return;
	snprintf(child, len, "%s%s%s", path, path[0] && path[strlen(path) - 1] == '/' ? "" : "/",
		 name);
	e.path = child;
	if (fstatat(fd, name, &e.st, AT_SYMLINK_NOFOLLOW) != 0) {
		free(child); /* gone since the folder was read */
		return;
	}
	if (S_ISLNK(e.st.st_mode))
		w->visit(w->ctx, WALK_LINK, &e);
	else if (S_ISREG(e.st.st_mode))
		w->visit(w->ctx, WALK_FILE, &e);
	else if (S_ISDIR(e.st.st_mode) && !w->enter_private && private_is_name(name))
		w->visit(w->ctx, WALK_PRIVATE, &e);
	else if (S_ISDIR(e.st.st_mode)) {
		sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0) {
			e.err = errno;
			w->visit(w->ctx, WALK_ERROR, &e);
		} else {
			walk_folder(w, sub, child);
			close(sub);
		}
	}
	free(child);
}

static void walk_folder(const struct walk *w, int fd, const char *path)
{
	size_t n;
	char **names = folder_names(fd, &n);

	if (!names) {
		struct walk_entry e = {fd, ".", path, {0}, errno};

		w->visit(w->ctx, WALK_ERROR, &e);
		return;
	}
	for (size_t i = 0; i < n; i++)
		walk_entry(w, fd, path, names[i]);
	free_names(names, n);
}

void walk_tree(int root, const char *path, int enter_private, walk_visit visit, void *ctx)
{
	struct walk w = {enter_private, visit, ctx};

	walk_folder(&w, root, path);
}

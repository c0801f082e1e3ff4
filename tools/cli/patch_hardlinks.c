/*
 * A file with several names (hard links) is left alone, with its other
 * names: a patched copy renamed over one name would leave the others
 * naming the unpatched file, a split no one asked for; and the only way to
 * patch every name at once is to rewrite the one inode in place, which a
 * crash or a full disk halfway through leaves damaged under every name.
 * Neither is acceptable for a command whose promise is "the original or
 * the complete patch", so the packager decides (patch a copy, or make the
 * names symbolic links). The other names are looked for in the paths
 * given, once, when the first such file is met.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "patch_fs.h"
#include "patch_hardlinks.h"
#include "patch_types.h"
#include "patch_walk.h"

struct hardlink_name {
	dev_t dev;
	ino_t ino;
	char *path;
};
struct hardlink_index {
	struct hardlink_name *names;
	size_t count, cap;
};

static void add_name(struct hardlink_index *x, const struct stat *st, const char *path)
{
	if (x->count == x->cap) {
		size_t cap = x->cap ? 2 * x->cap : 32;
		struct hardlink_name *more = realloc(x->names, cap * sizeof *more);

		if (!more)
			return;
		x->names = more;
		x->cap = cap;
	}
	if ((x->names[x->count].path = strdup(path))) {
		x->names[x->count].dev = st->st_dev;
		x->names[x->count].ino = st->st_ino;
		x->count++;
	}
}

static void collect(void *ctx, enum walk_kind kind, const struct walk_entry *e)
{
	if (kind == WALK_FILE && e->st.st_nlink > 1)
		add_name(ctx, &e->st, e->path);
}

/* Every name with other names under the paths given. */
static struct hardlink_index *build(const struct patch_options *o)
{
	struct hardlink_index *x = calloc(1, sizeof *x);
	struct stat st;

	for (int i = 0; x && i < o->path_count; i++) {
		int fd;

		if (!o->reals[i])
			continue;
		if (!o->is_dir[i]) {
			if (stat(o->reals[i], &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink > 1)
				add_name(x, &st, o->paths[i]);
			continue;
		}
		if ((fd = fs_open_folder(o->reals[i], 0)) >= 0) {
			walk_tree(fd, o->paths[i], 0, collect, x);
			close(fd);
		}
	}
	return x;
}

/* The other names of st found, "a, b" in out; how many. */
static unsigned long other_names(const struct hardlink_index *x, const struct stat *st,
				 const char *self, char *out, size_t size)
{
	unsigned long found = 0;
	size_t n = 0;

	out[0] = '\0';
	for (size_t i = 0; x && i < x->count; i++) {
		const struct hardlink_name *h = &x->names[i];

		if (h->dev != st->st_dev || h->ino != st->st_ino || !strcmp(h->path, self))
			continue;
		found++;
		if (n < size)
			n += (size_t)snprintf(out + n, size - n, "%s%s", n ? ", " : "", h->path);
	}
	return found;
}

void hardlinks_refuse(struct patch_options *o, const struct patch_target *t, const struct stat *st)
{
	char names[4096], outside[96] = "";
	unsigned long found, others = (unsigned long)st->st_nlink - 1;

	if (!o->hardlinks)
		o->hardlinks = build(o);
	found = other_names(o->hardlinks, st, t->path, names, sizeof names);
	if (others > found)
		snprintf(outside, sizeof outside, "%s%lu outside the paths given",
			 found ? "; " : "", others - found);
	cli_line(stderr,
		 "cudastub patch: %s: left alone: it is one file under %lu names (hard links; "
		 "also %s%s): a patched copy would leave the other names unpatched, and "
		 "patching it in place could leave it damaged under all of them if the run "
		 "stopped halfway",
		 t->path, others + 1, names, outside);
	o->errors++;
}

void hardlinks_release(struct patch_options *o)
{
	struct hardlink_index *x = o->hardlinks;

	for (size_t i = 0; x && i < x->count; i++)
		free(x->names[i].path);
	if (x)
		free(x->names);
	free(x);
	o->hardlinks = NULL;
}

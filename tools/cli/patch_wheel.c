/*
 * cudastub patch FILE.whl: a wheel patched as the wheel it is. The wheel,
 * open and locked like any file, is copied into a private folder beside
 * it (private_folder.c), unpacked there, patched there as an unpacked
 * wheel (patch_unpacked.c), packed again there (python3 -m wheel pack,
 * which writes RECORD anew from the files), given the original's owner,
 * group, mode and attributes, synced and renamed over the original; a
 * failure at any point leaves the original as it was.
 *
 * The unpacking is this file's own few lines of Python over the wheel
 * package's WheelFile (which checks each member against RECORD as it is
 * read, and keeps every member inside the folder): `wheel unpack` of
 * Debian 12's python3-wheel (0.38) extracts with zipfile, which sets no
 * member's mode, so a wheel's libraries would come back without their
 * execute bits. The mode bits of each member (never set-ID ones) are
 * put back; `wheel pack` stores each file's mode, so they survive the
 * round trip.
 * Python is $CUDASTUB_PYTHON, or the first python3 on PATH and the
 * system's /usr/bin/python3 that has the wheel package.
 *
 * --dry-run and --check plan on the unpacked copy and leave the wheel
 * alone.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "patch_apply.h"
#include "patch_file.h"
#include "patch_fs.h"
#include "patch_hardlinks.h"
#include "patch_identity.h"
#include "patch_run.h"
#include "patch_types.h"
#include "patch_unpacked.h"
#include "patch_wheel.h"
#include "private_folder.h"

static const char unpack_script[] =
	"import os, sys\n"
	"from wheel.wheelfile import WheelFile\n"
	"with WheelFile(sys.argv[1]) as wheel:\n"
	"    root = os.path.join(sys.argv[2], wheel.parsed_filename.group('namever'))\n"
	"    for member in wheel.infolist():\n"
	"        path = wheel.extract(member, root)\n"
	"        mode = member.external_attr >> 16 & 0o777\n"
	"        if mode and not member.is_dir():\n"
	"            os.chmod(path, mode)\n";

int patch_is_wheel_name(const char *name)
{
	size_t n = strlen(name);

	return n > 4 && !strcmp(name + n - 4, ".whl");
}

/* The Python that unpacks and packs, or NULL. */
static const char *wheel_python(void)
{
	static const char *const tried[] = {"python3", "/usr/bin/python3"};
	const char *chosen = getenv("CUDASTUB_PYTHON");

	if (chosen && *chosen)
		return chosen;
	for (size_t i = 0; i < sizeof tried / sizeof *tried; i++) {
		char *argv[] = {(char *)tried[i], "-c", "import wheel.cli, wheel.wheelfile", NULL};

		if (run_program(argv, -1, NULL, 0, NULL, 0) == 0)
			return tried[i];
	}
	return NULL;
}

/* Runs python with args, the private folder pf as its descriptor 3; 0,
 * or -1 with its complaint (its last line) in why. */
static int run_python(const char *python, char **args, int pf, char *why, size_t wsize)
{
	char *argv[8] = {(char *)python}, err[4096], *last;
	int n = 1;

	for (; args[n - 1] && n < 7; n++)
		argv[n] = args[n - 1];
	argv[n] = NULL;
	if (run_program(argv, pf, NULL, 0, err, sizeof err) == 0)
		return 0;
	last = strrchr(err, '\n');
	last = last ? last + 1 : err[0] ? err : "it failed";
	if (wsize) {
		size_t len = strlen(last) < wsize - 1 ? strlen(last) : wsize - 1;

		memcpy(why, last, len);
		why[len] = '\0';
	}
	return -1;
}

/* The wheel (fd) unpacked in pf: a copy under its own name (WheelFile
 * reads the name), then unpacked/<name>-<version> (in namever); the
 * unpacked root's descriptor, or -1 with why. */
static int unpack(const char *python, const struct patch_target *t, int fd, int pf, char *namever,
		  size_t nsize, char *why, size_t wsize)
{
	char wheel[NAME_MAX + 64], dest[64];
	char *args[] = {"-c", (char *)unpack_script, wheel, dest, NULL};
	int copy = openat(pf, t->name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	int unpacked, root = -1;

	if (copy < 0 || fs_copy(fd, copy) != 0) {
		snprintf(why, wsize, "cannot copy it: %s", strerror(errno));
		if (copy >= 0)
			close(copy);
		return -1;
	}
	close(copy);
	if (!fs_child_path(t->name, wheel, sizeof wheel) ||
	    !fs_child_path("unpacked", dest, sizeof dest) ||
	    run_python(python, args, pf, why, wsize) != 0)
		return -1;
	unpacked = openat(pf, "unpacked", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (unpacked >= 0 && patch_only_entry(unpacked, "", namever, nsize) == 0)
		root = openat(unpacked, namever, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (root < 0)
		snprintf(why, wsize, "it unpacked into no one folder");
	if (unpacked >= 0)
		close(unpacked);
	return root;
}

/* pf's unpacked/<namever> packed into pf's packed/; 0 or -1 with why. */
static int pack(const char *python, int pf, const char *namever, char *why, size_t wsize)
{
	char root[NAME_MAX + 64], out[64];
	char *args[] = {"-m", "wheel", "pack", "-d", out, root, NULL};

	if (mkdirat(pf, "packed", 0700) != 0) {
		snprintf(why, wsize, "cannot make a folder to pack it in: %s", strerror(errno));
		return -1;
	}
	if (snprintf(root, sizeof root, "/proc/self/fd/%d/unpacked/%s", CHILD_FD, namever) >=
		    (int)sizeof root ||
	    !fs_child_path("packed", out, sizeof out)) {
		snprintf(why, wsize, "its name is too long");
		return -1;
	}
	return run_python(python, args, pf, why, wsize);
}

/* The wheel packed in pf's packed/ takes the original's (fd, st)
 * identity, then its place; 0 or -1 with why. */
static int put_back(const struct patch_target *t, int fd, const struct stat *st, int pf,
		    struct identity_notes *n, char *why, size_t wsize)
{
	char name[NAME_MAX + 1];
	int packed = openat(pf, "packed", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int file = -1, rc = -1;

	if (packed < 0 || patch_only_entry(packed, ".whl", name, sizeof name) != 0 ||
	    (file = openat(packed, name, O_RDWR | O_NOFOLLOW | O_CLOEXEC)) < 0)
		snprintf(why, wsize, "wheel pack wrote no one wheel");
	else
		rc = apply_replace(t, fd, st, packed, name, file, n, why, wsize);
	if (file >= 0)
		close(file);
	if (packed >= 0)
		close(packed);
	return rc;
}

/* Packs the patched wheel and puts it back, reporting it. */
static void repack(struct patch_options *o, const struct patch_target *t, int fd,
		   const struct stat *st, const char *python, int pf, const char *namever)
{
	struct identity_notes n = {0};
	char why[1024] = "";

	if (st->st_nlink > 1) {
		hardlinks_refuse(o, t, st);
		return;
	}
	if (pack(python, pf, namever, why, sizeof why) != 0 ||
	    put_back(t, fd, st, pf, &n, why, sizeof why) != 0) {
		cli_line(stderr, "cudastub patch: %s: cannot pack it again: %s; left as it was",
			 t->path, why);
		o->errors++;
		return;
	}
	cli_line(stdout, "%s: packed again, its RECORD written anew", t->path);
	for (int i = 0; i < n.count; i++)
		cli_line(stdout, "%s: %s", t->path, n.line[i]);
}

/* The wheel, open and locked: unpacked, patched and (when anything
 * changed and nothing failed) packed again. */
static void patch_locked(struct patch_options *o, const struct patch_target *t, int fd,
			 const struct stat *st, const char *python)
{
	int changes = o->changes, errors = o->errors, in_private = o->in_private, root, r;
	struct private_folder pf;
	char namever[NAME_MAX + 1], why[1024] = "";

	if (private_make(t->dir, 0, &pf) != 0) {
		cli_line(stderr, "cudastub patch: %s: cannot make a private folder beside it: %s",
			 t->path, strerror(errno));
		o->errors++;
		return;
	}
	if ((root = unpack(python, t, fd, pf.fd, namever, sizeof namever, why, sizeof why)) < 0) {
		cli_line(stderr, "cudastub patch: %s: cannot unpack it: %s", t->path, why);
		o->errors++;
	} else {
		o->in_private = 1; /* what is in it is the wheel's own */
		r = patch_unpacked_wheel(o, root, t->path);
		o->in_private = in_private;
		close(root);
		if (r == 1) {
			cli_line(stderr, "cudastub patch: %s: no .dist-info folder in it", t->path);
			o->errors++;
		} else if (o->errors == errors && !o->check && !o->dry_run && o->changes != changes)
			repack(o, t, fd, st, python, pf.fd, namever);
	}
	private_remove(&pf);
}

void patch_wheel(struct patch_options *o, const struct patch_target *t)
{
	const char *python = wheel_python();
	struct stat st;
	int fd, same;

	if (!python) {
		cli_line(stderr,
			 "cudastub patch: %s: patching a wheel needs Python's wheel package "
			 "(python3 -m wheel; Debian: apt-get install python3-wheel), or "
			 "CUDASTUB_PYTHON naming a Python that has it",
			 t->path);
		o->errors++;
		return;
	}
	for (int tries = 0; tries < 16; tries++) {
		if (patch_open(o, t, &fd, &st) != 0)
			return;
		same = patch_lock(o, t, fd, &st);
		if (same == 0)
			patch_locked(o, t, fd, &st, python);
		else if (same < 0) {
			cli_line(stderr, "cudastub patch: %s: cannot lock it: %s", t->path,
				 strerror(errno));
			o->errors++;
		}
		close(fd);
		if (same != 1)
			return;
	}
	cli_line(stderr, "cudastub patch: %s: replaced again and again while waiting for its lock",
		 t->path);
	o->errors++;
}

/*
 * A plan carried out so that every file is at every moment either the
 * original or the complete patch, whatever runs beside it:
 *
 *   1. the stubs are copied into the stub folder (under its lock), each
 *      into a private folder there, then renamed into place;
 *   2. the original, open and locked, is copied through its descriptor
 *      into a private folder beside it (private_folder.c), where patchelf
 *      changes the copy through /proc/self/fd/3/<name>;
 *   3. the copy is read back: every entry and the RUNPATH as planned;
 *   4. it takes the original's owner, group, attributes and mode
 *      (patch_identity.c), is synced, and is renamed over the original;
 *      then the folder is synced, so the rename survives a crash.
 *
 * Nothing is ever written through a name in someone else's folder: the
 * only names used there are the private folder's (made exclusively) and
 * the final rename's target, which rename replaces and never follows. A
 * failure at any step leaves the original as it was and removes the
 * private folder; a run killed on the way leaves at most the private
 * folder, which the next run removes and --check reports.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "elf_read.h"
#include "patch_apply.h"
#include "patch_fs.h"
#include "patch_identity.h"
#include "patch_names.h"
#include "patch_plan.h"
#include "patch_stubs.h"
#include "patch_types.h"
#include "patchelf.h"
#include "private_folder.h"

/* Sets why to "<what>: <errno's text>" and returns -1. */
static int failed(char *why, size_t wsize, const char *what)
{
	snprintf(why, wsize, "%s: %s", what, strerror(errno));
	return -1;
}

/* A new file name in the private folder pf holding the bytes of in (what
 * it is: "it", "the stub <name>", for a failure's line): its descriptor,
 * or -1 with why. */
static int copy_into(int pf, const char *name, int in, const char *what, char *why, size_t wsize)
{
	int out = openat(pf, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);

	if (out < 0 || fs_copy(in, out) != 0) {
		snprintf(why, wsize, "cannot copy %s: %s", what, strerror(errno));
		if (out >= 0)
			close(out);
		return -1;
	}
	return out;
}

/* patchelf on the copy: the entries replaced in one call, the RUNPATH set
 * in another (patchelf.c says why). */
static int patch_copy(const struct plan *p, int pf, const char *name, char *why, size_t wsize)
{
	const char *from[PATCH_SLOTS], *to[PATCH_SLOTS];
	char said[512];
	int count = 0;

	/* libcudastub.so's own entry first: it is the one kept */
	for (int k = PATCH_SLOTS - 1; k >= 0; k--)
		if (p->from[k]) {
			from[count] = p->from[k];
			to[count++] = p->to[k];
		}
	/* with --combined every name becomes the one file's: a name needed
	 * twice is loaded once, and each name keeps its symbol-version needs
	 * (patchelf renames them with it), which a removed name would leave
	 * needing a file that is not there */
	if ((count && patchelf_replace_needed(pf, name, from, to, count, said, sizeof said) != 0) ||
	    (p->runpath[0] && patchelf_set_runpath(pf, name, p->runpath, said, sizeof said) != 0)) {
		snprintf(why, wsize, "patchelf failed on its copy: %s",
			 said[0] ? said : "no reason given");
		return -1;
	}
	return 0;
}

/* Whether the patched copy reads back as planned; 0, or -1 with why. */
static int verify_copy(const struct plan *p, int copy, char *why, size_t wsize)
{
	char needed[sizeof p->needed], runpath[sizeof p->runpath];

	if (elf_dynamic_strings(copy, needed, sizeof needed, runpath, sizeof runpath) != 0 &&
	    (patchelf_needed(copy, needed, sizeof needed) != 0 ||
	     patchelf_runpath(copy, runpath, sizeof runpath) != 0)) {
		snprintf(why, wsize, "its patched copy cannot be read back");
		return -1;
	}
	for (int k = 0; k < PATCH_SLOTS; k++)
		if (p->from[k] && (!plan_needs_name(needed, p->to[k]) ||
				   (p->combined && strcmp(p->from[k], p->to[k]) &&
				    plan_needs_name(needed, p->from[k])))) {
			snprintf(why, wsize, "its patched copy does not read back as %s -> %s",
				 p->from[k], p->to[k]);
			return -1;
		}
	if (p->runpath[0] && strcmp(runpath, p->runpath)) {
		snprintf(why, wsize, "its patched copy's RUNPATH reads back as %s", runpath);
		return -1;
	}
	return 0;
}

int apply_replace(const struct patch_target *t, int original, const struct stat *st, int from,
		  const char *name, int copy, struct identity_notes *n, char *why, size_t wsize)
{
	if (identity_copy(original, st, copy, n, why, wsize) != 0)
		return -1;
	if (fs_sync(copy) != 0)
		return failed(why, wsize, "cannot write its new copy to disk");
	if (renameat(from, name, t->dir, t->name) != 0)
		return failed(why, wsize, "cannot rename its new copy over it");
	if (fs_sync(t->dir) != 0 && n->count < IDENTITY_NOTES)
		snprintf(n->line[n->count++], sizeof n->line[0],
			 "its folder could not be synced (%s): the rename may not outlast a "
			 "crash",
			 strerror(errno));
	return 0;
}

int apply_plan(const struct plan *p, const struct patch_target *t, int fd, const struct stat *st,
	       struct identity_notes *n, char *why, size_t wsize)
{
	struct private_folder pf;
	int copy, rc = -1;

	if (apply_stubs(p, why, wsize) != 0)
		return -1;
	if (private_make(t->dir, 0, &pf) != 0)
		return failed(why, wsize, "cannot make a private folder beside it");
	copy = copy_into(pf.fd, t->name, fd, "it", why, wsize);
	if (copy >= 0 && patch_copy(p, pf.fd, t->name, why, wsize) == 0) {
		/* patchelf wrote the file under that name afresh: read what is
		 * there now (no one else can put anything in pf) */
		close(copy);
		copy = openat(pf.fd, t->name, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
		if (copy < 0)
			failed(why, wsize, "cannot open its patched copy");
		else if (verify_copy(p, copy, why, wsize) == 0)
			rc = apply_replace(t, fd, st, pf.fd, t->name, copy, n, why, wsize);
	}
	if (copy >= 0)
		close(copy);
	private_remove(&pf);
	return rc;
}

/* The stub copy to in pf, the stub folder's owner's (as if its owner had
 * copied it) with mode, synced and renamed into the folder dir. */
static int place_stub(int pf, const char *to, int dir, mode_t mode, char *why, size_t wsize)
{
	struct stat dir_st;
	int out = openat(pf, to, O_RDWR | O_NOFOLLOW | O_CLOEXEC), rc = -1;

	if (out < 0)
		return failed(why, wsize, "cannot open the stub's copy");
	if (fstat(dir, &dir_st) == 0 && fchown(out, dir_st.st_uid, dir_st.st_gid) != 0)
		errno = 0; /* then this user's: it is no program of theirs */
	if (fchmod(out, mode) != 0 || fs_sync(out) != 0 || renameat(pf, to, dir, to) != 0 ||
	    fs_sync(dir) != 0)
		failed(why, wsize, "cannot put the stub into the stub folder");
	else
		rc = 0;
	close(out);
	return rc;
}

/* Copies slot k's stub into the locked stub folder dir, through a private
 * folder in it; 0, or -1 with why. */
static int install_stub(const struct plan *p, int k, int dir, char *why, size_t wsize)
{
	const char *to = p->to[k];
	struct private_folder pf;
	struct stat st;
	char what[96];
	int src, out, rc = -1;

	if (stub_present_at(dir, to, p->source[k]))
		return 0; /* another run put it there meanwhile */
	if ((src = stub_open_source(p->source[k], &st)) < 0) {
		snprintf(why, wsize, "cannot read the stub %s: %s", p->source[k], strerror(errno));
		return -1;
	}
	if (private_make(dir, 1, &pf) != 0) {
		snprintf(why, wsize, "cannot make a private folder in the stub folder %s: %s",
			 p->stub_dir, strerror(errno));
		close(src);
		return -1;
	}
	snprintf(what, sizeof what, "the stub %s", to);
	out = copy_into(pf.fd, to, src, what, why, wsize);
	if (out >= 0) {
		close(out);
		rc = place_stub(pf.fd, to, dir, st.st_mode & 0755, why, wsize);
	}
	close(src);
	private_remove(&pf);
	return rc;
}

int apply_stubs(const struct plan *p, char *why, size_t wsize)
{
	int any = 0, dir, rc = 0;

	for (int k = 0; k < PATCH_SLOTS; k++)
		any |= p->copy[k];
	if (!any)
		return 0;
	why[0] = '\0';
	if ((dir = fs_open_folder(p->stub_dir, 1)) < 0) {
		snprintf(why, wsize, "cannot open the stub folder %s: %s", p->stub_dir,
			 strerror(errno));
		return -1;
	}
	/* one run at a time copies stubs into one folder; closing unlocks */
	if (fs_lock(dir, LOCK_EX) != 0)
		rc = failed(why, wsize, "cannot lock the stub folder");
	for (int k = 0; k < PATCH_SLOTS && rc == 0; k++)
		if (p->copy[k])
			rc = install_stub(p, k, dir, why, wsize);
	close(dir);
	return rc;
}

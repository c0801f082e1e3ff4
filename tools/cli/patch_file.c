/*
 * One file, from its folder's descriptor: opened without following a
 * link, told apart (not ELF, static, dynamic), locked, planned, then
 * patched, planned aloud (--dry-run) or checked (--check), and reported
 * on one line.
 *
 * The lock: flock on the file's own descriptor, exclusive for a run that
 * changes it, shared for one that reads. A second run over the same tree
 * waits on it, then finds the name renamed over (a new file) and starts
 * that file again: it reads the patch and has nothing to do. Nothing is
 * left behind for locking: the lock lives and dies with the descriptor.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "cli.h"
#include "elf_read.h"
#include "patch_apply.h"
#include "patch_check.h"
#include "patch_file.h"
#include "patch_fs.h"
#include "patch_hardlinks.h"
#include "patch_identity.h"
#include "patch_names.h"
#include "patch_plan.h"
#include "patch_types.h"

enum { MAX_TRIES = 16 };

/* One line: the file, the names it needs replaced and the RUNPATH (all
 * read from the file, escaped as the line is printed). */
static void describe(const struct plan *p, const char *verb)
{
	char *text = NULL, uncovered[4096];
	size_t size = 0;
	FILE *line = open_memstream(&text, &size);

	if (!line) {
		cli_line(stdout, "%s %s: (out of memory)", verb, p->path);
		return;
	}
	fprintf(line, "%s %s:", verb, p->path);
	for (int k = 0; k < PATCH_SLOTS; k++)
		if (p->from[k])
			fprintf(line, " %s -> %s;", p->from[k], p->to[k]);
	if (p->runpath[0])
		fprintf(line, " RUNPATH %s;", p->runpath);
	for (int k = 0; k < PATCH_SLOTS; k++)
		if (p->copy[k])
			fprintf(line, " copy %s;", p->to[k]);
	plan_uncovered_text(p, uncovered, sizeof uncovered);
	fputs(uncovered, line);
	if (fclose(line) == 0)
		cli_line(stdout, "%s", text);
	else
		cli_line(stdout, "%s %s: (out of memory)", verb, p->path);
	free(text);
}

/* A file with nothing to patch: said when named, counted in a walk. */
static void left_alone(const struct patch_target *t, const char *why, int *count)
{
	if (t->named)
		cli_line(stdout, "%s: %s; left alone", t->path, why);
	else
		(*count)++;
}

/* A file opened for nothing to patch: 1 when it is not dynamic ELF (then
 * reported). */
static int not_dynamic(struct patch_options *o, const struct patch_target *t, int fd)
{
	switch (elf_kind(fd)) {
	case ELF_KIND_OTHER:
		left_alone(t, "not an ELF executable or shared library", &o->other_files);
		return 1;
	case ELF_KIND_STATIC:
		/* nothing is loaded by name, so nothing can become a stub */
		left_alone(t, "statically linked", &o->static_files);
		return 1;
	case ELF_KIND_DYNAMIC: break;
	}
	return 0;
}

/* Carries the plan out and reports it. */
static void apply_and_report(struct patch_options *o, const struct patch_target *t, int fd,
			     const struct stat *st, const struct plan *p)
{
	struct identity_notes notes = {0};
	char why[1024] = "";

	if (apply_plan(p, t, fd, st, &notes, why, sizeof why) != 0) {
		cli_line(stderr, "cudastub patch: %s: %s; the original is unchanged", t->path,
			 why[0] ? why : "patching failed");
		o->errors++;
		return;
	}
	describe(p, "patched");
	for (int i = 0; i < notes.count; i++)
		cli_line(stdout, "%s: %s", t->path, notes.line[i]);
}

/* Whether the file needs a stub already (one of its DT_NEEDED entries,
 * needed: one a line, names one). */
static int needs_a_stub(const char *needed)
{
	char names[16384], *save = NULL;
	struct stub_ref ref;

	snprintf(names, sizeof names, "%s", needed);
	for (char *n = strtok_r(names, "\n", &save); n; n = strtok_r(NULL, "\n", &save))
		if (stub_parse(n, &ref))
			return 1;
	return 0;
}

/* What the plan says, done as the options ask: report, check or patch. */
static void act(struct patch_options *o, const struct patch_target *t, int fd,
		const struct stat *st, const struct plan *p, int r)
{
	char uncovered[4096];

	plan_uncovered_text(p, uncovered, sizeof uncovered);
	if (p->uncovered_count)
		o->uncovered_files++;
	if (r == 0 && p->uncovered_count) {
		/* said even in a walk: the file is not lazy, and nothing here changes that */
		cli_line(stdout, "%s: needs no library a stub covers;%s left alone", t->path,
			 uncovered);
		return;
	}
	if (r == 0) {
		left_alone(t, "needs no CUDA library", &o->quiet_files);
		return;
	}
	if (!p->change) {
		cli_line(stdout, "%s: already patched%s%s", t->path, p->uncovered_count ? ";" : "",
			 uncovered);
		if (o->check && check_loads(t->path, fd, p->dir, p->needed, p->runpath_now) != 0)
			o->errors++;
		return;
	}
	o->changes++;
	if (st->st_nlink > 1) {
		hardlinks_refuse(o, t, st);
		return;
	}
	if (o->check) {
		describe(p, "not patched:");
		/* linked to stubs already: whether it loads them as it is */
		if (needs_a_stub(p->needed) &&
		    check_loads(t->path, fd, p->dir, p->needed, p->runpath_now) != 0)
			o->errors++;
	} else if (o->dry_run)
		describe(p, "would patch");
	else
		apply_and_report(o, t, fd, st, p);
}

int patch_lock(const struct patch_options *o, const struct patch_target *t, int fd, struct stat *st)
{
	struct stat by_name;

	/* without a lock (a file system that has none) two runs may both
	 * patch the file, each renaming the same bytes over it */
	if (fs_lock(fd, o->check || o->dry_run ? LOCK_SH : LOCK_EX) != 0)
		return -1;
	if (fstatat(t->dir, t->name, &by_name, AT_SYMLINK_NOFOLLOW) != 0)
		return 1;
	if (by_name.st_dev != st->st_dev || by_name.st_ino != st->st_ino)
		return 1;
	return fstat(fd, st) == 0 ? 0 : -1; /* as it is now, under the lock */
}

int patch_open(struct patch_options *o, const struct patch_target *t, int *fd, struct stat *st)
{
	*fd = fs_open_regular(t->dir, t->name, st);
	if (*fd >= 0)
		return 0;
	if (!t->named && (errno == ENOENT || errno == EINVAL || errno == ELOOP))
		return 1;      /* gone, or no longer a regular file, since the walk met it */
	if (errno == EINVAL) { /* a FIFO, a device: never opened */
		left_alone(t, "not an ELF executable or shared library", &o->other_files);
		return 1;
	}
	cli_line(stderr, "cudastub patch: %s: %s", t->path, strerror(errno));
	o->errors++;
	return 1;
}

/* Plans the open, locked file and acts on the plan. */
static void plan_and_act(struct patch_options *o, const struct patch_target *t, int fd,
			 const struct stat *st, struct plan *p)
{
	int r = plan_file(o, t, fd, p);

	if (r < 0)
		o->errors++;
	else if (r != 2) /* 2: unreadable, said so and left alone */
		act(o, t, fd, st, p, r);
}

void patch_file(struct patch_options *o, const struct patch_target *t)
{
	struct plan *p = malloc(sizeof *p);
	struct stat st;
	int fd, tries, same;

	if (!p) {
		cli_line(stderr, "cudastub patch: %s: %s", t->path, strerror(ENOMEM));
		o->errors++;
		return;
	}
	for (tries = 0; tries < MAX_TRIES; tries++) {
		if (patch_open(o, t, &fd, &st) != 0)
			break;
		if (not_dynamic(o, t, fd)) {
			close(fd);
			break;
		}
		if ((same = patch_lock(o, t, fd, &st)) == 1) {
			close(fd); /* renamed over meanwhile: the file there now */
			continue;
		}
		if (same == 0)
			plan_and_act(o, t, fd, &st, p);
		else {
			cli_line(stderr, "cudastub patch: %s: cannot lock it: %s", t->path,
				 strerror(errno));
			o->errors++;
		}
		close(fd);
		break;
	}
	if (tries == MAX_TRIES) {
		cli_line(stderr,
			 "cudastub patch: %s: replaced again and again while waiting for "
			 "its lock; left alone",
			 t->path);
		o->errors++;
	}
	free(p);
}

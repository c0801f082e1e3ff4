/*
 * What one file needs done, read from its open descriptor: which of its
 * DT_NEEDED entries become which stub (patch_cover.c decides which stub
 * stands in for what), which NVIDIA libraries it keeps needing and why,
 * the RUNPATH that leads to the stub folder, and which stubs must be
 * copied there. Nothing is changed here; patch_apply.c carries it out.
 *
 * Every $ORIGIN-relative RUNPATH is worked out from the real paths of
 * both ends (the file's folder as the kernel names its descriptor, the
 * stub folder resolved once), whatever form the paths given had: a
 * relative path, "..", a linked working folder or a temporary folder
 * never reaches a RUNPATH.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "elf_read.h"
#include "patch.h"
#include "patch_fs.h"

/* The file's DT_NEEDED entries and RUNPATH, from its dynamic section,
 * else from patchelf (through the descriptor); 0 or -1. */
static int read_entries(int fd, struct plan *p)
{
	if (elf_dynamic_strings(fd, p->needed, sizeof p->needed, p->runpath_now,
				sizeof p->runpath_now) == 0)
		return 0;
	if (patchelf_needed(fd, p->needed, sizeof p->needed) != 0)
		return -1;
	if (patchelf_runpath(fd, p->runpath_now, sizeof p->runpath_now) != 0)
		p->runpath_now[0] = '\0';
	return 0;
}

static void add_uncovered(struct plan *p, const char *name, const char *reason)
{
	struct uncovered *u = &p->uncovered[p->uncovered_count];

	if (p->uncovered_count == UNCOVERED_MAX)
		return;
	snprintf(u->name, sizeof u->name, "%s", name);
	snprintf(u->reason, sizeof u->reason, "%s", reason);
	p->uncovered_count++;
}

/* An entry on libcudastub.so or its content name: 1 when line is one. */
static int combined_entry(const struct patch_options *o, struct plan *p, const char *line,
			  const char *name, int *any)
{
	char *names = p->names[COMBINED_SLOT];

	if (patch_is_content_name(line, COMBINED_NAME)) {
		p->named[COMBINED_SLOT] = 1; /* a patch made it so */
		snprintf(names, sizeof p->names[0], "%s", line);
		return 1;
	}
	if (strcmp(name, COMBINED_NAME))
		return 0;
	/* linked against it, or patched to it */
	p->uses[COMBINED_SLOT] = *any = 1;
	snprintf(names, sizeof p->names[0], "%s", line);
	/* --unique-names: renamed by its content, the wheel's own file where
	 * one ships beside it, as a stub of one library */
	if (o->unique_names) {
		p->from[COMBINED_SLOT] = names;
		patch_shipped_stub(p->runpath_now, p->dir, COMBINED_NAME, p->source[COMBINED_SLOT],
				   sizeof p->source[0]);
	}
	return 1;
}

/* The entry line (name without auditwheel's hash) against library k: 1
 * when it is one of k's names. */
static int kind_entry(const struct patch_options *o, struct plan *p, int k, const char *line,
		      const char *name, int *any)
{
	const struct cli_known_library *kind = &cli_known_libraries[k];
	char reason[160];

	if (!kind->name)
		return 0; /* a hole in the numbers */
	if (patch_is_content_name(line, kind->stub)) {
		p->named[k] = 1; /* a patch made it so */
		return 1;
	}
	if (!strcmp(name, kind->stub)) {
		p->uses[k] = *any = 1;
		/* --unique-names: the wheel's own stub gets its own name */
		if (o->unique_names) {
			snprintf(p->names[k], sizeof p->names[k], "%s", line);
			p->from[k] = p->names[k];
			patch_shipped_stub(p->runpath_now, p->dir, kind->stub, p->source[k],
					   sizeof p->source[k]);
		}
		return 1;
	}
	switch (patch_cover(k, name, reason, sizeof reason)) {
	case COVER_NONE: return 0;
	case COVER_STUB:
		snprintf(p->names[k], sizeof p->names[k], "%s", line);
		p->from[k] = p->names[k];
		p->uses[k] = *any = p->change = 1;
		return 1;
	case COVER_NOT_BUILT:
	case COVER_OTHER_ABI: add_uncovered(p, line, reason); return 1;
	}
	return 1;
}

/* Every DT_NEEDED entry; *any when one is a stub's or becomes one. */
static void plan_entries(const struct patch_options *o, struct plan *p, int *any)
{
	char needed[sizeof p->needed], *line, *save = NULL;

	memcpy(needed, p->needed, sizeof needed);
	for (line = strtok_r(needed, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char unhashed[256];
		/* matched by its name without auditwheel's hash; replaced as written */
		const char *name = nvidia_unhashed(line, unhashed, sizeof unhashed);
		int taken = combined_entry(o, p, line, name, any);

		for (int k = 0; k < PATCH_KINDS && !taken; k++)
			taken = kind_entry(o, p, k, line, name, any);
		/* an NVIDIA library no stub stands in for: still loaded at start */
		if (!taken && nvidia_library(name))
			add_uncovered(p, line, "no stub");
	}
}

/* libcudastub.so for every stub: with --combined, or for a file that
 * needs it already; 0, or -1 (reported) when this command has none. */
static int plan_combined(const struct patch_options *o, struct plan *p)
{
	p->combined = o->combined || p->uses[COMBINED_SLOT] || p->named[COMBINED_SLOT];
	if (p->combined && !stub_source(COMBINED_SLOT)) {
		cli_line(stderr,
			 "cudastub patch: %s: this cudastub has no %s beside its stubs (built "
			 "with -DCUDASTUB_BUILD_COMBINED=OFF?); left alone",
			 p->path, COMBINED_NAME);
		return -1;
	}
	if (p->named[COMBINED_SLOT] || (p->uses[COMBINED_SLOT] && !p->from[COMBINED_SLOT]))
		p->kept = p->names[COMBINED_SLOT];
	/* every stub the file needs, by an NVIDIA name or a stub's own, goes
	 * into the one file */
	for (int k = 0; k < PATCH_KINDS && p->combined; k++) {
		if (p->uses[k] && !p->from[k]) {
			snprintf(p->names[k], sizeof p->names[k], "%s",
				 cli_known_libraries[k].stub);
			p->from[k] = p->names[k];
		}
		if (p->from[k]) {
			p->change = 1;
			if (!p->named[COMBINED_SLOT]) /* a content name: there already */
				p->uses[COMBINED_SLOT] = 1;
		}
		p->uses[k] = 0;
	}
	return 0;
}

/* The stub folder: --stub-dir or the tree's, else the file's own folder;
 * with --unique-names, a file linked to a stub its wheel ships gets the
 * named copy beside that stub, where its RUNPATH already leads. */
static void plan_stub_dir(const struct patch_options *o, struct plan *p)
{
	snprintf(p->stub_dir, sizeof p->stub_dir, "%s", o->stub_dir ? o->stub_real : p->dir);
	for (int k = 0; k < PATCH_KINDS && o->unique_names && !o->stub_dir; k++)
		if (p->from[k] && !strcmp(p->from[k], cli_known_libraries[k].stub) &&
		    p->source[k][0]) {
			char *slash;

			snprintf(p->stub_dir, sizeof p->stub_dir, "%s", p->source[k]);
			slash = strrchr(p->stub_dir, '/'); /* a real path: it has one */
			slash[slash == p->stub_dir] = '\0';
			break;
		}
}

/* "$ORIGIN" or "$ORIGIN/<path from dir to stub_dir>", both real paths. */
static void origin_entry(const char *dir, const char *stub_dir, char *out, size_t size)
{
	size_t common = 0, i, n;
	char up[PATH_MAX] = "";
	const char *rest;

	for (i = 0; dir[i] && dir[i] == stub_dir[i]; i++)
		if (dir[i] == '/')
			common = i;
	if (!dir[i] && (!stub_dir[i] || stub_dir[i] == '/'))
		common = i;
	rest = stub_dir[common] == '/' ? stub_dir + common + 1 : stub_dir + common;
	for (const char *c = dir + common; *c; c++)
		if (*c == '/')
			strncat(up, "../", sizeof up - strlen(up) - 1);
	snprintf(out, size, "$ORIGIN%s%s%s", *up || *rest ? "/" : "", up, rest);
	n = strlen(out);
	if (n && out[n - 1] == '/')
		out[n - 1] = '\0';
}

/* Whether the ':'-list list holds entry. */
static int list_has(const char *list, const char *entry)
{
	size_t len = strlen(entry);

	for (const char *p = list; p && *p; p = strchr(p, ':'), p += !!p)
		if (!strncmp(p, entry, len) && (p[len] == ':' || !p[len]))
			return 1;
	return 0;
}

/* The RUNPATH entry to the stub folder, put first unless it is there. */
static int plan_runpath(struct plan *p)
{
	char entry[PATH_MAX + 16];

	origin_entry(p->dir, p->stub_dir, entry, sizeof entry);
	if (list_has(p->runpath_now, entry))
		return 0;
	if (snprintf(p->runpath, sizeof p->runpath, "%s%s%s", entry, p->runpath_now[0] ? ":" : "",
		     p->runpath_now) >= (int)sizeof p->runpath) {
		cli_line(stderr, "cudastub patch: %s: the RUNPATH would be too long", p->path);
		return -1;
	}
	p->change = 1;
	return 0;
}

/* Slot k's content name from its source, into p->to[k]; 0 or -1. */
static int content_name(struct plan *p, int k)
{
	struct stat st;
	int file = stub_open_source(p->source[k], &st), rc = -1;

	if (file >= 0) {
		rc = patch_content_name(file, stub_generic(k), p->to[k], sizeof p->to[k]);
		close(file);
	}
	if (rc != 0)
		cli_line(stderr, "cudastub patch: %s: cannot read %s: %s", p->path, p->source[k],
			 strerror(errno));
	return rc;
}

/* Each stub the file will need: its source, its name, and whether the
 * stub folder lacks it. */
static int plan_copies(const struct patch_options *o, struct plan *p)
{
	for (int k = 0; k < PATCH_SLOTS; k++) {
		const char *source = stub_source(k);

		if (!p->uses[k])
			continue;
		if (!p->source[k][0] && source)
			snprintf(p->source[k], sizeof p->source[k], "%s", source);
		snprintf(p->to[k], sizeof p->to[k], "%s", stub_generic(k));
		if (!p->source[k][0])
			continue;
		/* named by content when it replaces a name */
		if (o->unique_names && (k == COMBINED_SLOT || p->from[k]) &&
		    content_name(p, k) != 0)
			return -1;
		p->copy[k] = !stub_present(p->stub_dir, k, p->to[k], p->source[k]);
		p->change |= p->copy[k];
	}
	for (int k = 0; k < PATCH_KINDS && p->combined; k++)
		if (p->from[k])
			snprintf(p->to[k], sizeof p->to[k], "%s",
				 p->kept && !p->from[COMBINED_SLOT] ? p->kept
								    : p->to[COMBINED_SLOT]);
	return 0;
}

int plan_file(struct patch_options *o, const struct patch_target *t, int fd, struct plan *p)
{
	int any = 0;

	memset(p, 0, sizeof *p);
	p->path = t->path;
	if (read_entries(fd, p) != 0) {
		cli_line(stdout, "%s: patchelf cannot read it; left alone", t->path);
		return 2;
	}
	if (fs_folder_path(t->dir, p->dir, sizeof p->dir) != 0) {
		cli_line(stderr, "cudastub patch: %s: cannot tell the real path of its folder: %s",
			 t->path, strerror(errno));
		return -1;
	}
	plan_entries(o, p, &any);
	if (!any) {
		/* only stubs a patch named by content: already patched, as is */
		for (int k = 0; k < PATCH_SLOTS; k++)
			if (p->named[k])
				return 1;
		return 0;
	}
	if (plan_combined(o, p) != 0)
		return -1;
	plan_stub_dir(o, p);
	if (plan_runpath(p) != 0 || plan_copies(o, p) != 0)
		return -1;
	return 1;
}

void plan_uncovered_text(const struct plan *p, char *out, size_t size)
{
	size_t n = 0;

	out[0] = '\0';
	for (int i = 0; i < p->uncovered_count && n < size; i++) {
		int first = 1;

		for (int j = 0; j < i && first; j++)
			first = strcmp(p->uncovered[j].reason, p->uncovered[i].reason) != 0;
		if (!first)
			continue; /* named with the first of its reason */
		n += (size_t)snprintf(out + n, size - n, "%s", i ? " " : " still needs ");
		for (int j = i, c = 0; j < p->uncovered_count && n < size; j++)
			if (!strcmp(p->uncovered[j].reason, p->uncovered[i].reason))
				n += (size_t)snprintf(out + n, size - n, "%s%s", c++ ? ", " : "",
						      p->uncovered[j].name);
		if (n < size)
			n += (size_t)snprintf(out + n, size - n, ": %s;", p->uncovered[i].reason);
	}
}

int plan_needs_name(const char *needed, const char *name)
{
	size_t len = strlen(name);

	for (const char *at = needed; (at = strstr(at, name)) != NULL; at += len)
		if ((at == needed || at[-1] == '\n') && (!at[len] || at[len] == '\n'))
			return 1;
	return 0;
}

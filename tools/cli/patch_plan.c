/*
 * What one file needs done, read from its open descriptor: the CUDA ABI
 * of its stubs and which of its DT_NEEDED entries become which stub
 * (patch_cover.c decides both), which NVIDIA libraries it keeps needing and why,
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

#include "cli.h"
#include "elf_read.h"
#include "nvidia_names.h"
#include "patch_cover.h"
#include "patch_fs.h"
#include "patch_names.h"
#include "patch_plan.h"
#include "patch_runpath.h"
#include "patch_stubs.h"
#include "patch_types.h"
#include "patchelf.h"

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

/* An entry that names a stub (patch_names.c): this build's of the file's
 * ABI is used as it is (and copied where missing); one of another build,
 * or an earlier cudastub's named by its content, is left as it is; an
 * earlier cudastub's generic name (lib<lib>_stub.so, which every build
 * shared) becomes this build's stub. 1 when line is a stub's. */
static int stub_entry(struct plan *p, const char *line, int *any)
{
	struct stub_ref ref;
	char source[4096];
	int k;

	if (!stub_parse(line, &ref))
		return 0;
	k = ref.slot;
	snprintf(p->names[k], sizeof p->names[k], "%s", line);
	if (ref.form == STUB_TAGGED && p->abi && stub_source(k, p->abi, source, sizeof source) &&
	    !strcmp(stub_file_name(source), line))
		p->uses[k] = *any = 1;
	else if (ref.form == STUB_LEGACY && p->abi && stub_source(k, p->abi, source, sizeof source))
		p->from[k] = p->names[k], p->uses[k] = *any = p->change = 1;
	else
		p->named[k] = 1;
	return 1;
}

/* The entry line (name without auditwheel's hash) against library k: 1
 * when it is one of k's names. */
static int kind_entry(struct plan *p, int k, const char *line, const char *name, int *any)
{
	char reason[160];

	switch (patch_cover(k, name, p->abi, reason, sizeof reason)) {
	case COVER_NONE: return 0;
	case COVER_STUB:
		snprintf(p->names[k], sizeof p->names[k], "%s", line);
		p->from[k] = p->names[k];
		p->uses[k] = *any = p->change = 1;
		return 1;
	case COVER_NOT_BUILT:
	case COVER_OTHER_ABI: add_uncovered(p, line, p->abi ? reason : p->abi_why); return 1;
	}
	return 1;
}

/* Every DT_NEEDED entry; *any when one is a stub's or becomes one. */
static void plan_entries(struct plan *p, int *any)
{
	char needed[sizeof p->needed], *line, *save = NULL;

	memcpy(needed, p->needed, sizeof needed);
	for (line = strtok_r(needed, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char unhashed[256];
		/* matched by its name without auditwheel's hash; replaced as written */
		const char *name = nvidia_unhashed(line, unhashed, sizeof unhashed);
		int taken = stub_entry(p, line, any);

		for (int k = 0; k < PATCH_KINDS && !taken; k++)
			taken = kind_entry(p, k, line, name, any);
		/* an NVIDIA library no stub stands in for: still loaded at start */
		if (!taken && nvidia_library(name))
			add_uncovered(p, line, "no stub");
	}
}

/* libcudastub_cu<major> for every stub: with --combined, or for a file
 * that needs it already; 0, or -1 (reported) when this cudastub has none. */
static int plan_combined(const struct patch_options *o, struct plan *p)
{
	char source[4096];

	p->combined = o->combined || p->uses[COMBINED_SLOT];
	if (!p->combined)
		return 0;
	if (!stub_source(COMBINED_SLOT, p->abi, source, sizeof source)) {
		cli_line(stderr,
			 "cudastub patch: %s: this cudastub has no libcudastub_cu%d beside its "
			 "stubs (built with -DCUDASTUB_BUILD_COMBINED=OFF?); left alone",
			 p->path, p->abi);
		return -1;
	}
	/* every stub the file needs, by an NVIDIA name or a stub's own, goes
	 * into the one file */
	for (int k = 0; k < PATCH_KINDS; k++) {
		if (p->uses[k] && !p->from[k])
			p->from[k] = p->names[k];
		if (p->from[k])
			p->change = p->uses[COMBINED_SLOT] = 1;
		p->uses[k] = 0;
	}
	return 0;
}

/* Whether the stub of slot k the file needs is found through its own
 * RUNPATH as this build's, byte for byte. */
static int stub_found(const struct plan *p, int k, int elf_class, int machine)
{
	char source[4096], found[4096 + 256];
	int there;

	if (!stub_source(k, p->abi, source, sizeof source))
		return 0;
	there = runpath_find(p->runpath_now, p->dir, stub_file_name(source), elf_class, machine,
			     found, sizeof found);
	return there >= 0 && stub_same_as_source(there, source);
}

/* A file linked to this build's stubs (nothing to replace) that finds each
 * of them through its own RUNPATH is done where it is: a program the CMake
 * package linked, say, whatever stub folder this run would choose. */
static int plan_found_in_place(const struct plan *p, int fd)
{
	int elf_class, machine, used = 0;

	for (int k = 0; k < PATCH_SLOTS; k++)
		if (p->from[k])
			return 0;
	if (elf_identity(fd, &elf_class, &machine) != 0)
		return 0;
	for (int k = 0; k < PATCH_SLOTS; k++)
		if (p->uses[k] && !(used = stub_found(p, k, elf_class, machine)))
			return 0;
	return used;
}

/* The stub folder: --stub-dir or the tree's, else the file's own folder. */
static void plan_stub_dir(const struct patch_options *o, struct plan *p)
{
	snprintf(p->stub_dir, sizeof p->stub_dir, "%s", o->stub_dir ? o->stub_real : p->dir);
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

/* Each stub the file will need: its source, its name, and whether the
 * stub folder lacks it. */
static void plan_copies(struct plan *p)
{
	for (int k = 0; k < PATCH_SLOTS; k++) {
		if (!p->uses[k] || !stub_source(k, p->abi, p->source[k], sizeof p->source[k]))
			continue;
		snprintf(p->to[k], sizeof p->to[k], "%s", stub_file_name(p->source[k]));
		p->copy[k] = !stub_present(p->stub_dir, p->to[k], p->source[k]);
		p->change |= p->copy[k];
	}
	for (int k = 0; k < PATCH_KINDS && p->combined; k++)
		if (p->from[k])
			snprintf(p->to[k], sizeof p->to[k], "%s", p->to[COMBINED_SLOT]);
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
	p->abi = patch_file_abi(fd, p->needed, p->abi_why, sizeof p->abi_why);
	if (p->abi < 0) {
		cli_line(stderr, "cudastub patch: %s: %s; left alone", t->path, p->abi_why);
		return -1;
	}
	plan_entries(p, &any);
	if (!any) {
		/* only stubs a patch named by content: already patched, as is */
		for (int k = 0; k < PATCH_SLOTS; k++)
			if (p->named[k])
				return 1;
		return 0;
	}
	if (plan_combined(o, p) != 0)
		return -1;
	if (plan_found_in_place(p, fd))
		return 1;
	plan_stub_dir(o, p);
	if (plan_runpath(p) != 0)
		return -1;
	plan_copies(p);
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

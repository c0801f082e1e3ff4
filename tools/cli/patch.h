/*
 * `cudastub patch`: point built ELF files at the stubs instead of NVIDIA's
 * libraries. Its parts, each calling only those below it:
 *
 *   patch.c          the command: each path given, the summary, the exit
 *   patch_wheel.c    a .whl: unpacked, patched, packed, put back
 *   patch_unpacked.c a folder that is an unpacked wheel
 *   patch_tree.c     a folder walked: its files, links and leftovers
 *   patch_file.c     one file: opened, locked, planned, patched, reported
 *   patch_hardlinks.c a file with several names, refused with its names
 *   patch_check.c    --check: a patched file finds its stubs and versions
 *   patch_apply.c    a plan carried out in a private folder, then renamed
 *   patch_plan.c     what one file needs done
 *   patch_stubs.c    the stubs this command copies in, and their copies
 *   patch_cover.c    which stub stands in for which library and ABI
 *   patch_identity.c owner, group, mode and attributes of a replacement
 *   patch_names.c    --unique-names: stubs named by their content
 *   patch_links.c    paths given, and the symbolic links a walk meets
 *   patch_args.c     the command line
 *   patchelf.c       what is asked of patchelf
 *   nvidia_names.c   NVIDIA's library names, auditwheel's hashed ones
 * and below them the descriptor layer (patch_fs.h) and the ELF reader
 * (elf_read.h).
 */
#ifndef CUDASTUB_CLI_PATCH_H
#define CUDASTUB_CLI_PATCH_H

#include <stddef.h>
#include <sys/stat.h>

#include "cli.h"

/* What the command line asked (patch_args.c), and the counts of the run. */
struct patch_options {
	int dry_run, check, help, strict;
	int unique_names;     /* --unique-names: stubs named by their content (patch_names.c) */
	int combined;	      /* --combined: every stub in libcudastub.so */
	const char *stub_dir; /* as given, or NULL: chosen per tree or file */
	/* its absolute real path, once resolved: PATH_MAX bytes, as realpath
	 * writes (spelt out: a C11 file that includes this sees no PATH_MAX) */
	char stub_real[4096];
	const char **paths; /* the files and folders to patch */
	int path_count;
	char **reals; /* each path's real path (links followed), or NULL */
	int *is_dir;  /* each path is (or links to) a folder */
	/* walking a tree inside a private folder (an unpacked .whl): folders
	 * named as private folders are the wheel's own */
	int in_private;
	struct hardlink_index *hardlinks; /* built when first needed */
	int changes, errors, quiet_files, static_files, other_files;
	int uncovered_files; /* files that still need an NVIDIA library no stub covers */
};

/* One file to patch: name in the folder dir, path as the output names it,
 * named when it was given on the command line (a walk's files are
 * counted, not named, when there is nothing to say). */
struct patch_target {
	int dir;
	const char *name, *path;
	int named;
};

/* ---- patch_args.c ---- */

/* Reads argv into o; -1 after printing a usage error. */
int patch_parse(int argc, char **argv, struct patch_options *o);
/* Resolves o->stub_dir into o->stub_real (the folder need not exist
 * yet); -1 after printing why not. */
int patch_stub_folder(struct patch_options *o);

/* ---- patch_links.c ---- */

/* Fills o->reals and o->is_dir (0, or -1 out of memory), and frees them. */
int patch_resolve_paths(struct patch_options *o);
void patch_release_paths(struct patch_options *o);
/* The path given that deals with the file real: a folder given that holds
 * it, or a file given before the path numbered before; NULL if none. */
const char *patch_dealt_with_by(const struct patch_options *o, const char *real, int before);
/* Reports a link a folder walk met (never followed). */
void patch_link_met(struct patch_options *o, const char *link);

/* ---- nvidia_names.c ---- */

/* Whether a DT_NEEDED entry names one of NVIDIA's libraries (covered by
 * a stub or not). */
int nvidia_library(const char *name);
/* name without the hash auditwheel puts in the names of the libraries it
 * grafts ("libcudart-96c42e41.so.13": "libcudart.so.13", in buf), or name
 * itself. */
const char *nvidia_unhashed(const char *name, char *buf, size_t size);

/* ---- patchelf.c ---- */

/* The patchelf on PATH, or NULL. */
const char *patchelf_find(void);
/* The open file fd's DT_NEEDED entries (one a line) or RUNPATH, as
 * patchelf prints them; 0 or -1. */
int patchelf_needed(int fd, char *out, size_t size);
int patchelf_runpath(int fd, char *out, size_t size);
/* Each changes the file name in the private folder dir; 0, or -1 with
 * patchelf's complaint in why. */
int patchelf_replace_needed(int dir, const char *name, const char *const *from,
			    const char *const *to, int count, char *why, size_t wsize);
int patchelf_set_runpath(int dir, const char *name, const char *runpath, char *why, size_t wsize);
int patchelf_set_soname(int dir, const char *name, const char *soname, char *why, size_t wsize);

/* ---- patch_names.c ---- */

/* The content name of the stub open as fd as a stand-in for generic
 * ("libcudart_stub.so" -> "libcudart_stub-<hash>.so"); 0 or -1. */
int patch_content_name(int fd, const char *generic, char *out, size_t size);
/* Whether name is a content name of generic's. */
int patch_is_content_name(const char *name, const char *generic);
/* The real path of the generic stub a file in the folder dir (a real
 * path) loads through runpath (its RUNPATH), the one its wheel ships;
 * NULL when none holds one. */
const char *patch_shipped_stub(const char *runpath, const char *dir, const char *generic, char *out,
			       size_t size);
/* One RUNPATH entry of len bytes with $ORIGIN (or ${ORIGIN}) read as dir. */
void patch_expand_origin(const char *entry, size_t len, const char *dir, char *out, size_t size);

/* ---- patch_cover.c ---- */

/* The slots of a plan: one per library, and libcudastub.so's after them. */
enum { PATCH_KINDS = CUDASTUB_LIB_COUNT, COMBINED_SLOT = PATCH_KINDS, PATCH_SLOTS };
#define COMBINED_NAME "libcudastub.so"

/* Whether this command's stub of library k stands in for the SONAME
 * name; where it cannot, why. */
enum cover {
	COVER_NONE,	 /* name is none of library k's */
	COVER_STUB,	 /* the stub stands in for it */
	COVER_NOT_BUILT, /* this cudastub was built without that stub */
	COVER_OTHER_ABI, /* its stub exports another CUDA ABI than name's */
};
enum cover patch_cover(int k, const char *name, char *reason, size_t size);

/* ---- patch_stubs.c ---- */

/* The generic name of slot k's stub (libcudart_stub.so, libcudastub.so). */
const char *stub_generic(int k);
/* The file of the stub this command carries for slot k, or NULL. */
const char *stub_source(int k);
/* Whether the stub folder stub_dir (a real path, there or not) holds
 * name as a copy of source: a content name there is the same content (it
 * is only ever put there whole). */
int stub_present(const char *stub_dir, int k, const char *name, const char *source);
/* The same in the open stub folder dir. */
int stub_present_at(int dir, int k, const char *name, const char *source);
/* The stub file source (a real path) opened to read: a stub a wheel
 * ships lies in anyone's tree, so no link is followed on the way; st its
 * fstat. A descriptor, or -1 with errno. */
int stub_open_source(const char *source, struct stat *st);

/* ---- patch_plan.c ---- */

enum { UNCOVERED_MAX = 32 };
/* An NVIDIA library a file still needs, and why no stub stands in. */
struct uncovered {
	char name[256], reason[160];
};
/* What one file needs done; filled by plan_file, carried out by
 * apply_plan. */
struct plan {
	const char *path;
	char needed[16384], runpath_now[8192]; /* what the file has */
	char dir[4096], stub_dir[4096];	       /* real paths */
	const char *from[PATCH_SLOTS];	       /* names to replace, by slot */
	char names[PATCH_SLOTS][256];
	int uses[PATCH_SLOTS]; /* the stub of that slot is (or will be) needed */
	char runpath[8192];    /* the RUNPATH to set, or "" to leave it */
	int copy[PATCH_SLOTS]; /* the stub must be copied in */
	/* the name each stub goes by: the generic one, or with --unique-names
	 * its content name (patch_names.c), and the file it is made from */
	char to[PATCH_SLOTS][64];
	char source[PATCH_SLOTS][4096];
	int named[PATCH_SLOTS]; /* needs a content name already: nothing to copy */
	/* every stub in libcudastub.so: --combined, or the file needs it
	 * already; each name in from[] then becomes to[COMBINED_SLOT], or the
	 * entry the file has and keeps (kept: libcudastub.so, or its content
	 * name) */
	int combined;
	const char *kept;
	struct uncovered uncovered[UNCOVERED_MAX];
	int uncovered_count;
	int change;
};
/* Decides what the open file fd (t's) needs: 1 if it has CUDA libraries
 * to deal with, 0 if not, 2 if its dynamic section cannot be read
 * (reported; left alone, as a file with nothing to patch is), -1 if it is
 * refused (reported). */
int plan_file(struct patch_options *o, const struct patch_target *t, int fd, struct plan *p);
/* " still needs a, b: <reason>; c: <reason>;" for the file's line, or "". */
void plan_uncovered_text(const struct plan *p, char *out, size_t size);
/* Whether needed (one DT_NEEDED entry a line) has the entry name. */
int plan_needs_name(const char *needed, const char *name);

/* ---- patch_identity.c ---- */

enum { IDENTITY_NOTES = 4 };
/* What a replacement could not keep, a line each for the output. */
struct identity_notes {
	int count;
	char line[IDENTITY_NOTES][240];
};
/* Gives out the identity of the original (open as original, st its
 * fstat); 0, or -1 with why. */
int identity_copy(int original, const struct stat *st, int out, struct identity_notes *n, char *why,
		  size_t wsize);

/* ---- patch_apply.c ---- */

/* Copies the stubs in, then patches a copy of t's file (open and locked
 * as fd, st its fstat) in a private folder beside it, checks the copy,
 * gives it the original's identity, syncs it and renames it over the
 * original, then syncs the folder. 0, or -1 with why (the original
 * untouched). */
int apply_plan(const struct plan *p, const struct patch_target *t, int fd, const struct stat *st,
	       struct identity_notes *n, char *why, size_t wsize);
/* The new copy of t's file (open as copy, named name in the folder from)
 * takes the identity of the original (open as original, st its fstat),
 * is synced and renamed over t's name; then t's folder is synced. 0, or
 * -1 with why (the original in place). */
int apply_replace(const struct patch_target *t, int original, const struct stat *st, int from,
		  const char *name, int copy, struct identity_notes *n, char *why, size_t wsize);
/* Copies the stubs the plan marks into its stub folder, under the
 * folder's lock, each through a private folder; 0, or -1 with why. */
int apply_stubs(const struct plan *p, char *why, size_t wsize);

/* ---- patch_check.c ---- */

/* Whether the file fd (path) loads its stubs: every DT_NEEDED entry
 * naming a stub is found through its RUNPATH or RPATH ($ORIGIN read as
 * dir, the file's folder's real path) and defines every version the file
 * needs of it. 0, or -1 after printing each fault. */
int check_loads(const char *path, int fd, const char *dir, const char *needed, const char *runpath);

/* ---- patch_hardlinks.c ---- */

/* Reports that t's file (st) has other names and is left alone, naming
 * those found under the paths given; counted as an error. */
void hardlinks_refuse(struct patch_options *o, const struct patch_target *t, const struct stat *st);
void hardlinks_release(struct patch_options *o);

/* ---- patch_file.c ---- */

/* Patches (plans, or checks) t's file, reporting what it did. */
void patch_file(struct patch_options *o, const struct patch_target *t);
/* t's file opened (fs_open_regular): 0 with *fd, or 1 when there is
 * nothing to do (gone since a walk met it, or reported and counted). */
int patch_open(struct patch_options *o, const struct patch_target *t, int *fd, struct stat *st);
/* Locks the open file fd (exclusive unless the run only reads) and checks
 * that t's name still names it, st then its fstat: 0 when it does, 1 when
 * it was renamed over meanwhile (start again), -1 with errno. */
int patch_lock(const struct patch_options *o, const struct patch_target *t, int fd,
	       struct stat *st);

/* ---- patch_tree.c ---- */

/* Every ELF file under the folder root (open; path as the output names
 * it), with the stubs in o->stub_real. */
void patch_tree(struct patch_options *o, int root, const char *path);
/* A folder named as a private folder: reported by --check, removed by a
 * run when a killed run of this user left it. */
void patch_leftover(struct patch_options *o, int dir, const char *name, const char *path);

/* ---- patch_unpacked.c ---- */

/* Whether the open folder root is an unpacked wheel (holds one
 * .dist-info): then patched as a wheel, with one stub folder and content
 * names, grafted NVIDIA libraries nothing needs removed: 0 (-1 counted
 * as an error); 1 when it is no wheel. */
int patch_unpacked_wheel(struct patch_options *o, int root, const char *path);
/* The one entry of the folder dir whose name ends with suffix (and does
 * not start with a dot), in out; 0, or -1 when none or several. */
int patch_only_entry(int dir, const char *suffix, char *out, size_t size);

/* ---- patch_wheel.c ---- */

/* Whether name is a .whl file's. */
int patch_is_wheel_name(const char *name);
/* The .whl file t: unpacked into a private folder beside it, patched
 * there, packed again and renamed over it. */
void patch_wheel(struct patch_options *o, const struct patch_target *t);

/* ---- patch.c ---- */

/* The patch command; argv[0] is "patch". Returns the exit status. */
int cli_patch(int argc, char **argv);

#endif

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
 *   patch_cover.c    the CUDA ABI a file needs, and which stub stands in
 *                    for which library
 *   patch_identity.c owner, group, mode and attributes of a replacement
 *   patch_names.c    the names stubs go by
 *   patch_runpath.c  where a RUNPATH leads
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
	/* --unique-names: accepted; a stub's name is unique already (patch_names.c) */
	int unique_names;
	int combined; /* --combined: every stub of the file's ABI in libcudastub_cu<major> */
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

/* The slots of a plan: one per library, and libcudastub_cu<major>'s after. */
enum { PATCH_KINDS = CUDASTUB_LIB_COUNT, COMBINED_SLOT = PATCH_KINDS, PATCH_SLOTS };

/* A stub's name as a DT_NEEDED entry has it: a slot (its library, or
 * COMBINED_SLOT), and the form of the name. */
enum stub_form {
	STUB_TAGGED,	     /* lib<lib>_stub_cu<abi>-<tag>.so: a build's, of one ABI */
	STUB_LEGACY,	     /* lib<lib>_stub.so: an earlier cudastub's, every build's */
	STUB_LEGACY_CONTENT, /* lib<lib>_stub-<8 hex>.so: the same, named by content */
};
struct stub_ref {
	int slot, abi; /* abi: STUB_TAGGED's */
	enum stub_form form;
};
/* Whether name is a stub's; its slot, ABI and form in ref. */
int stub_parse(const char *name, struct stub_ref *ref);

/* ---- patch_runpath.c ---- */

/* One RUNPATH entry of len bytes with $ORIGIN (or ${ORIGIN}) read as dir. */
void patch_expand_origin(const char *entry, size_t len, const char *dir, char *out, size_t size);
/* The first file name that runpath (with $ORIGIN as dir, a real path)
 * leads to and the dynamic loader would take for a file of elf_class and
 * machine: its descriptor and path (in found), or -1. */
int runpath_find(const char *runpath, const char *dir, const char *name, int elf_class, int machine,
		 char *found, size_t size);

/* ---- patch_cover.c ---- */

/* The CUDA ABI of the stubs the file open as fd needs (needed: its
 * DT_NEEDED entries, one a line): the major its libraries name, else the
 * newest whose stubs define what it imports. 0 (why says it) when this
 * cudastub has no stubs of that ABI, -1 (why) when the file names two. */
int patch_file_abi(int fd, const char *needed, char *why, size_t size);
/* Whether this cudastub's stub of library k for the CUDA abi stands in
 * for the SONAME name; where it cannot, why. */
enum cover {
	COVER_NONE,	 /* name is none of library k's */
	COVER_STUB,	 /* the stub stands in for it */
	COVER_NOT_BUILT, /* this cudastub has no such stub of that ABI */
	COVER_OTHER_ABI, /* name is of another CUDA major than abi */
};
enum cover patch_cover(int k, const char *name, int abi, char *reason, size_t size);

/* ---- patch_stubs.c ---- */

/* The file of this cudastub's stub for slot k and the CUDA abi (a real
 * path, in out), or NULL. */
const char *stub_source(int k, int abi, char *out, size_t size);
/* A stub file's name (its SONAME), from its path. */
const char *stub_file_name(const char *source);
/* Whether the stub folder stub_dir (a real path, there or not) holds
 * name as a copy of source, byte for byte. */
int stub_present(const char *stub_dir, const char *name, const char *source);
/* The same in the open stub folder dir. */
int stub_present_at(int dir, const char *name, const char *source);
/* Whether the open file there (closed here) holds the bytes of the build's
 * stub source. */
int stub_same_as_source(int there, const char *source);
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
	int abi;	   /* the CUDA ABI of the stubs the file gets (patch_file_abi) */
	char abi_why[160]; /* when this cudastub has no stubs of that ABI, why */
	char needed[16384], runpath_now[8192]; /* what the file has */
	char dir[4096], stub_dir[4096];	       /* real paths */
	const char *from[PATCH_SLOTS];	       /* names to replace, by slot */
	char names[PATCH_SLOTS][256];
	int uses[PATCH_SLOTS]; /* the stub of that slot is (or will be) needed */
	char runpath[8192];    /* the RUNPATH to set, or "" to leave it */
	int copy[PATCH_SLOTS]; /* the stub must be copied in */
	/* the name each stub goes by (its file's, which is its SONAME), and
	 * the file it is copied from */
	char to[PATCH_SLOTS][64];
	char source[PATCH_SLOTS][4096];
	/* needs a stub of another build already (or an earlier cudastub's
	 * named by content): left as it is, nothing to copy */
	int named[PATCH_SLOTS];
	/* every stub in libcudastub_cu<major>: --combined, or the file needs
	 * it already; each name in from[] then becomes to[COMBINED_SLOT] */
	int combined;
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

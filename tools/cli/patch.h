/*
 * `cudastub patch`: point built ELF files at the stubs instead of NVIDIA's
 * libraries (patch.c), through patchelf (patchelf.c), after telling what
 * each file is (elf_kind.c); its command line is read by patch_args.c, and
 * symbolic links are dealt with by patch_links.c.
 */
#ifndef CUDASTUB_CLI_PATCH_H
#define CUDASTUB_CLI_PATCH_H

#include <stddef.h>

/* patchelf.c: the patchelf on PATH, or NULL. */
const char *patchelf_find(void);
/* Each returns 0 on success. The printing ones put patchelf's output,
 * one DT_NEEDED entry a line or the RUNPATH, in out. */
int patchelf_needed(const char *file, char *out, size_t size);
int patchelf_runpath(const char *file, char *out, size_t size);
/* Replaces each from[i] with to[i] (count at most CUDASTUB_LIB_COUNT). */
int patchelf_replace_needed(const char *file, const char *const *from, const char *const *to,
			    int count);
int patchelf_set_runpath(const char *file, const char *runpath);
int patchelf_set_soname(const char *file, const char *soname);

/* elf_kind.c: what a file is, read from its ELF and program headers. */
enum elf_kind {
	ELF_KIND_OTHER,	  /* not an ELF executable or shared library */
	ELF_KIND_STATIC,  /* one without a dynamic section: statically linked */
	ELF_KIND_DYNAMIC, /* one the dynamic loader reads DT_NEEDED from */
};
enum elf_kind elf_kind(const char *file);

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
	int changes, errors, quiet_files, static_files, other_files;
	int uncovered_files; /* files that still need an NVIDIA library no stub covers */
};
/* Reads argv into o; -1 after printing a usage error. */
int patch_parse(int argc, char **argv, struct patch_options *o);
/* Resolves o->stub_dir into o->stub_real, making the folder (and those
 * above it) unless nothing is to change; -1 after printing why not. */
int patch_stub_folder(struct patch_options *o);

/* patch_links.c: fills o->reals and o->is_dir (0, or -1 out of memory),
 * and frees them. */
int patch_resolve_paths(struct patch_options *o);
void patch_release_paths(struct patch_options *o);
/* The path given that deals with the file real: a folder given that holds
 * it, or a file given before the path numbered before; NULL if none. */
const char *patch_dealt_with_by(const struct patch_options *o, const char *real, int before);
/* Reports a link a folder walk met (never followed). */
void patch_link_met(struct patch_options *o, const char *link);

/* nvidia_names.c: whether a DT_NEEDED entry names one of NVIDIA's
 * libraries (covered by a stub or not). */
int nvidia_library(const char *name);
/* name without the hash auditwheel puts in the names of the libraries it
 * grafts ("libcudart-96c42e41.so.13": "libcudart.so.13", in buf), or name
 * itself. */
const char *nvidia_unhashed(const char *name, char *buf, size_t size);

/* patch.c: the patch command; argv[0] is "patch". Returns the exit status. */
int cli_patch(int argc, char **argv);

/* patch_names.c: --unique-names. The content name of stub_file as a stand-in
 * for generic ("libcudart_stub.so" -> "libcudart_stub-<hash>.so"); 0 or -1. */
int patch_content_name(const char *stub_file, const char *generic, char *out, size_t size);
/* Whether name is a content name of generic's. */
int patch_is_content_name(const char *name, const char *generic);
/* The real path of the generic stub that file (in dir) loads through its
 * RUNPATH, the one its wheel ships; NULL when none holds one. */
const char *patch_shipped_stub(const char *file, const char *dir, const char *generic, char *out,
			       size_t size);

/* elf_dynamic.c: file's DT_NEEDED entries (one a line) and its RUNPATH or
 * RPATH, as patchelf prints them, read from its dynamic section alone; 0,
 * or -1 when it cannot (then ask patchelf). */
int elf_dynamic_strings(const char *file, char *needed, size_t nsize, char *runpath, size_t rsize);
/* The same questions answered from the file, else by patchelf; 0 or -1. */
int patch_read_needed(const char *file, char *out, size_t size);
int patch_read_runpath(const char *file, char *out, size_t size);

/* patch.c: every ELF file under dir, as a folder given is walked. */
void patch_tree(struct patch_options *o, const char *dir);
/* The same, with the stubs in folder (made if need be, removed again if
 * nothing went there), named by content if unique_names; 0, or -1 counted
 * as an error. */
int patch_tree_into(struct patch_options *o, const char *root, const char *folder,
		    int unique_names);

/* patch_wheel.c: whether path is a .whl file, and patching one as a wheel
 * (unpacked, patched with a stub folder of its own and content names,
 * grafted NVIDIA libraries nothing needs removed, packed again); 0 or -1. */
int patch_is_wheel(const char *path);
/* A folder that is an unpacked wheel (one .dist-info in it) is patched as
 * a wheel, with its stub folder and content names, and grafted NVIDIA
 * libraries nothing needs removed (counted in *dropped): 0; 1 when root
 * is no wheel. */
int patch_unpacked_wheel(struct patch_options *o, const char *root, int *dropped);
int patch_wheel(struct patch_options *o, const char *wheel);

#endif

/*
 * What every part of `cudastub patch` passes around (patch.h lists the
 * parts): the options and counts of the run, and the file at hand. No
 * file defines anything declared here.
 */
#ifndef CUDASTUB_CLI_PATCH_TYPES_H
#define CUDASTUB_CLI_PATCH_TYPES_H

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

#endif

/*
 * The cudastub command: what its parts share.
 *
 *   cudastub.c    main: argument parsing, --help, --version, dispatch
 *   info.c        the info command: its arguments and its exit status
 *   info_collect.c the report's data: a stub's info, escaped, and its file
 *   info_stub.c   --stub: ask a stub file, not the stubs this command links
 *   info_text.c   the report as tables for people
 *   info_json.c   the report as JSON for programs
 *   text_table.c  column-aligned text tables
 *   json.c        the JSON writer; json_string.c its string quoting
 *   escape.c      outside text as the command shows it, escaped
 *   patch.c       the patch command; patchelf.c what it asks of patchelf;
 *                 patch_args.c its command line; patch_links.c symbolic
 *                 links; elf_kind.c static or dynamic; nvidia_names.c
 *                 NVIDIA's library names, auditwheel's hashed ones
 *
 * Every string the command prints is in the escaped form of the loader's
 * one escape (stubs/loader/platform/loader_escape.h): the stubs keep messages
 * (errors, outcomes, the choice of major) escaped, and the command escapes
 * what they keep as data (paths) as it collects
 * the report, and every file name, argument or patchelf answer it prints.
 * The printers then copy text as it is; JSON only quotes it.
 */
#ifndef CUDASTUB_CLI_H
#define CUDASTUB_CLI_H

#include <stdio.h>

#include "cudastub/cudastub.h"

#ifndef CUDASTUB_CLI_VERSION
#error "CUDASTUB_CLI_VERSION comes from the build (the project version)"
#endif

/* One file name a library goes by, and the CUDA major it belongs to (0:
 * every major, the driver's libcuda.so.1). */
struct cli_soname {
	int major;
	const char *name;
};

/* Every library a stub stands in for, in cudastub_lib order (generated
 * from the specs: generated/libraries.c). A number no library has (a hole:
 * one retired) is all zero, its name NULL. */
struct cli_known_library {
	const char *name;		  /* "cudart" */
	const char *what;		  /* "runtime", for messages */
	const char *env_path;		  /* "CUDASTUB_CUDART_PATH" */
	int release_aware;		  /* see struct cli_library */
	const struct cli_soname *sonames; /* ends with {0, NULL} */
	/* the file (and SONAME) of its stub for each CUDA ABI this cudastub
	 * has, newest first; ends with {0, NULL} */
	const struct cli_soname *stubs;
	/* the folder of its shim below a shim tree's cu<N>/ ("" or
	 * "driver"): libraries a program may want apart */
	const char *shim_folder;
};
extern const struct cli_known_library cli_known_libraries[CUDASTUB_LIB_COUNT];
/* libcudastub_cu<major>'s file for each CUDA ABI, newest first; ends with
 * {0, NULL} */
extern const struct cli_soname cli_combined_files[];

/* One library as the report shows it. */
struct cli_library {
	const char *name;     /* "cudart", "nvrtc" or "cuda" */
	const char *env_path; /* the override variable, "CUDASTUB_NVRTC_PATH" */
	/* whether its stub prefers the process's CUDA release (every library
	 * but the driver; stubs/loader/search/loader_release.c) */
	int release_aware;
	/* A copy of the stub's info, every string in it escaped; for a stub
	 * this command does not link, state NOT_LINKED and everything else
	 * empty. */
	cudastub_library_info info;
	/* the escaped copies of the stub's data that info points to, owned
	 * here: the path, the attempts and their paths */
	char *path;
	cudastub_attempt *attempts;
	/* the stub file that answered (the command's own, or --stub's),
	 * escaped; NULL when unknown or not linked */
	char *stub_path;
};

/* A set of libraries: bit 1u << lib for each cudastub_lib; 0 is all. */
typedef unsigned cli_library_set;

/* Fills libs[CUDASTUB_LIB_COUNT] with every library of wanted, as its
 * stub for the CUDA abi reports it, in cudastub_lib order less the holes,
 * and returns how many. With load set, runs each of those stubs' search
 * first (and only theirs); without, reports only what needs no loading.
 * cli_release frees what it allocated. */
int cli_collect(struct cli_library *libs, cli_library_set wanted, int load, int abi);
void cli_release(struct cli_library *libs, int count);
/* l as the report shows library lib: info (NULL: not linked) copied, its
 * data escaped, and the stub file it lives in. */
void cli_fill(struct cli_library *l, int lib, const cudastub_library_info *info);

/* stub_files.c: this cudastub's stubs. The folder that holds them (its
 * real path), or NULL when this command has none at hand. */
const char *cli_stub_folder(void);
/* The path of library lib's stub for the CUDA abi (a major), in out; NULL
 * when this cudastub has no such stub at hand. */
const char *cli_stub_file(int lib, int abi, char *out, size_t size);
/* The same for libcudastub_cu<abi>, every stub of the ABI in one file. */
const char *cli_combined_file(int abi, char *out, size_t size);
/* The CUDA ABIs whose stubs are at hand, newest first, in abis; how many. */
int cli_stub_abis(int *abis, int max);

/* The library a name on the command line means ("cudart"; the CMake
 * target's word too, "cuda_driver"; any case), or -1. */
int cli_library_by_name(const char *name);

/* info_stub.c: the stub file at path, dlopen()ed RTLD_LOCAL (so that its
 * entry points never interpose on another's), or NULL with *why. */
void *cli_open_stub(const char *path, const char **why);
/* The entry points of library lib that the stub file opened as handle
 * itself defines (not one of its dependencies); 0, or -1 when it has none. */
int cli_stub_entry_points(void *handle, int lib, const cudastub_library_info *(**info)(void),
			  cudastub_state (**load)(void));
/* --stub: dlopen()s the stub file at path and fills libs with the library
 * (normally one) whose entry points the file itself defines, after
 * running its search. Returns how many, or -1 after printing why the file
 * is not a cudastub stub (a usage error). *handle keeps the file open
 * until the report is printed. */
int cli_collect_stub(struct cli_library *libs, const char *path, void **handle);

/* text escaped (stubs/loader/platform/loader_escape.h), in a new string to free;
 * NULL when memory is short. */
char *cli_escaped(const char *text);
/* Prints one line: fmt formatted (its arguments may hold any byte: file
 * names, arguments, patchelf's answers), escaped as a whole, and a line
 * break. fmt itself holds no line break. */
void cli_line(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

void cli_info_text(FILE *out, const struct cli_library *libs, int count);
void cli_info_json(FILE *out, const struct cli_library *libs, int count);

/* The info command; argv[0] is "info". Returns the exit status. */
int cli_info(int argc, char **argv);
/* shim.c: `cudastub shim DIR`, the drop-in shims made from the stubs. */
int cli_shim(int argc, char **argv);

/* Prints the usage of the whole command. */
void cli_usage(FILE *out);

/* Exit status: a named library (or --stub's) not found; a usage error. */
enum { CLI_EXIT_NOT_FOUND = 1, CLI_EXIT_USAGE = 2 };

#endif

/*
 * The search, phase by phase: the candidates in their order
 * (loader_search.c, loader_python.c, loader_ldcache.c), the checks of each
 * file before dlopen (loader_elf.c, loader_trust.c, loader_symtab.c), the
 * opening and probing of one (loader_candidate.c, loader_probe.c), what is
 * loaded already (loader_loaded.c), and the companion it needs
 * (loader_companion.c).
 */
#ifndef CUDASTUB_LOADER_SEARCH_H
#define CUDASTUB_LOADER_SEARCH_H

#include "loader_core.h"

/* loader_candidate.c */
struct cudastub_self {
	const void *link_map; /* our own object */
	const char *path;     /* our own file, as the loader knows it */
	unsigned long dev, ino;
};
CUDASTUB_HIDDEN void cudastub_self_identify(struct cudastub_self *self);
enum cudastub_try {
	CUDASTUB_TRY_LOADED,   /* lib->handle and info are set */
	CUDASTUB_TRY_ABSENT,   /* nothing there */
	CUDASTUB_TRY_REJECTED, /* something there, not usable */
	CUDASTUB_TRY_SELF      /* a stub answered: look past the loader's pick */
};
CUDASTUB_HIDDEN enum cudastub_try cudastub_try_candidate(struct cudastub_search *s,
							 const struct cudastub_self *self,
							 cudastub_source source, int major,
							 const char *path, int dlopen_flags);

/* loader_elf.c: reads n bytes at offset at into buf; 0 when all were read. */
struct cudastub_elf_source {
	int (*read)(void *ctx, void *buf, size_t n, uint64_t at);
	void *ctx;
	uint64_t size; /* of the whole file */
};
enum { CUDASTUB_ELF_MAX_LOADS = 16 };
/* Why the file src reads is not a library this process could map, or NULL
 * when dlopen may have it; why (size bytes) holds a reason with numbers. */
CUDASTUB_HIDDEN const char *cudastub_elf_reject(const struct cudastub_elf_source *src, char *why,
						size_t size);
/* The same for the file at path; *absent is set when there is no file. */
CUDASTUB_HIDDEN const char *cudastub_elf_check_file(const char *path, int *absent, char *why,
						    size_t size);

/* loader_probe.c: dlsym(handle, name) for a version probe, or NULL when
 * the function's first code is zeros (a damaged file); the reason is kept
 * until taken for that handle, written in why (size bytes): why, or NULL
 * when there is none. */
CUDASTUB_HIDDEN void *cudastub_probe_symbol(void *handle, const char *name);
CUDASTUB_HIDDEN const char *cudastub_probe_take_refusal(void *handle, char *why, size_t size);

/* loader_candidate.c: whether an opened object is a cudastub build (it
 * defines a cudastub_<lib>_info of its own), not NVIDIA's. */
CUDASTUB_HIDDEN int cudastub_is_stub_build(void *handle);

/* loader_trust.c: why a file the search derived by itself (not named by
 * the user or the system) must not be loaded, or NULL: the file, as
 * resolved and as named, and every folder above it owned by root or the
 * real user and writable by no one else (a sticky folder may stand above
 * the one that holds it). why holds size bytes. */
CUDASTUB_HIDDEN const char *cudastub_trust_derived_file(const char *path, char *why, size_t size);
/* Whether the process runs in secure mode (AT_SECURE: set-user-ID,
 * set-group-ID, file capabilities): then no derived folder is searched. */
CUDASTUB_HIDDEN int cudastub_secure_mode(void);

/* loader_python.c: the folders step 3 looks under, in its order: roots
 * holding pip's nvidia/<component>/lib folders, or (conda) the library
 * files themselves. */
enum cudastub_root_kind { CUDASTUB_ROOT_WHEELS, CUDASTUB_ROOT_LIBRARY_FOLDER };
enum { CUDASTUB_MAX_PYTHON_ROOTS = 16 };
struct cudastub_python_roots {
	unsigned count;
	struct {
		char path[4096];
		enum cudastub_root_kind kind;
		const char *why; /* how it was found, for the log */
	} root[CUDASTUB_MAX_PYTHON_ROOTS];
};
/* Appends the Python and conda roots to roots (resolved, each once). */
CUDASTUB_HIDDEN void cudastub_python_roots(struct cudastub_python_roots *roots,
					   int loaded_from_python);

/* loader_companion.c */
CUDASTUB_HIDDEN void cudastub_load_companion(struct cudastub_search *s);

/* loader_ldcache.c: calls visit with each path the cache holds for soname
 * until it returns non-zero; returns that value, or 0. _parse reads a cache
 * already in memory (size bytes), trusting nothing in it. */
CUDASTUB_HIDDEN int cudastub_ldcache_each(const char *soname,
					  int (*visit)(const char *path, void *ctx), void *ctx);
CUDASTUB_HIDDEN int cudastub_ldcache_parse(const unsigned char *cache, size_t size,
					   const char *soname,
					   int (*visit)(const char *path, void *ctx), void *ctx);

/* loader_loaded.c: whether an object whose SONAME or file name is soname
 * was in the process when search s began (s NULL: now), read from the
 * process's list of objects with no system call (dlopen with RTLD_NOLOAD
 * searches the file system for a name that is not loaded): 0, or 1 for
 * "perhaps" (a hash matched: the caller's dlopen with RTLD_NOLOAD then
 * says for sure); dlopen(soname, flags | RTLD_NOLOAD) for one that is,
 * else NULL; which release SONAMEs are loaded (indices into
 * cudastub_release_sonames, ascending); and, once a search has loaded
 * something it keeps, a fresh look at the list for its next question. */
CUDASTUB_HIDDEN int cudastub_is_loaded(struct cudastub_search *s, const char *soname);
CUDASTUB_HIDDEN void *cudastub_dlopen_loaded(struct cudastub_search *s, const char *soname,
					     int flags);
CUDASTUB_HIDDEN size_t cudastub_loaded_releases(struct cudastub_search *s, unsigned short *hits,
						size_t max);
CUDASTUB_HIDDEN void cudastub_loaded_forget(struct cudastub_search *s);
/* Whether an object of the process may come from a Python package folder
 * (site-packages/, dist-packages/): 0 only when the search's list of
 * objects has none. */
CUDASTUB_HIDDEN int cudastub_loaded_from_python(struct cudastub_search *s);

/* loader_symtab.c: read through an object's own GNU hash table, not
 * dlsym's search of its dependencies too. Whether the object of map
 * itself defines any of names (NULL-ended; hashes, when not NULL, their
 * GNU hashes in the same order): 1 or 0, or -1 when it has no table this
 * can read (then ask dlsym). The size of its symbol name, when
 * the object itself defines it at address: 0, else -1. */
struct link_map;
CUDASTUB_HIDDEN int cudastub_object_defines_any(const struct link_map *map,
						const char *const *names, const uint32_t *hashes);
CUDASTUB_HIDDEN int cudastub_object_symbol_size(const struct link_map *map, const char *name,
						const void *address, size_t *size);
/* The address of the function or object name that the object of map
 * itself defines (its default version), or NULL (not there, an IFUNC, or
 * no table this can read). */
CUDASTUB_HIDDEN void *cudastub_object_symbol(const struct link_map *map, const char *name);
/* The same, and its size in *size. */
CUDASTUB_HIDDEN void *cudastub_object_symbol_sized(const struct link_map *map, const char *name,
						   size_t *size);

/* loader_search.c */
CUDASTUB_HIDDEN cudastub_state cudastub_search(struct cudastub_search *s);
/* Joins two or three parts of a path with '/' into out (PATH_MAX bytes; b
 * and c may be NULL). One too long is skipped (0), never truncated into
 * the name of some other file. */
CUDASTUB_HIDDEN int cudastub_path_join(char *out, const char *a, const char *b, const char *c);
/*
 * The files dlopen(soname) from this stub would consider, in its order: the
 * folders of RTLD_DI_SERINFO that are not the system's defaults
 * (LD_LIBRARY_PATH, the stub's RUNPATH), ld.so.cache, then the default
 * folders. Calls visit with each path that exists until it returns
 * non-zero, and returns that value, or 0. Walking by full path lets every
 * file be checked before dlopen, and a stub under the real SONAME (a shim)
 * be skipped by file instead of hiding what lies behind it.
 */
CUDASTUB_HIDDEN int cudastub_loader_walk(struct cudastub_search *s, const char *soname,
					 int (*visit)(const char *path, void *ctx), void *ctx);
/* The same, as dlopen(soname) from the object of handle would look. */
CUDASTUB_HIDDEN int cudastub_loader_walk_from(void *handle, const char *soname,
					      int (*visit)(const char *path, void *ctx), void *ctx);

#endif /* CUDASTUB_LOADER_SEARCH_H */

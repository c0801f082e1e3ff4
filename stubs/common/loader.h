/*
 * The shared loader: one copy, linked into each stub.
 *
 * A stub describes its library once (struct cudastub_library) and its
 * functions in a generated table (struct cudastub_function in each row,
 * table.h). The first call of any export reaches, through the one bind
 * (loader_row.c), cudastub_loader_bind(), which makes sure a search
 * has been published and returns the real symbol, or NULL when the call must
 * not be forwarded. Everything here runs at most once per function; nothing here is
 * on the hot path.
 *
 * The search reads as phases, each in a file of its own:
 *   loader_search.c    list the candidates, step by step, newest major first
 *   loader_candidate.c open one, verify it (not ourselves, not another stub,
 *                      not rejected by the library), probe its version
 *   loader_elf.c       check a file is a sound library before dlopen maps it
 *   loader_companion.c load what the chosen library will dlopen by name
 *   loader_ldcache.c   read /etc/ld.so.cache, to look past a stub by hand
 *   loader_load.c      search without holding a lock, publish one outcome
 *   loader_fork.c      keep fork() out of a library being mapped
 *   loader_exit.c      keep exit() out of a library being loaded
 *   loader_log.c       remember what was tried; CUDASTUB_DEBUG output
 *   loader_bind.c      gate a function by major and look it up
 *   loader_row.c       bind an export from its row: the loader, its route,
 *                      its adapter, its fallback
 */
#ifndef CUDASTUB_LOADER_H
#define CUDASTUB_LOADER_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "cudastub/cudastub.h"
#include "loader_escape.h" /* cudastub_escape(), which the cudastub command shares */

#define CUDASTUB_HIDDEN __attribute__((visibility("hidden")))
#define CUDASTUB_EXPORT __attribute__((visibility("default")))

/* Majors as bits of a mask: bit 11 for CUDA 11, and so on. */
#define CUDASTUB_MAJOR_BIT(m) ((uint32_t)1 << (m))

/* One file name the library ships under, for one major. */
struct cudastub_soname {
	int major;
	const char *soname;
};

/* Why a function is not forwarded; indexes cudastub_library.codes. */
enum cudastub_unavailable {
	CUDASTUB_UNAVAILABLE_LIBRARY = 0,  /* no library loaded */
	CUDASTUB_UNAVAILABLE_FUNCTION = 1, /* loaded library, older, lacks it */
	CUDASTUB_UNAVAILABLE_ABI = 2,	   /* same name, different ABI */
	CUDASTUB_UNAVAILABLE_REMOVED = 3,  /* loaded library, newer, dropped it */
	CUDASTUB_UNAVAILABLE_COUNT
};

/*
 * A generated row per exported function. It holds no pointer, so the table
 * costs the loader no relocation; the function's name reaches the loader
 * from the code that binds it.
 *   same_abi:   majors whose headers declare this name with the prototype
 *               and struct layouts the stub was built with: forward.
 *   if_present: majors whose headers we have lack the name but a newer
 *               major declares it identically, so a later minor of that
 *               major may export it: forward if dlsym finds it.
 *   other_abi:  majors that declare the name with a different ABI: never
 *               call it.
 */
struct cudastub_function {
	uint32_t same_abi;
	uint32_t if_present;
	uint32_t other_abi;
};

/* The log's room (loader_log.c): attempts kept, arena bytes, and the part
 * of the arena only the conclusion (error, path, summary) may use. */
enum { CUDASTUB_MAX_ATTEMPTS = 64, CUDASTUB_ARENA_SIZE = 32768, CUDASTUB_ARENA_CONCLUSION = 12288 };

struct cudastub_library;
struct cudastub_self;

/*
 * One run of the search, with a log of its own. Threads that race a first
 * call each search into their own record and the first to finish publishes
 * it (loader_load.c); a published record never changes again.
 */
struct cudastub_search {
	struct cudastub_library *lib;
	void *handle; /* the chosen library, or NULL */
	cudastub_library_info info;
	cudastub_attempt attempts[CUDASTUB_MAX_ATTEMPTS];
	/* majors the current search pass may load (see loader_search.c) */
	uint32_t pass_majors;
	/* the stub itself, while the search runs (loader_candidate.c) */
	const struct cudastub_self *self;
	/* CUDASTUB_<LIB>_MAJOR as read once when the search began: the major
	 * every candidate must report, or 0 for none (loader_load.c) */
	int pin;
	/* for error strings: what failed, what was tried, what to set */
	const char *summary;
	char arena[CUDASTUB_ARENA_SIZE];
	unsigned arena_used;
};

/* Everything the loader knows of one library: description and state. */
struct cudastub_library {
	/* ---- set by the stub, never changed ---- */
	const char *name;      /* "nvrtc" */
	const char *env_path;  /* "CUDASTUB_NVRTC_PATH" */
	const char *env_major; /* "CUDASTUB_NVRTC_MAJOR" */
	const char *family;    /* file name prefix: "libnvrtc" */
	/* newest major first; ends with {0, NULL} */
	const struct cudastub_soname *sonames;
	/* pip wheel folders relative to an ancestor of the stub; NULL-ended */
	const char *const *wheel_dirs;
	/* Reads the version of a candidate (path as opened), as the CUDA
	 * major and minor it belongs to; returns 0 when the candidate is this
	 * library. */
	int (*probe_version)(void *handle, const char *path, int *major, int *minor);
	/* Optional, for a library versioned apart from CUDA (cuFFT 11.2.1 is
	 * CUDA 12): its own major, minor and patch; 0 when it answered. */
	int (*own_version)(void *handle, int own[3]);
	/* Optional: majors to search before the others (a mask of
	 * CUDASTUB_MAJOR_BIT), or 0 for no preference; may fill
	 * info.driver_version and info.choice. Not used under a pin or an
	 * override. */
	uint32_t (*preferred_majors)(struct cudastub_search *search);
	/* With preferred_majors: ask the driver itself for its version,
	 * loading it, where others read it from its file's name (the runtime,
	 * whose library needs the driver anyway: spec release_preference
	 * load_driver). */
	int preference_loads_driver;
	/* Optional: a reason to skip a candidate that opened, or NULL. */
	const char *(*reject)(void *handle);
	/* Optional: runs after the library is loaded and before any call is
	 * forwarded to it, on every path that loads (cudart replays the
	 * kernel registrations it deferred). Must return quickly once done,
	 * may be entered by several threads, and must not hold a lock of its
	 * own while calling into the dynamic loader (see loader_load.c). */
	void (*after_load)(struct cudastub_library *lib);
	/* Optional: printf format, given major and minor, of a library the
	 * real one dlopens by bare name at run time and expects beside itself
	 * ("libnvrtc-builtins.so.%d.%d"). Loaded from the same folder so a
	 * library found outside the loader's path still works. */
	const char *companion_format;
	/* Codes the generated fallbacks return, by cudastub_unavailable. */
	int codes[CUDASTUB_UNAVAILABLE_COUNT];
	int abi_major, abi_minor;
	/* What cudastub_<lib>_info() reports before any search has finished */
	cudastub_library_info not_tried;

	/* ---- state: see loader_load.c ---- */
	_Atomic(struct cudastub_search *) result; /* published once */
	atomic_flag first_claimed;		  /* first_search is taken */
	atomic_ulong search_runs;		  /* searches started */
	/* no allocation for the first search: a zeroed object of its own
	 * (.bss), not a part of this one, whose named fields put it in .data:
	 * 34 KiB of zeros in every stub's file otherwise */
	struct cudastub_search *first_search;
	/* the process (cudastub_pid) a thread of which runs a search that
	 * later first calls wait for, or 0 */
	atomic_int searching;
	atomic_int searcher_tid; /* its thread's kernel id: whether it runs */
	atomic_int published;	 /* bumped at each publication: a futex word */
	atomic_int waiters;	 /* threads waiting on it */
};

/* Initializer for the state half of struct cudastub_library. */
#define CUDASTUB_LIBRARY_STATE_INIT(lib_name)                                                      \
	.not_tried = {.name = lib_name,                                                            \
		      .abi_major = CUDASTUB_ABI_MAJOR,                                             \
		      .abi_minor = CUDASTUB_ABI_MINOR},                                            \
	.first_claimed = ATOMIC_FLAG_INIT, .first_search = &(struct cudastub_search)               \
	{                                                                                          \
		.arena_used = 0                                                                    \
	}

/* loader_load.c */
CUDASTUB_HIDDEN cudastub_state cudastub_loader_load(struct cudastub_library *lib);
CUDASTUB_HIDDEN const cudastub_library_info *cudastub_loader_info(struct cudastub_library *lib);

/* The published search, or NULL while none has finished. */
static inline const struct cudastub_search *cudastub_loader_result(struct cudastub_library *lib)
{
	return atomic_load_explicit(&lib->result, memory_order_acquire);
}

/*
 * Where the bind (loader_row.c) stores its answer. The answer is final only once
 * a search has been published: before that (the racing thread's search
 * record could not be allocated, or the process is exiting) the call is
 * answered from its fallback this once, and the slot stays aimed at the
 * resolver, so that the next call binds again instead of keeping a
 * passing failure for the life of the process.
 */
static inline void cudastub_loader_settle_slot(struct cudastub_library *lib, _Atomic(void *) *slot,
					       void *fn)
{
	if (cudastub_loader_result(lib))
		atomic_store_explicit(slot, fn, memory_order_release);
}

/* The loaded library's handle, or NULL (not searched yet, or not found). */
static inline void *cudastub_loader_handle(struct cudastub_library *lib)
{
	const struct cudastub_search *s = cudastub_loader_result(lib);

	return s ? s->handle : NULL;
}

/* Why the search failed, for error strings, or NULL. */
static inline const char *cudastub_loader_summary(struct cudastub_library *lib)
{
	const struct cudastub_search *s = cudastub_loader_result(lib);

	return s ? s->summary : NULL;
}

/* What an error string says for the stub's own library-missing code: why
 * the search failed (searching first if none has run), or NULL once the
 * library is loaded, when the code came from an earlier failure. */
static inline const char *cudastub_loader_why_missing(struct cudastub_library *lib)
{
	if (cudastub_loader_load(lib) == CUDASTUB_STATE_LOADED)
		return NULL;
	return cudastub_loader_summary(lib);
}

/* loader_bind.c */
CUDASTUB_HIDDEN void *cudastub_loader_bind(struct cudastub_library *lib, const char *name,
					   const struct cudastub_function *fn);
CUDASTUB_HIDDEN enum cudastub_unavailable
cudastub_loader_why_unavailable(struct cudastub_library *lib, const struct cudastub_function *fn);
CUDASTUB_HIDDEN int cudastub_loader_unavailable(struct cudastub_library *lib,
						const struct cudastub_function *fn);
/* For the probes (cudaGetDeviceCount, cuDriverGetVersion, ...): sets *out
 * to 0, as the design asks of a missing library, and returns the code. */
CUDASTUB_HIDDEN int cudastub_loader_zero_and_fail(struct cudastub_library *lib, int *out,
						  const struct cudastub_function *fn);
/* Defines such a probe's fallback (spec: custom_fallback NAME) in the stub
 * of cudastub_<lib>_library: cudastub_<lib>_fallback_<name>(int *out). */
#define CUDASTUB_PROBE_FALLBACK(lib, result, name)                                                 \
	result cudastub_##lib##_fallback_##name(int *out)                                          \
	{                                                                                          \
		return (result)cudastub_loader_zero_and_fail(                                      \
			&cudastub_##lib##_library, out, &cudastub_##lib##_rows[F_##name].gate);    \
	}

/* loader_log.c. keep: data (a path) as it is; keep_message: a message,
 * escaped. Both shorten a long text around its middle, and are for the
 * search's conclusion (its attempts go through log_attempt). */
CUDASTUB_HIDDEN const char *cudastub_log_keep(struct cudastub_search *s, const char *text);
CUDASTUB_HIDDEN const char *cudastub_log_keep_message(struct cudastub_search *s, const char *text);
/* text, or when it has size bytes or more, its head and tail around
 * "...(N bytes)..." in out (size bytes). */
CUDASTUB_HIDDEN const char *cudastub_log_shorten(const char *text, char *out, size_t size);
CUDASTUB_HIDDEN void cudastub_log_attempt(struct cudastub_search *s, cudastub_source source,
					  int major, const char *path, const char *outcome);
CUDASTUB_HIDDEN int cudastub_log_enabled(void);
CUDASTUB_HIDDEN void cudastub_log_debug(const struct cudastub_library *lib, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A debug line of text escaped already (what keep_message or log_summary
 * wrote): log_debug would escape its backslashes a second time. */
CUDASTUB_HIDDEN void cudastub_log_debug_escaped(const struct cudastub_library *lib,
						const char *text);
CUDASTUB_HIDDEN int cudastub_log_summary(struct cudastub_search *s, char *buf, unsigned size);

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
 * for this thread until taken (NULL when none). */
CUDASTUB_HIDDEN void *cudastub_probe_symbol(void *handle, const char *name);
CUDASTUB_HIDDEN const char *cudastub_probe_take_refusal(void);

/* loader_candidate.c: whether an opened object is a cudastub build (it
 * defines a cudastub_<lib>_info of its own), not NVIDIA's. */
CUDASTUB_HIDDEN int cudastub_is_stub_build(void *handle);

/* loader_release.c: the majors a search tries first, so that the process
 * keeps one CUDA release (a mask of CUDASTUB_MAJOR_BIT, 0 for none); fills
 * info.driver_version and info.choice. A library's preferred_majors. */
CUDASTUB_HIDDEN uint32_t cudastub_release_preference(struct cudastub_search *search);

/* loader_driver_name.c: the CUDA version (12040) the driver a file name
 * libcuda.so.<driver version> supports, by its branch, or 0 when the name
 * does not say; *at_least is set for a branch newer than any known, whose
 * answer is then the newest known version. _from_file resolves path's
 * links first and copies the driver version ("550.163.01") to driver. */
CUDASTUB_HIDDEN int cudastub_driver_version_of_name(const char *name, int *at_least);
CUDASTUB_HIDDEN int cudastub_driver_version_from_file(const char *path, char *driver, size_t size,
						      int *at_least);

/* generated/libraries.c, from every spec: each library's SONAMEs that
 * belong to one CUDA major (the evidence of a release in the process), and
 * each stub's cudastub_<lib>_info (the mark of a cudastub build). */
extern const struct cudastub_soname cudastub_release_sonames[] CUDASTUB_HIDDEN;
extern const char *const cudastub_stub_markers[] CUDASTUB_HIDDEN;

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
CUDASTUB_HIDDEN void cudastub_python_roots(struct cudastub_python_roots *roots);

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

/* loader_fork.c: the guard is installed before the first search, so that
 * fork() never splits the loader in the middle of a library the stub is
 * loading or of a walk of the loaded ones; the stub's every dlopen,
 * dlclose and dl_iterate_phdr goes through the three calls below, which
 * fork() waits for. */
struct dl_phdr_info;
CUDASTUB_HIDDEN void cudastub_fork_guard_install(void);
CUDASTUB_HIDDEN void *cudastub_dlopen(const char *path, int flags);
CUDASTUB_HIDDEN int cudastub_dlclose(void *handle);
CUDASTUB_HIDDEN int cudastub_dl_iterate_phdr(int (*visit)(struct dl_phdr_info *, size_t, void *),
					     void *data);
/* Why no library can be loaded in this process, or NULL: a child that
 * fork() left with the dynamic loader mid-change (another thread of the
 * parent was in dlopen or dlclose), where the next dlopen would stop the
 * process. Asked once at the start of each search. */
CUDASTUB_HIDDEN const char *cudastub_fork_left_loader_mid_change(void);

/* loader_exit.c: first calls against exit() (see there). A search passes
 * enter before it looks at anything and leave once its library is loaded
 * and its after_load hook has returned; exit() waits, bounded, for the
 * searches between the two. */
enum cudastub_exit_pass {
	CUDASTUB_EXIT_GO,	    /* search and load */
	CUDASTUB_EXIT_EXITING,	    /* exit() has started: load nothing */
	CUDASTUB_EXIT_UNREGISTERED, /* no exit handler could be registered:
				     * load nothing, a later call tries again */
};
CUDASTUB_HIDDEN enum cudastub_exit_pass cudastub_exit_enter(void);
CUDASTUB_HIDDEN void cudastub_exit_leave(enum cudastub_exit_pass pass);
/* A search loaded its library: the exit handler again, newer than the
 * library's own (see loader_exit.c). */
CUDASTUB_HIDDEN void cudastub_exit_loaded(void);
/* Whether this process has begun to exit (its exit handlers or _dl_fini). */
CUDASTUB_HIDDEN int cudastub_exit_started(void);
/* What a search that met exit() says, for error strings and the log. */
CUDASTUB_HIDDEN const char *cudastub_exit_summary(void);

/* loader_loaded.c: whether an object whose SONAME or file name is soname
 * is in the process already, read from the process's list of objects with
 * no system call (dlopen with RTLD_NOLOAD searches the file system for a
 * name that is not loaded); and dlopen(soname, flags | RTLD_NOLOAD) for
 * one that is, else NULL; and which release SONAMEs are loaded, in one
 * walk (indices into cudastub_release_sonames, ascending). */
CUDASTUB_HIDDEN int cudastub_is_loaded(const char *soname);
CUDASTUB_HIDDEN void *cudastub_dlopen_loaded(const char *soname, int flags);
CUDASTUB_HIDDEN size_t cudastub_loaded_releases(unsigned short *hits, size_t max);

/* loader_symtab.c: read through an object's own GNU hash table, not
 * dlsym's search of its dependencies too. Whether the object of map
 * itself defines any of names (NULL-ended): 1 or 0, or -1 when it has no
 * table this can read (then ask dlsym). The size of its symbol name, when
 * the object itself defines it at address: 0, else -1. */
struct link_map;
CUDASTUB_HIDDEN int cudastub_object_defines_any(const struct link_map *map,
						const char *const *names);
CUDASTUB_HIDDEN int cudastub_object_symbol_size(const struct link_map *map, const char *name,
						const void *address, size_t *size);

/* loader_versions.c: a CUDA version (12040) as major and minor; -1 for
 * none (0 or less). */
CUDASTUB_HIDDEN int cudastub_version_decode(int version, int *major, int *minor);
/* A library's own version and the first of it in a CUDA release (the
 * spec's release lines, newest first, ending with cuda_major 0). */
struct cudastub_release_line {
	int cuda_major;
	int first[3]; /* major, minor, patch */
};
/* The CUDA major own belongs to: the newest line whose first version is
 * not newer than own; -1 when own is older than every line. */
CUDASTUB_HIDDEN int cudastub_release_of(const struct cudastub_release_line *lines,
					const int own[3]);
/* "<family>.so.<major>.<minor>[.<more>...]" (libcudart.so.11.8.89) as major
 * and minor: 0, or -1 for any other name. Digits only, no sign, major 1 to
 * 99, minor 0 to 99. */
CUDASTUB_HIDDEN int cudastub_version_from_file_name(const char *name, const char *family,
						    int *major, int *minor);
/* A version a library writes as text ("12.550.163.01": NVML's), read as
 * its first three numbers (own; a missing one is 0): 0, or -1 unless the
 * text, within size bytes and ended by NUL, is numbers of at most 6 digits
 * separated by single dots, two of them at least. */
enum { CUDASTUB_VERSION_TEXT_SIZE = 96 };
CUDASTUB_HIDDEN int cudastub_version_from_text(const char *text, size_t size, int own[3]);
/* A pin's text as a major (CUDASTUB_<LIB>_MAJOR): 0 and *major set when it
 * is digits only, not starting with 0, and a major sonames holds (any from
 * 1 to 99 when sonames serve every major, major 0); else -1. */
CUDASTUB_HIDDEN int cudastub_pin_parse(const char *text, const struct cudastub_soname *sonames,
				       int *major);
/* A library's own version code (cuDNN's cudnnGetVersion, NCCL's
 * ncclGetVersion) as major, minor and patch: major * 10000 + minor * 100 +
 * patch (cuDNN 9: 91900; NCCL 2.9 on: 22809), or below 10000 the older
 * major * 1000 + minor * 100 + patch (cuDNN 8: 8907; NCCL 2.8: 2804).
 * 0, or -1 for a code of 0 or less. */
CUDASTUB_HIDDEN int cudastub_version_code_split(long long code, int own[3]);

/* loader_marker.c: the CUDA version a loaded library says, in its
 * read-only data, it was built with: the "<major>.<minor>" that follows
 * marker ("+cuda" in NCCL's "NCCL version 2.28.9+cuda13.0"). 0, or -1 when
 * the library's file has no such text. */
CUDASTUB_HIDDEN int cudastub_cuda_version_after_marker(void *handle, const char *marker, int *major,
						       int *minor);
/* The same, of the library file at path (not opened blocking: a FIFO
 * answers -1). */
CUDASTUB_HIDDEN int cudastub_cuda_version_in_file(const char *path, const char *marker, int *major,
						  int *minor);

/* cuDriverGetVersion of an opened driver: its code (0 for success), or -1
 * when it has none; *version is 0 unless it answered. */
CUDASTUB_HIDDEN int cudastub_driver_version(void *driver, int *version);

/* loader_resolve_<arch>.S (x86-64, aarch64): see there. */
CUDASTUB_HIDDEN void cudastub_asm_resolve(void);

/* loader_search.c */
CUDASTUB_HIDDEN cudastub_state cudastub_search(struct cudastub_search *s);
/*
 * The files dlopen(soname) from this stub would consider, in its order: the
 * folders of RTLD_DI_SERINFO that are not the system's defaults
 * (LD_LIBRARY_PATH, the stub's RUNPATH), ld.so.cache, then the default
 * folders. Calls visit with each path that exists until it returns
 * non-zero, and returns that value, or 0. Walking by full path lets every
 * file be checked before dlopen, and a stub under the real SONAME (a shim)
 * be skipped by file instead of hiding what lies behind it.
 */
CUDASTUB_HIDDEN int cudastub_loader_walk(const struct cudastub_self *self, const char *soname,
					 int (*visit)(const char *path, void *ctx), void *ctx);

#endif /* CUDASTUB_LOADER_H */

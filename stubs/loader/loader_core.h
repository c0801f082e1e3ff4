/*
 * The shared loader: one copy, linked into each stub.
 *
 * A stub describes its library once (struct cudastub_library) and its
 * functions in a generated table (struct cudastub_function in each row,
 * table.h). The first call of any export reaches, through the one bind
 * (bind/loader_bind.c), cudastub_loader_bind(), which makes sure a search
 * has been published and returns the real symbol, or NULL when the call
 * must not be forwarded. Everything here runs at most once per function;
 * nothing here is on the hot path.
 *
 * This header holds what every phase shares: the library's description
 * and a search's record. It calls nothing. The phases, their order and
 * their files are in README.md beside it.
 */
#ifndef CUDASTUB_LOADER_CORE_H
#define CUDASTUB_LOADER_CORE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "cudastub/cudastub.h"

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
/* The names of the objects loaded when a search began, as hashes
 * (loader_loaded.c): one walk of the process's list answers every "is it
 * loaded?" of the search. A process with more objects than this (a big
 * Python one has some 400) walks the list per question instead (and once
 * for all the release SONAMEs). A build may lower it to test that path. */
#ifndef CUDASTUB_LOADED_MAX_OBJECTS
#define CUDASTUB_LOADED_MAX_OBJECTS 1024
#endif
enum { CUDASTUB_LOADED_MAX = CUDASTUB_LOADED_MAX_OBJECTS };
struct cudastub_loaded {
	int state;	/* 0: not taken, 1: taken, -1: too many objects, walk */
	unsigned count; /* hashes: each object's file name and SONAME */
	uint32_t hash[2 * CUDASTUB_LOADED_MAX];
	uint64_t seen[4]; /* bit (hash % 256) of each: most misses in one test */
	/* an object's path has a site-packages/ or dist-packages/ folder in
	 * it: only then does step 3 look at the paths (loader_python.c) */
	int from_python;
};

struct cudastub_search {
	struct cudastub_library *lib;
	void *handle; /* the chosen library, or NULL */
	cudastub_library_info info;
	cudastub_attempt attempts[CUDASTUB_MAX_ATTEMPTS];
	/* majors the current search pass may load (see loader_search.c) */
	uint32_t pass_majors;
	/* the stub itself, while the search runs (loader_candidate.c) */
	const struct cudastub_self *self;
	/* what was loaded when it began (loader_loaded.c) */
	struct cudastub_loaded loaded;
	/* the dynamic loader's folders for the stub (a Dl_serinfo), read at
	 * the search's first walk of them and freed when it ends, or NULL;
	 * loader_paths_read says it was tried (loader_search.c) */
	void *loader_paths;
	int loader_paths_read;
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
	/* the search that later first calls wait for: its process (cudastub_pid)
	 * in the high half, its thread's kernel id in the low; 0 for none */
	atomic_ullong searching;
	atomic_int published; /* bumped at each publication: a futex word */
	atomic_int waiters;   /* threads waiting on it */
	/* the one waiter that watches whether the search runs (its kernel
	 * id), or 0; the others sleep until woken (loader_load.c) */
	atomic_int watcher;
	/* the search the watcher found stalled (as in searching), or 0 */
	atomic_ullong stalled;
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

/* The published search, or NULL while none has finished. */
static inline const struct cudastub_search *cudastub_loader_result(struct cudastub_library *lib)
{
	return atomic_load_explicit(&lib->result, memory_order_acquire);
}

/*
 * Where the bind (loader_bind.c) stores its answer. The answer is final only once
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

/*
 * The loaded release as one bind sees it (loader_bind.c): read once, after
 * the load, and handed to the export's route and adapter, which then ask
 * the loader nothing: the release is decided in one place per bind, even
 * though the published search it comes from never changes.
 */
struct cudastub_release {
	struct cudastub_library *lib;
	void *handle; /* the loaded library; NULL when none is loaded */
	int major;    /* its major (11, 12, 13); 0 when none is loaded */
	/* the export's row: the majors that forward it under its own name
	 * (same_abi, if_present) and those whose headers declare it with
	 * another ABI (other_abi) */
	const struct cudastub_function *gate;
	const char *name; /* the export's name */
};

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

/* loader_lookup.c */
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

/* What a typed fallback answers, as the debug log tells it where no
 * library answers ("cudaGetDeviceCount: sets its outputs to 0 and returns
 * 35"): the fallback, the sentence, and whether the library's code for the
 * reason ends it (a probe returns that code; a status name or a zeroed
 * struct returns none, and the log must not say it does). One is placed
 * beside each typed fallback by CUDASTUB_FALLBACK_SAYS, and a pointer to
 * it in the section cudastub_accounts of the stub's object, where the bind
 * (loader_bind.c) finds it by the fallback's address. The section holds
 * pointers, not the accounts: objects of pointer size lie end to end,
 * where a compiler may align larger ones apart. */
enum cudastub_says_code {
	CUDASTUB_SAYS_NO_CODE,
	CUDASTUB_SAYS_CODE,	/* " 35" */
	CUDASTUB_SAYS_NEGATIVE, /* " -35" */
};
struct cudastub_account {
	const void *fallback;
	const char *says;
	enum cudastub_says_code code;
};
#define CUDASTUB_FALLBACK_SAYS(fn, text, code_kind)                                                \
	static const struct cudastub_account cudastub_account_##fn = {(const void *)(fn), text,    \
								      code_kind};                  \
	static const struct cudastub_account *const cudastub_account_of_##fn                       \
		__attribute__((used, section("cudastub_accounts"))) = &cudastub_account_##fn

/* Defines such a probe's fallback (spec: custom_fallback NAME) in the stub
 * of cudastub_<lib>_library: cudastub_<lib>_fallback_<name>(int *out). */
#define CUDASTUB_PROBE_FALLBACK(lib, result, name)                                                 \
	result cudastub_##lib##_fallback_##name(int *out)                                          \
	{                                                                                          \
		return (result)cudastub_loader_zero_and_fail(                                      \
			&cudastub_##lib##_library, out, &cudastub_##lib##_rows[F_##name].gate);    \
	}                                                                                          \
	CUDASTUB_FALLBACK_SAYS(cudastub_##lib##_fallback_##name,                                   \
			       "sets its output to 0 and returns", CUDASTUB_SAYS_CODE);

/* generated/libraries.c, from every spec: each library's SONAMEs that
 * belong to one CUDA major (the evidence of a release in the process), and
 * each stub's cudastub_<lib>_info (the mark of a cudastub build); each with
 * its hash as the loader compares it, computed by the generator so that a
 * first call does not hash some eighty names. */
extern const struct cudastub_soname cudastub_release_sonames[] CUDASTUB_HIDDEN;
extern const uint32_t cudastub_release_soname_hashes[] CUDASTUB_HIDDEN;
extern const char *const cudastub_stub_markers[] CUDASTUB_HIDDEN;
extern const uint32_t cudastub_stub_marker_hashes[] CUDASTUB_HIDDEN;

/* stubs/arch/<arch>/loader_resolve_<arch>.S (x86-64, aarch64): see there. */
CUDASTUB_HIDDEN void cudastub_asm_resolve(void);

#endif /* CUDASTUB_LOADER_CORE_H */

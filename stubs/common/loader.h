/*
 * The shared loader: one copy, linked into each stub.
 *
 * A stub describes its library once (struct cudastub_library) and its
 * functions in a generated table (struct cudastub_function). The first call
 * of any wrapper reaches cudastub_loader_bind(), which makes sure a search
 * has been published and returns the real symbol, or NULL when the call must
 * not be forwarded. Everything here runs at most once per function; nothing here is
 * on the hot path.
 *
 * The search reads as phases, each in a file of its own:
 *   loader_search.c    list the candidates, step by step, newest major first
 *   loader_candidate.c open one, verify it (not ourselves, not another stub,
 *                      not rejected by the library), probe its version
 *   loader_companion.c load what the chosen library will dlopen by name
 *   loader_ldcache.c   read /etc/ld.so.cache, to look past a stub by hand
 *   loader_load.c      search without holding a lock, publish one outcome
 *   loader_fork.c      keep fork() out of a library being mapped
 *   loader_log.c       remember what was tried; CUDASTUB_DEBUG output
 *   loader_bind.c      gate a function by major and look it up
 */
#ifndef CUDASTUB_LOADER_H
#define CUDASTUB_LOADER_H

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
 * A generated row per exported function.
 *   same_abi:   majors whose headers declare this name with the prototype
 *               and struct layouts the stub was built with: forward.
 *   if_present: majors whose headers we have lack the name but a newer
 *               major declares it identically, so a later minor of that
 *               major may export it: forward if dlsym finds it.
 *   other_abi:  majors that declare the name with a different ABI: never
 *               call it.
 */
struct cudastub_function {
	const char *name;
	uint32_t same_abi;
	uint32_t if_present;
	uint32_t other_abi;
};

enum { CUDASTUB_MAX_ATTEMPTS = 64, CUDASTUB_ARENA_SIZE = 16384 };

struct cudastub_library;

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
	/* Reads the version of a candidate (path as opened); returns 0 when
	 * the candidate is this library. */
	int (*probe_version)(void *handle, const char *path, int *major, int *minor);
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
	struct cudastub_search first_search;	  /* no allocation for the first */
};

/* Initializer for the state half of struct cudastub_library. */
#define CUDASTUB_LIBRARY_STATE_INIT(lib_name)                                                      \
	.not_tried = {.name = lib_name,                                                            \
		      .abi_major = CUDASTUB_ABI_MAJOR,                                             \
		      .abi_minor = CUDASTUB_ABI_MINOR},                                            \
	.first_claimed = ATOMIC_FLAG_INIT

/* loader_load.c */
CUDASTUB_HIDDEN cudastub_state cudastub_loader_load(struct cudastub_library *lib);
CUDASTUB_HIDDEN const cudastub_library_info *cudastub_loader_info(struct cudastub_library *lib);

/* The published search, or NULL while none has finished. */
static inline const struct cudastub_search *cudastub_loader_result(struct cudastub_library *lib)
{
	return atomic_load_explicit(&lib->result, memory_order_acquire);
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
CUDASTUB_HIDDEN void *cudastub_loader_bind(struct cudastub_library *lib,
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
			&cudastub_##lib##_library, out, &cudastub_##lib##_functions[F_##name]);    \
	}

/* loader_log.c */
CUDASTUB_HIDDEN const char *cudastub_log_keep(struct cudastub_search *s, const char *text);
CUDASTUB_HIDDEN void cudastub_log_attempt(struct cudastub_search *s, cudastub_source source,
					  int major, const char *path, const char *outcome);
CUDASTUB_HIDDEN int cudastub_log_enabled(void);
CUDASTUB_HIDDEN void cudastub_log_debug(const struct cudastub_library *lib, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
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

/* loader_companion.c */
CUDASTUB_HIDDEN void cudastub_load_companion(struct cudastub_search *s);

/* loader_ldcache.c: calls visit with each path the cache holds for soname
 * until it returns non-zero; returns that value, or 0. */
CUDASTUB_HIDDEN int cudastub_ldcache_each(const char *soname,
					  int (*visit)(const char *path, void *ctx), void *ctx);

/* loader_fork.c: the guard is installed before the first search, so that
 * fork() never splits the loader in the middle of a library the stub is
 * loading; the stub's every dlopen and dlclose goes through the two calls
 * below, which fork() waits for. */
CUDASTUB_HIDDEN void cudastub_fork_guard_install(void);
CUDASTUB_HIDDEN void *cudastub_dlopen(const char *path, int flags);
CUDASTUB_HIDDEN int cudastub_dlclose(void *handle);

/* loader_versions.c: a CUDA version (12040) as major and minor; -1 for
 * none (0 or less). */
CUDASTUB_HIDDEN int cudastub_version_decode(int version, int *major, int *minor);
/* cuDriverGetVersion of an opened driver: its code (0 for success), or -1
 * when it has none; *version is 0 unless it answered. */
CUDASTUB_HIDDEN int cudastub_driver_version(void *driver, int *version);

/* loader_resolve_x86_64.S: see there. */
CUDASTUB_HIDDEN void cudastub_asm_resolve(void);

/* loader_search.c */
CUDASTUB_HIDDEN cudastub_state cudastub_search(struct cudastub_search *s);

#endif /* CUDASTUB_LOADER_H */

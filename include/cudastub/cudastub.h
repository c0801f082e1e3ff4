/*
 * cudastub.h - ask a cudastub stub what it loaded, from where, and why.
 *
 * Each stub (libcudart_stub.so, libnvrtc_stub.so, libcuda_stub.so, the
 * libraries' stubs, and their shims) exports the entry points below under a
 * prefix of its own, for example cudastub_nvrtc_info(). Several stubs, or
 * shims of several majors, can then share one process without interposing
 * on each other.
 *
 * The cudastub_info() and cudastub_load() helpers at the end present them as
 * one API: they reach whichever stubs the program links, through weak
 * references, and report CUDASTUB_STATE_NOT_LINKED for the others.
 */
#ifndef CUDASTUB_CUDASTUB_H
#define CUDASTUB_CUDASTUB_H

#ifdef __cplusplus
extern "C" {
#endif

#define CUDASTUB_VERSION_MAJOR 0
#define CUDASTUB_VERSION_MINOR 1

typedef enum cudastub_state {
	CUDASTUB_STATE_NOT_TRIED = 0, /* no call has needed the library yet */
	CUDASTUB_STATE_LOADED = 1,
	CUDASTUB_STATE_NOT_FOUND = 2, /* every search step came up empty */
	/* CUDASTUB_<LIB>_PATH named something that could not be loaded; the
	 * stub does not fall back to the other steps. */
	CUDASTUB_STATE_OVERRIDE_FAILED = 3,
	CUDASTUB_STATE_NOT_LINKED = 4 /* only from cudastub_info() */
} cudastub_state;

/* The search steps of the design, in the order they run. */
typedef enum cudastub_source {
	CUDASTUB_SOURCE_NONE = 0,
	CUDASTUB_SOURCE_OVERRIDE = 1,	     /* CUDASTUB_<LIB>_PATH */
	CUDASTUB_SOURCE_ALREADY_LOADED = 2,  /* RTLD_NOLOAD */
	CUDASTUB_SOURCE_PIP_WHEEL = 3,	     /* nvidia/... beside the stub */
	CUDASTUB_SOURCE_CUDA_HOME = 4,	     /* $CUDA_HOME, then $CUDA_PATH */
	CUDASTUB_SOURCE_LOADER_SEARCH = 5,   /* LD_LIBRARY_PATH, RUNPATH, cache */
	CUDASTUB_SOURCE_STANDARD_PREFIX = 6, /* /usr/local/cuda */
	CUDASTUB_SOURCE_COUNT
} cudastub_source;

/* What ordered the majors a search tried (stubs/loader/search/loader_release.c).
 * A pin or an override wins over the rest; then a CUDA library already in
 * the process; then the driver's version; else nothing answered and the
 * newest major goes first. */
typedef enum cudastub_release_reason {
	/* no search yet, or a library that keeps no release (the driver) */
	CUDASTUB_REASON_NONE = 0,
	CUDASTUB_REASON_OVERRIDE = 1,	/* CUDASTUB_<LIB>_PATH chose the file */
	CUDASTUB_REASON_PIN = 2,	/* CUDASTUB_<LIB>_MAJOR chose the major */
	CUDASTUB_REASON_IN_PROCESS = 3, /* a CUDA library already loaded */
	CUDASTUB_REASON_DRIVER = 4,	/* the driver's cuDriverGetVersion */
	/* no CUDA library in the process and no driver answered */
	CUDASTUB_REASON_NOTHING_ANSWERED = 5
} cudastub_release_reason;

/* One candidate the search looked at, and what became of it. */
typedef struct cudastub_attempt {
	cudastub_source source;
	int major;	     /* the major this candidate was tried for, or 0 */
	const char *path;    /* file name or path handed to dlopen */
	const char *outcome; /* "loaded", "absent", "skipped: ...", dlerror() */
} cudastub_attempt;

typedef struct cudastub_library_info {
	const char *name; /* "cudart", "nvrtc", "cuda", ... (cudastub_lib) */
	cudastub_state state;
	const char *path; /* the file loaded, or NULL */
	int major, minor; /* as the library reports them; 0 if not loaded */
	cudastub_source source;
	/* Majors the stub was built against (its ABI). */
	int abi_major, abi_minor;
	const char *error; /* why the state is not LOADED, or NULL */
	unsigned attempt_count;
	const cudastub_attempt *attempts;
	/* attempts the fixed-size log had no room for */
	unsigned attempts_dropped;
	/* dlopen() calls the reported search made, rejected candidates too */
	unsigned long dlopen_calls;
	/* searches begun up to and including the one reported: 1 once
	 * anything has needed the library, more only when threads raced the
	 * first call (each searches on its own; the first to finish wins) */
	unsigned long search_runs;
	/* the CUDA version the driver (libcuda.so.1) supports, as
	 * cuDriverGetVersion gives it (12040), when the choice of major asked
	 * it; 0 when it did not, or there is none */
	int driver_version;
	/* why this major was preferred, or NULL when nothing was preferred */
	const char *choice;
	/* a library versioned apart from CUDA (cuFFT, cuRAND, cuSPARSE,
	 * cuSOLVER): its own version, "11.2.1", while major and minor say the
	 * CUDA release it belongs to; NULL for the others */
	const char *own_version;
	/* ---- appended in 0.1; the fields above keep their places ---- */
	/* which fact ordered the majors (cudastub_release_reason): what
	 * choice explains, or why there was no choice */
	int release_reason;
	/* when the driver was asked and answered no version: why (no
	 * libcuda.so.1 where the search looked, or cuDriverGetVersion's
	 * code), escaped; NULL otherwise */
	const char *driver_missing;
} cudastub_library_info;

/*
 * Per-stub entry points. <lib> is cudart, nvrtc, cuda, or another
 * library's name (cudastub_lib below).
 *
 *   const cudastub_library_info *cudastub_<lib>_info(void);
 *     The state now. Never loads anything. The pointer and the strings it
 *     leads to stay valid for the life of the process; after the load they
 *     no longer change.
 *
 *   cudastub_state cudastub_<lib>_load(void);
 *     Runs the search now, if no call has run it yet, and returns the
 *     outcome. Safe from any number of threads.
 */
#define CUDASTUB_DECLARE_ENTRY_POINTS(lib)                                                         \
	const cudastub_library_info *cudastub_##lib##_info(void);                                  \
	cudastub_state cudastub_##lib##_load(void);

/* Every library (enum cudastub_lib), each stub's entry points, the stubs'
 * own codes, and cudastub_info() / cudastub_load() over whichever stubs
 * are linked: generated from the specs (stubs/<lib>/<lib>.spec). */
#include "cudastub/libraries.h"

/* Human-readable names, for printing. */
static inline const char *cudastub_state_name(cudastub_state s)
{
	switch (s) {
	case CUDASTUB_STATE_NOT_TRIED: return "not tried";
	case CUDASTUB_STATE_LOADED: return "loaded";
	case CUDASTUB_STATE_NOT_FOUND: return "not found";
	case CUDASTUB_STATE_OVERRIDE_FAILED: return "override failed";
	case CUDASTUB_STATE_NOT_LINKED: return "not linked";
	}
	return "unknown";
}

static inline const char *cudastub_release_reason_name(int r)
{
	switch ((cudastub_release_reason)r) {
	case CUDASTUB_REASON_NONE: return "none";
	case CUDASTUB_REASON_OVERRIDE: return "override";
	case CUDASTUB_REASON_PIN: return "pin";
	case CUDASTUB_REASON_IN_PROCESS: return "in process";
	case CUDASTUB_REASON_DRIVER: return "driver";
	case CUDASTUB_REASON_NOTHING_ANSWERED: return "nothing answered";
	}
	return "unknown";
}

static inline const char *cudastub_source_name(cudastub_source s)
{
	switch (s) {
	case CUDASTUB_SOURCE_NONE: return "none";
	case CUDASTUB_SOURCE_OVERRIDE: return "override";
	case CUDASTUB_SOURCE_ALREADY_LOADED: return "already loaded";
	case CUDASTUB_SOURCE_PIP_WHEEL: return "pip wheel";
	case CUDASTUB_SOURCE_CUDA_HOME: return "CUDA_HOME/CUDA_PATH";
	case CUDASTUB_SOURCE_LOADER_SEARCH: return "loader search";
	case CUDASTUB_SOURCE_STANDARD_PREFIX: return "standard prefix";
	case CUDASTUB_SOURCE_COUNT: break;
	}
	return "unknown";
}

#ifdef __cplusplus
}
#endif
#endif /* CUDASTUB_CUDASTUB_H */

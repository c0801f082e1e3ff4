/*
 * cudastub.h - ask a cudastub stub what it loaded, from where, and why.
 *
 * Each stub (libcudart_stub.so, libnvrtc_stub.so, libcuda_stub.so and their
 * shims) exports the entry points below under a prefix of its own, for
 * example cudastub_nvrtc_info(). Several stubs, or shims of several majors,
 * can then share one process without interposing on each other.
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

typedef enum cudastub_lib {
	CUDASTUB_LIB_CUDART = 0,
	CUDASTUB_LIB_NVRTC = 1,
	CUDASTUB_LIB_CUDA = 2, /* the driver API, libcuda.so.1 */
	CUDASTUB_LIB_COUNT
} cudastub_lib;

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

/* One candidate the search looked at, and what became of it. */
typedef struct cudastub_attempt {
	cudastub_source source;
	int major;	     /* the major this candidate was tried for, or 0 */
	const char *path;    /* file name or path handed to dlopen */
	const char *outcome; /* "loaded", "absent", "skipped: ...", dlerror() */
} cudastub_attempt;

typedef struct cudastub_library_info {
	const char *name; /* "cudart", "nvrtc" or "cuda" */
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
	/* cudart only: the CUDA version the driver (libcuda.so.1) supports,
	 * as cuDriverGetVersion gives it (12040), or 0 when there is none */
	int driver_version;
	/* why this major was preferred, or NULL when nothing was preferred */
	const char *choice;
} cudastub_library_info;

/*
 * NVRTC's own enum has no code for "the stub could not call NVRTC", so the
 * NVRTC stub returns these, outside nvrtcResult's range. Each is 1000 plus
 * the driver's code for the same condition. nvrtcGetErrorString() explains
 * them. The table in README.md lists every stub's codes.
 */
#define CUDASTUB_NVRTC_ERROR_STUB_LIBRARY  1034 /* no libnvrtc could be loaded */
#define CUDASTUB_NVRTC_ERROR_NOT_FOUND	   1500 /* loaded one lacks the function */
#define CUDASTUB_NVRTC_ERROR_NOT_SUPPORTED 1801 /* same name, different ABI */

/*
 * Per-stub entry points. <lib> is cudart, nvrtc or cuda.
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

CUDASTUB_DECLARE_ENTRY_POINTS(cudart)
CUDASTUB_DECLARE_ENTRY_POINTS(nvrtc)
CUDASTUB_DECLARE_ENTRY_POINTS(cuda)

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

/*
 * One API over whichever stubs are linked. The weak references resolve to
 * NULL for a stub the program does not link, so including this header
 * never adds a link-time dependency.
 */
#if defined(__GNUC__) && !defined(CUDASTUB_NO_UNIFIED_API)
#pragma weak cudastub_cudart_info
#pragma weak cudastub_cudart_load
#pragma weak cudastub_nvrtc_info
#pragma weak cudastub_nvrtc_load
#pragma weak cudastub_cuda_info
#pragma weak cudastub_cuda_load

/* NULL when the program does not link that stub. */
static inline const cudastub_library_info *cudastub_info(cudastub_lib lib)
{
	const cudastub_library_info *(*info)(void) = 0;
	switch (lib) {
	case CUDASTUB_LIB_CUDART: info = cudastub_cudart_info; break;
	case CUDASTUB_LIB_NVRTC: info = cudastub_nvrtc_info; break;
	case CUDASTUB_LIB_CUDA: info = cudastub_cuda_info; break;
	case CUDASTUB_LIB_COUNT: break;
	}
	return info ? info() : 0;
}

static inline cudastub_state cudastub_load(cudastub_lib lib)
{
	cudastub_state (*load)(void) = 0;
	switch (lib) {
	case CUDASTUB_LIB_CUDART: load = cudastub_cudart_load; break;
	case CUDASTUB_LIB_NVRTC: load = cudastub_nvrtc_load; break;
	case CUDASTUB_LIB_CUDA: load = cudastub_cuda_load; break;
	case CUDASTUB_LIB_COUNT: break;
	}
	return load ? load() : CUDASTUB_STATE_NOT_LINKED;
}
#endif

#ifdef __cplusplus
}
#endif
#endif /* CUDASTUB_CUDASTUB_H */

/*
 * Open one candidate and decide whether it is the library we want.
 *
 * The order of checks is cheapest first and never calls into a candidate
 * before we know it is not ourselves:
 *   1. a file (a path with a slash) must be there, must not be our own
 *      file (same device and inode), and must be a sound library of this
 *      process's architecture (loader_elf.c): otherwise skipped, no dlopen;
 *   2. dlopen; the loaded object is our own object (same link map): a shim
 *      found its own SONAME;
 *   3. the object exports a cudastub entry point: a copy of a stub;
 *   4. the library's own reject hook (for example NVIDIA's link-time stub);
 *   5. the version probe answers, and matches the pinned major if any.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader_core.h"
#include "loader_log.h"
#include "loader_process.h"
#include "loader_candidate.h"
#include "loader_elf.h"
#include "loader_loaded.h"
#include "loader_probe.h"
#include "loader_symtab.h"
#include "loader_versions.h"
#include "loader_sys.h"

/* This object's own entry in the list of the process's objects: the one
 * whose dynamic section is ours. Found by a walk from the head of the list
 * (the main program's, a few objects), which the dynamic loader's record
 * holds: dlopen(NULL) and dlinfo gave the same at some 1,800 instructions.
 * dladdr1, which also scans this stub's whole symbol table for the
 * nearest symbol, only where the walk does not reach it (a stub loaded
 * with dlmopen into a namespace of its own). */
extern ElfW(Dyn) _DYNAMIC[] __attribute__((visibility("hidden")));

static struct link_map *own_link_map(const char **path)
{
	struct r_debug *debug = cudastub_loader_debug();
	struct link_map *map = debug ? debug->r_map : NULL;
	Dl_info where;

	for (; map; map = map->l_next)
		if (map->l_ld == _DYNAMIC) {
			*path = map->l_name;
			return map;
		}
	if (!dladdr1((void *)cudastub_self_identify, &where, (void **)&map, RTLD_DL_LINKMAP))
		return NULL;
	*path = where.dli_fname;
	return map;
}

static void read_self(struct cudastub_self *self)
{
	struct stat st;

	memset(self, 0, sizeof *self);
	if (!(self->link_map = own_link_map(&self->path)))
		return;
	if (self->path && cudastub_sys_stat(self->path, &st) == 0) {
		self->dev = (unsigned long)st.st_dev;
		self->ino = (unsigned long)st.st_ino;
	}
}

/* What the stub is does not change while it is mapped, and dladdr1 scans
 * the stub's whole symbol table to say it: read once, kept. No thread
 * waits for another to read it (one may be inside a library constructor,
 * holding the dynamic loader's lock that dladdr1 needs): each reads it
 * itself until one has kept it. */
void cudastub_self_identify(struct cudastub_self *self)
{
	enum { UNKNOWN, KEEPING, KEPT };
	static struct cudastub_self kept;
	static _Atomic int state = UNKNOWN;
	int expected = UNKNOWN;

	if (atomic_load_explicit(&state, memory_order_acquire) == KEPT) {
		*self = kept;
		return;
	}
	read_self(self);
	if (self->link_map &&
	    atomic_compare_exchange_strong_explicit(&state, &expected, KEEPING,
						    memory_order_acquire, memory_order_relaxed)) {
		kept = *self;
		atomic_store_explicit(&state, KEPT, memory_order_release);
	}
}

/* Whether path has a slash (names a file, not a library for dlopen to
 * search). Not strchr: this is its only use on a first call, whose first
 * call of it costs a binding (about 700 instructions), and a path's slash
 * is mostly its first byte. */
static int names_file(const char *path)
{
	while (*path && *path != '/')
		path++;
	return *path == '/';
}

static int is_own_file(const struct cudastub_self *self, const char *path)
{
	struct stat st;

	if (!self->ino || cudastub_sys_stat(path, &st) != 0)
		return 0;
	return (unsigned long)st.st_dev == self->dev && (unsigned long)st.st_ino == self->ino;
}

static struct link_map *link_map_of(void *handle)
{
	struct link_map *map = NULL;

	if (dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0)
		return NULL;
	return map;
}

static int exports_stub_marker(void *handle, const struct link_map *map);

int cudastub_is_stub_build(void *handle)
{
	struct link_map *map = link_map_of(handle);

	return map && exports_stub_marker(handle, map);
}

/* True when the object exports a cudastub entry point of its own (one of
 * any stub's cudastub_<lib>_info, generated/libraries.c), not through a
 * dependency: then it is a cudastub build, not NVIDIA's. Read from the
 * object's own symbol table (loader_symtab.c); dlsym only for an object
 * without a table that can be read so. */
static int exports_stub_marker(void *handle, const struct link_map *map)
{
	int defines = cudastub_object_defines_any(map, cudastub_stub_markers,
						  cudastub_stub_marker_hashes);

	if (defines >= 0)
		return defines;
	for (const char *const *m = cudastub_stub_markers; *m; m++) {
		void *sym = dlsym(handle, *m);
		Dl_info where;
		struct link_map *owner = NULL;

		if (sym && dladdr1(sym, &where, (void **)&owner, RTLD_DL_LINKMAP) && owner == map)
			return 1;
	}
	return 0;
}

/*
 * Whether a file the probe says is CUDA have_major may be taken in this
 * pass. A SONAME that serves several majors (libcurand.so.10: CUDA 11, 12
 * and 13) is tried when any of them is wanted, and only the probe says
 * which release the file is: a pass keeping to the process's release
 * takes no file of another (a later pass may). An override, and a copy
 * the process already has, are taken for whatever they are, as is any
 * version of a library with one name for every major (the driver).
 */
static int release_wanted(const struct cudastub_search *s, cudastub_source source, int have_major)
{
	if (s->pin || source == CUDASTUB_SOURCE_OVERRIDE ||
	    source == CUDASTUB_SOURCE_ALREADY_LOADED || (s->pass_majors & CUDASTUB_MAJOR_BIT(0)))
		return 1;
	return have_major > 0 && have_major < 32 &&
	       (s->pass_majors & CUDASTUB_MAJOR_BIT(have_major)) != 0;
}

/* The library's own code, run through the fork gate (loader_fork.c). */
static const char *rejected(struct cudastub_library *lib, void *handle)
{
	struct cudastub_gate_pass pass = cudastub_fork_gate_enter();
	const char *reason = lib->reject(handle);

	cudastub_fork_gate_leave(pass);
	return reason;
}

static int probe(struct cudastub_library *lib, void *handle, const char *path, int *major,
		 int *minor)
{
	struct cudastub_gate_pass pass = cudastub_fork_gate_enter();
	int rc = lib->probe_version(handle, path, major, minor);

	cudastub_fork_gate_leave(pass);
	return rc;
}

static int own_version(struct cudastub_library *lib, void *handle, int own[3])
{
	struct cudastub_gate_pass pass = cudastub_fork_gate_enter();
	int rc = lib->own_version(handle, own);

	cudastub_fork_gate_leave(pass);
	return rc;
}

enum cudastub_try cudastub_try_candidate(struct cudastub_search *s,
					 const struct cudastub_self *self, cudastub_source source,
					 int major, const char *path, int dlopen_flags)
{
	char why[512], refused[256];
	const char *reason;
	struct link_map *map;
	struct cudastub_library *lib = s->lib;
	int have_major = 0, have_minor = 0, own[3];
	char own_text[48];
	void *handle;

	/* A path with a slash names a file: a missing one is "absent", not a
	 * dlopen call, and a damaged or foreign one never reaches dlopen. */
	if (names_file(path)) {
		int absent;

		reason = cudastub_elf_check_file(path, &absent, why, sizeof why);
		if (absent) {
			cudastub_log_attempt(s, source, major, path, "absent");
			return CUDASTUB_TRY_ABSENT;
		}
		if (is_own_file(self, path)) {
			cudastub_log_attempt(s, source, major, path,
					     "skipped: this stub's own file");
			return CUDASTUB_TRY_SELF;
		}
		if (reason) {
			char skipped[sizeof why + 16];

			snprintf(skipped, sizeof skipped, "skipped: %s", reason);
			cudastub_log_attempt(s, source, major, path, skipped);
			return CUDASTUB_TRY_REJECTED;
		}
	}

	/* Asked whether a name is loaded: the process's list answers, where
	 * dlopen would first search the file system for it (loader_loaded.c). */
	if ((dlopen_flags & RTLD_NOLOAD) && !names_file(path) && !cudastub_is_loaded(s, path)) {
		cudastub_log_attempt(s, source, major, path, "not loaded in this process");
		return CUDASTUB_TRY_ABSENT;
	}
	s->info.dlopen_calls++;
	handle = cudastub_dlopen(path, dlopen_flags);
	if (!handle) {
		const char *err = dlerror();
		int absent = !(dlopen_flags & RTLD_NOLOAD) && err && strstr(err, "No such file");

		if (dlopen_flags & RTLD_NOLOAD)
			err = "not loaded in this process";
		cudastub_log_attempt(s, source, major, path,
				     absent ? "absent"
				     : err  ? err
					    : "dlopen failed");
		return (absent || (dlopen_flags & RTLD_NOLOAD)) ? CUDASTUB_TRY_ABSENT
								: CUDASTUB_TRY_REJECTED;
	}

	/* A candidate that is turned down is closed again. Left open, it
	 * would keep its SONAME in the process, and every later dlopen of that
	 * name (NVIDIA's runtime opening libcuda.so.1, say) would get it. If
	 * someone else had it open, dlclose only drops our reference. */
	map = link_map_of(handle);
	if (map && map == self->link_map) {
		cudastub_log_attempt(s, source, major, path,
				     "skipped: resolves to this stub itself");
		cudastub_dlclose(handle);
		return CUDASTUB_TRY_SELF;
	}
	if (map && exports_stub_marker(handle, map)) {
		snprintf(why, sizeof why, "skipped: %s is a cudastub build, not NVIDIA's",
			 map->l_name && *map->l_name ? map->l_name : path);
		cudastub_log_attempt(s, source, major, path, why);
		cudastub_dlclose(handle);
		return CUDASTUB_TRY_SELF;
	}
	if (lib->reject && (reason = rejected(lib, handle)) != NULL) {
		snprintf(why, sizeof why, "skipped: %s", reason);
		cudastub_log_attempt(s, source, major, path, why);
		cudastub_dlclose(handle);
		return CUDASTUB_TRY_REJECTED;
	}
	/* The probe runs the candidate's code: it looks up its function with
	 * cudastub_probe_symbol, which refuses code that is zeros (loader_probe.c)
	 * and says why. */
	(void)cudastub_probe_take_refusal(handle, refused, sizeof refused);
	if (probe(lib, handle, path, &have_major, &have_minor) != 0) {
		reason = cudastub_probe_take_refusal(handle, refused, sizeof refused);
		snprintf(why, sizeof why, "skipped: %s",
			 reason ? reason : "its version query failed");
		cudastub_log_attempt(s, source, major, path, why);
		cudastub_dlclose(handle);
		return CUDASTUB_TRY_REJECTED;
	}
	if (s->pin && have_major != s->pin) {
		snprintf(why, sizeof why, "skipped: version %d.%d, but %s=%d", have_major,
			 have_minor, lib->env_major, s->pin);
		cudastub_log_attempt(s, source, major, path, why);
		cudastub_dlclose(handle);
		return CUDASTUB_TRY_REJECTED;
	}
	if (!release_wanted(s, source, have_major)) {
		snprintf(why, sizeof why, "skipped: CUDA %d, not searched in this pass",
			 have_major);
		cudastub_log_attempt(s, source, major, path, why);
		cudastub_dlclose(handle);
		return CUDASTUB_TRY_REJECTED;
	}

	/* "loaded, version 12.4", or the library's own "loaded, version 11.2.1
	 * (CUDA 12)" */
	why[0] = '\0';
	cudastub_text_add(why, sizeof why, "loaded, version ");
	if (lib->own_version && own_version(lib, handle, own) == 0) {
		own_text[0] = '\0';
		for (int i = 0; i < 3; i++) {
			if (i)
				cudastub_text_add(own_text, sizeof own_text, ".");
			cudastub_text_add_int(own_text, sizeof own_text, own[i]);
		}
		s->info.own_version = cudastub_log_keep(s, own_text);
		cudastub_text_add(why, sizeof why, own_text);
		cudastub_text_add(why, sizeof why, " (CUDA ");
		cudastub_text_add_int(why, sizeof why, have_major);
		cudastub_text_add(why, sizeof why, ")");
	} else {
		cudastub_text_add_int(why, sizeof why, have_major);
		cudastub_text_add(why, sizeof why, ".");
		cudastub_text_add_int(why, sizeof why, have_minor);
	}
	cudastub_log_attempt(s, source, major, path, why);
	s->handle = handle;
	s->info.major = have_major;
	s->info.minor = have_minor;
	s->info.source = source;
	s->info.path =
		cudastub_log_keep(s, map && map->l_name && *map->l_name ? map->l_name : path);
	return CUDASTUB_TRY_LOADED;
}

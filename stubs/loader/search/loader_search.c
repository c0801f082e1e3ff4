/*
 * The search order of the design, one function per step. The first
 * candidate that loads wins. Within a step, majors go newest first; a pin
 * (CUDASTUB_<LIB>_MAJOR) leaves only that major.
 *
 *   1. CUDASTUB_<LIB>_PATH, a file or a folder. If set, it is the only step:
 *      an override that cannot be loaded is an error, never a fallback.
 *   2. A copy already loaded in the process, by SONAME or file name (the
 *      process's list of objects, loader_loaded.c; then RTLD_NOLOAD).
 *   3. pip's NVIDIA wheel folders, beside an ancestor of the stub's folder
 *      and where Python imports from (loader_python.c), and conda's
 *      library folders: a file there is taken only if no one but root and
 *      the user can have put it there (loader_trust.c), and never in
 *      secure mode.
 *   4. $CUDA_HOME, then $CUDA_PATH.
 *   5. The dynamic loader's own search (LD_LIBRARY_PATH, our RUNPATH,
 *      ld.so.cache, the default folders), walked by hand in its order so
 *      that every file is checked before dlopen and a stub under the real
 *      SONAME (a shim) is skipped by file.
 *   6. The standard toolkit prefix.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader_core.h"
#include "loader_log.h"
#include "loader_path.h"
#include "loader_process.h"
#include "loader_python.h"
#include "loader_candidate.h"
#include "loader_ldcache.h"
#include "loader_loaded.h"
#include "loader_trust.h"
#include "loader_search.h"
#include "loader_sys.h"

#define STANDARD_PREFIX "/usr/local/cuda"
/* What step 3's attempts name when no one file is meant. */
#define PIP_ROOTS "(pip wheel folders: beside the stub, Python's, conda's)"
/* How far above the stub's own folder to look for site-packages/nvidia. */
#define WHEEL_ANCESTORS 4

static const int toolkit_lib_dirs_count = 2;
static const char *const toolkit_lib_dirs[] = {"lib64", "lib"};

static int is_dir(const char *path)
{
	struct stat st;

	return cudastub_sys_stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Major 0 is a name for every version, which the probe tells apart. */
static int major_wanted(struct cudastub_search *s, int major)
{
	if (s->pin)
		return major == s->pin || major == 0;
	return (s->pass_majors & CUDASTUB_MAJOR_BIT(major)) != 0;
}

/*
 * Whether to try so's file now. A SONAME may serve several majors (cuRAND's
 * libcurand.so.10 serves 11, 12 and 13; the spec lists it once for each):
 * it is tried once, at its first entry, if any of its majors is wanted, and
 * the version probe says which major the file is.
 */
static int soname_wanted(struct cudastub_search *s, const struct cudastub_soname *so)
{
	const struct cudastub_soname *o;
	int wanted = 0;

	for (o = s->lib->sonames; o != so; o++)
		if (!strcmp(o->soname, so->soname))
			return 0;
	for (o = so; o->soname; o++)
		if (!strcmp(o->soname, so->soname))
			wanted |= major_wanted(s, o->major);
	return wanted;
}

/* Tries each wanted SONAME inside one folder, newest first. */
static enum cudastub_try try_folder(struct cudastub_search *s, const struct cudastub_self *self,
				    cudastub_source source, const char *dir)
{
	const struct cudastub_soname *so;
	char path[PATH_MAX];
	enum cudastub_try r;

	for (so = s->lib->sonames; so->soname; so++) {
		if (!soname_wanted(s, so))
			continue;
		if (!cudastub_path_join(path, dir, so->soname, NULL))
			continue;
		r = cudastub_try_candidate(s, self, source, so->major, path, RTLD_NOW | RTLD_LOCAL);
		if (r == CUDASTUB_TRY_LOADED)
			return r;
	}
	return CUDASTUB_TRY_ABSENT;
}

static cudastub_state step_override(struct cudastub_search *s, const struct cudastub_self *self,
				    const char *value)
{
	char msg[1024], shortened[768];
	enum cudastub_try r;

	cudastub_log_debug(s->lib, "step 1: %s=%s", s->lib->env_path, value);
	/* A relative path would mean whatever folder the process is in at its
	 * first call, and a bare name whatever the loader finds: neither is an
	 * override, and neither could be checked before dlopen. */
	if (value[0] != '/') {
		/* the reason first: an error string keeps only its start */
		snprintf(msg, sizeof msg,
			 "%s is not an absolute path: %s (so it is refused: give the library file "
			 "or its folder from /)",
			 s->lib->env_path,
			 cudastub_log_shorten(value, shortened, sizeof shortened));
		s->info.error = cudastub_log_keep_message(s, msg);
		return CUDASTUB_STATE_OVERRIDE_FAILED;
	}
	if (is_dir(value))
		r = try_folder(s, self, CUDASTUB_SOURCE_OVERRIDE, value);
	else
		r = cudastub_try_candidate(s, self, CUDASTUB_SOURCE_OVERRIDE, 0, value,
					   RTLD_NOW | RTLD_LOCAL);
	if (r == CUDASTUB_TRY_LOADED)
		return CUDASTUB_STATE_LOADED;
	snprintf(msg, sizeof msg,
		 "%s=%s could not be loaded (no fallback to the other search steps)",
		 s->lib->env_path, cudastub_log_shorten(value, shortened, sizeof shortened));
	s->info.error = cudastub_log_keep_message(s, msg);
	return CUDASTUB_STATE_OVERRIDE_FAILED;
}

static int step_already_loaded(struct cudastub_search *s, const struct cudastub_self *self)
{
	const struct cudastub_soname *so;

	cudastub_log_debug(s->lib, "step 2: already loaded in this process");
	for (so = s->lib->sonames; so->soname; so++)
		if (soname_wanted(s, so) &&
		    cudastub_try_candidate(s, self, CUDASTUB_SOURCE_ALREADY_LOADED, so->major,
					   so->soname,
					   RTLD_NOW | RTLD_NOLOAD) == CUDASTUB_TRY_LOADED)
			return 1;
	return 0;
}

/* A file in a folder the stub derived: tried only if it is trusted. */
static int try_derived(struct cudastub_search *s, const struct cudastub_self *self,
		       cudastub_source source, int major, const char *path)
{
	char why[768], refused[sizeof why + 16];
	struct stat st;

	if (cudastub_sys_stat(path, &st) != 0) {
		cudastub_log_attempt(s, source, major, path, "absent");
		return 0;
	}
	/* not a file (a FIFO, a device): the candidate check names what it is,
	 * and opens nothing */
	if (S_ISREG(st.st_mode) && cudastub_trust_derived_file(path, why, sizeof why)) {
		snprintf(refused, sizeof refused, "refused: %s", why);
		cudastub_log_attempt(s, source, major, path, refused);
		return 0;
	}
	return cudastub_try_candidate(s, self, source, major, path, RTLD_NOW | RTLD_LOCAL) ==
	       CUDASTUB_TRY_LOADED;
}

/* The stub's own folder and its parents, the first roots of step 3. */
static void add_stub_ancestors(struct cudastub_python_roots *roots, const char *stub)
{
	char up[PATH_MAX];
	int level;

	if (!stub || !realpath(stub, up))
		return;
	for (level = 0; level < WHEEL_ANCESTORS && roots->count < CUDASTUB_MAX_PYTHON_ROOTS;
	     level++) {
		char *slash = strrchr(up, '/');

		if (!slash || slash == up)
			break;
		*slash = '\0'; /* first pass: the stub's own folder */
		cudastub_path_join(roots->root[roots->count].path, up, NULL, NULL);
		roots->root[roots->count].kind = CUDASTUB_ROOT_WHEELS;
		roots->root[roots->count].why = "beside the stub";
		roots->count++;
	}
}

/* soname under one root: in each wheel folder below its nvidia/, or (a
 * conda library folder) in the folder itself. */
static int try_root(struct cudastub_search *s, const struct cudastub_self *self,
		    const struct cudastub_soname *so, const char *root,
		    enum cudastub_root_kind kind, unsigned *wheel_folders)
{
	char path[PATH_MAX];
	struct stat st;

	if (kind == CUDASTUB_ROOT_LIBRARY_FOLDER)
		return cudastub_path_join(path, root, so->soname, NULL) &&
		       cudastub_sys_stat(path, &st) == 0 &&
		       try_derived(s, self, CUDASTUB_SOURCE_PIP_WHEEL, so->major, path);
	if (!cudastub_path_join(path, root, "nvidia", NULL) || !is_dir(path))
		return 0;
	++*wheel_folders;
	for (const char *const *w = s->lib->wheel_dirs; *w; w++)
		if (cudastub_path_join(path, root, *w, so->soname) &&
		    try_derived(s, self, CUDASTUB_SOURCE_PIP_WHEEL, so->major, path))
			return 1;
	return 0;
}

static int step_pip_wheels(struct cudastub_search *s, const struct cudastub_self *self)
{
	struct cudastub_python_roots *roots;
	const struct cudastub_soname *so;
	unsigned wheel_folders = 0;
	char note[160];

	if (cudastub_secure_mode()) {
		cudastub_log_debug(s->lib, "step 3: pip wheels: not searched in secure mode");
		cudastub_log_attempt(s, CUDASTUB_SOURCE_PIP_WHEEL, 0,
				     self->path ? self->path : "(the stub's folder)",
				     "not searched: secure mode (set-user-ID, set-group-ID or "
				     "capabilities) searches no folder the stub derives");
		return 0;
	}
	cudastub_log_debug(s->lib, "step 3: pip wheels near %s and where Python imports from",
			   self->path ? self->path : "?");
	/* 64 KiB of path buffers: zeroing them cost more than the rest of the
	 * step, and only the first count are ever read */
	roots = malloc(sizeof *roots);
	if (!roots) {
		cudastub_log_attempt(s, CUDASTUB_SOURCE_PIP_WHEEL, 0, PIP_ROOTS,
				     "not searched: out of memory");
		return 0;
	}
	roots->count = 0;
	add_stub_ancestors(roots, self->path);
	cudastub_python_roots(roots, cudastub_loaded_from_python(s));
	for (unsigned i = 0; i < roots->count; i++)
		cudastub_log_debug(s->lib, "  root %s (%s)", roots->root[i].path,
				   roots->root[i].why);
	for (so = s->lib->sonames; so->soname; so++) {
		if (!soname_wanted(s, so))
			continue;
		for (unsigned i = 0; i < roots->count; i++)
			if (try_root(s, self, so, roots->root[i].path, roots->root[i].kind,
				     &wheel_folders)) {
				free(roots);
				return 1;
			}
	}
	/* the error string lists every step: this one too, when it found no
	 * wheel folder at all */
	if (!wheel_folders) {
		note[0] = '\0';
		cudastub_text_add(note, sizeof note,
				  "no nvidia/ wheel folder beside the stub or in ");
		cudastub_text_add_int(note, sizeof note, roots->count);
		cudastub_text_add(note, sizeof note, " Python or conda folders");
		cudastub_log_attempt(s, CUDASTUB_SOURCE_PIP_WHEEL, 0, PIP_ROOTS, note);
	}
	free(roots);
	return 0;
}

static int try_toolkit(struct cudastub_search *s, const struct cudastub_self *self,
		       cudastub_source source, const char *root)
{
	const struct cudastub_soname *so;
	char path[PATH_MAX];
	int i;

	for (so = s->lib->sonames; so->soname; so++) {
		if (!soname_wanted(s, so))
			continue;
		for (i = 0; i < toolkit_lib_dirs_count; i++) {
			if (!cudastub_path_join(path, root, toolkit_lib_dirs[i], so->soname))
				continue;
			if (cudastub_try_candidate(s, self, source, so->major, path,
						   RTLD_NOW | RTLD_LOCAL) == CUDASTUB_TRY_LOADED)
				return 1;
		}
	}
	return 0;
}

static int step_cuda_home(struct cudastub_search *s, const struct cudastub_self *self)
{
	static const char *const vars[] = {"CUDA_HOME", "CUDA_PATH"};
	size_t i;

	for (i = 0; i < sizeof vars / sizeof *vars; i++) {
		const char *root = secure_getenv(vars[i]);

		cudastub_log_debug(s->lib, "step 4: %s=%s", vars[i], root ? root : "(unset)");
		if (root && *root && try_toolkit(s, self, CUDASTUB_SOURCE_CUDA_HOME, root))
			return 1;
	}
	return 0;
}

/* What step 5 needs inside its visits. */
struct folder_walk {
	struct cudastub_search *s;
	const struct cudastub_self *self;
	int major;
	int seen; /* a file of that name was there */
};

static int try_walked_path(const char *path, void *ctx)
{
	struct folder_walk *w = ctx;

	w->seen = 1;
	return cudastub_try_candidate(w->s, w->self, CUDASTUB_SOURCE_LOADER_SEARCH, w->major, path,
				      RTLD_NOW | RTLD_LOCAL) == CUDASTUB_TRY_LOADED;
}

/* Visits soname in the folders of info whose origin is (or, with
 * !defaults, is not) the system's default folders. */
static int walk_serinfo(const Dl_serinfo *info, int defaults, const char *soname,
			int (*visit)(const char *path, void *ctx), void *ctx)
{
	int r;

	for (unsigned i = 0; i < info->dls_cnt; i++) {
		char path[PATH_MAX];

		if (!!(info->dls_serpath[i].dls_flags & LA_SER_DEFAULT) != defaults)
			continue;
		if (cudastub_path_join(path, info->dls_serpath[i].dls_name, soname, NULL) &&
		    cudastub_sys_exists(path) && (r = visit(path, ctx)) != 0)
			return r;
	}
	return 0;
}

/* What ld.so.cache holds, less what is not there any more. */
struct cache_visit {
	int (*visit)(const char *path, void *ctx);
	void *ctx;
};

static int visit_cached(const char *path, void *ctx)
{
	const struct cache_visit *c = ctx;

	return cudastub_sys_exists(path) ? c->visit(path, c->ctx) : 0;
}

/* The folders dlopen would look in from the object of handle (its RPATH,
 * LD_LIBRARY_PATH, its RUNPATH, the defaults), malloc'd, or NULL. */
static Dl_serinfo *read_loader_paths(void *handle)
{
	Dl_serinfo size, *info;

	if (!handle || dlinfo(handle, RTLD_DI_SERINFOSIZE, &size) != 0 ||
	    !(info = malloc(size.dls_size)))
		return NULL;
	*info = size;
	if (dlinfo(handle, RTLD_DI_SERINFO, info) != 0) {
		free(info);
		return NULL;
	}
	return info;
}

/* The stub's, read once per search. dlinfo is asked of the stub's own
 * link map: in glibc a handle is its object's link map, and a dlopen of
 * the stub's own path with RTLD_NOLOAD, to get one, cost as much as the
 * rest of a walk. */
static const Dl_serinfo *loader_paths(struct cudastub_search *s)
{
	if (!s->loader_paths_read) {
		s->loader_paths_read = 1;
		s->loader_paths = read_loader_paths((void *)s->self->link_map);
	}
	return s->loader_paths;
}

static void forget_loader_paths(struct cudastub_search *s)
{
	free(s->loader_paths);
	s->loader_paths = NULL;
	s->loader_paths_read = 0;
}

static int walk_with(const Dl_serinfo *info, const char *soname,
		     int (*visit)(const char *path, void *ctx), void *ctx)
{
	struct cache_visit cached = {visit, ctx};
	int r = 0;

	if (info)
		r = walk_serinfo(info, 0, soname, visit, ctx);
	if (!r)
		r = cudastub_ldcache_each(soname, visit_cached, &cached);
	if (!r && info)
		r = walk_serinfo(info, 1, soname, visit, ctx);
	return r;
}

int cudastub_loader_walk(struct cudastub_search *s, const char *soname,
			 int (*visit)(const char *path, void *ctx), void *ctx)
{
	return walk_with(loader_paths(s), soname, visit, ctx);
}

int cudastub_loader_walk_from(void *handle, const char *soname,
			      int (*visit)(const char *path, void *ctx), void *ctx)
{
	Dl_serinfo *info = read_loader_paths(handle);
	int r = walk_with(info, soname, visit, ctx);

	free(info);
	return r;
}

static int step_loader_search(struct cudastub_search *s, const struct cudastub_self *self)
{
	const struct cudastub_soname *so;

	cudastub_log_debug(s->lib, "step 5: the dynamic loader's search");
	for (so = s->lib->sonames; so->soname; so++) {
		if (!soname_wanted(s, so))
			continue;
		struct folder_walk walk = {s, self, so->major, 0};

		if (cudastub_loader_walk(s, so->soname, try_walked_path, &walk))
			return 1;
		/* No file where the loader's folders and cache point: the loader
		 * may still know a place we do not walk (its glibc-hwcaps
		 * subfolders), so ask it by name. */
		if (!walk.seen && cudastub_try_candidate(
					  s, self, CUDASTUB_SOURCE_LOADER_SEARCH, so->major,
					  so->soname, RTLD_NOW | RTLD_LOCAL) == CUDASTUB_TRY_LOADED)
			return 1;
	}
	return 0;
}

/* Steps 2 to 6, for the majors in s->pass_majors. */
static int search_steps(struct cudastub_search *s, const struct cudastub_self *self)
{
	if (step_already_loaded(s, self) || step_pip_wheels(s, self) || step_cuda_home(s, self) ||
	    step_loader_search(s, self))
		return 1;
	cudastub_log_debug(s->lib, "step 6: %s", STANDARD_PREFIX);
	return try_toolkit(s, self, CUDASTUB_SOURCE_STANDARD_PREFIX, STANDARD_PREFIX);
}

/*
 * Without a pin or an override, a library may prefer some majors (cudart:
 * those the installed driver can run). The steps then run twice: first for
 * the preferred majors, then, only if none was found, for the rest, since
 * a runtime the driver is too old for still answers better than none.
 */
static cudastub_state search_as(struct cudastub_search *s, const struct cudastub_self *self)
{
	const char *override = secure_getenv(s->lib->env_path);
	uint32_t all = 0, preferred = 0;
	const struct cudastub_soname *so;
	char msg[256];

	for (so = s->lib->sonames; so->soname; so++)
		all |= CUDASTUB_MAJOR_BIT(so->major);
	s->pass_majors = all;
	/* the reason `cudastub info` gives; preferred_majors refines it */
	if (override && *override) {
		s->info.release_reason = CUDASTUB_REASON_OVERRIDE;
		return step_override(s, self, override);
	}
	if (s->pin)
		s->info.release_reason = CUDASTUB_REASON_PIN;
	if (!s->pin && s->lib->preferred_majors) {
		/* the runtime's asks the driver: NVIDIA's code, through the fork
		 * gate (loader_fork.c) */
		struct cudastub_gate_pass pass = cudastub_fork_gate_enter();

		preferred = s->lib->preferred_majors(s) & all;
		cudastub_fork_gate_leave(pass);
	}
	if (preferred && preferred != all) {
		s->pass_majors = preferred;
		if (search_steps(s, self))
			return CUDASTUB_STATE_LOADED;
		cudastub_log_debug(s->lib, "no preferred major found; trying the others");
		s->pass_majors = all & ~preferred;
	}
	if (search_steps(s, self))
		return CUDASTUB_STATE_LOADED;
	snprintf(msg, sizeof msg, "no usable %s library was found", s->lib->family);
	s->info.error = cudastub_log_keep_message(s, msg);
	return CUDASTUB_STATE_NOT_FOUND;
}

cudastub_state cudastub_search(struct cudastub_search *s)
{
	struct cudastub_self self;
	cudastub_state state;

	cudastub_self_identify(&self);
	s->self = &self;
	cudastub_loaded_forget(s);
	state = search_as(s, &self);
	forget_loader_paths(s);
	s->self = NULL;
	return state;
}

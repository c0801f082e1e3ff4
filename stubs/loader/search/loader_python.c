/*
 * Where Python would import pip's NVIDIA wheels from, found without
 * Python's help: step 3 of the search (loader_search.c) looks for the
 * wheels' folders (nvidia/cu13/lib, nvidia/cuda_runtime/lib, ...) under
 * each root this file lists, in this order:
 *
 *   1. the stub's own folder and its three parents (a wheel that ships the
 *      stub beside its extension, in the same site-packages);
 *   2. the site-packages folders of $VIRTUAL_ENV (an activated venv);
 *   3. those of the running program's prefix when it is a Python
 *      interpreter (a venv's python started without activating it:
 *      <bin>/../lib/python3.N/site-packages);
 *   4. each $PYTHONPATH entry itself (pip install --target DIR puts
 *      nvidia/ directly in DIR) and its site-packages;
 *   5. the site-packages folder of any object already loaded from one (an
 *      extension imported from an editable install's environment);
 *   6. the user's site-packages, $HOME/.local/lib/python3.N/site-packages;
 *   7. $CONDA_PREFIX: conda's CUDA packages put the libraries themselves
 *      in $CONDA_PREFIX/lib and $CONDA_PREFIX/targets/<arch>-linux/lib
 *      (roots of kind CUDASTUB_ROOT_LIBRARY_FOLDER: the library is looked
 *      for in the folder, not under nvidia/).
 *
 * Every root is derived, not named by the user: loader_search.c takes a
 * file under one only through the trust rule (loader_trust.c), and in
 * secure mode lists none. Variables are read with secure_getenv. A root
 * is listed once, however many ways lead to it.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader_core.h"
#include "loader_process.h"
#include "loader_path.h"
#include "loader_python.h"
#include "loader_sys.h"

#if defined(__x86_64__)
#define CONDA_TARGET "x86_64-linux"
#elif defined(__aarch64__)
#define CONDA_TARGET "sbsa-linux"
#else
#define CONDA_TARGET ""
#endif

static int is_dir(const char *path)
{
	struct stat st;

	return cudastub_sys_stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Adds root (resolved) unless listed already; 1 when the list is full. */
static int add_root(struct cudastub_python_roots *roots, const char *root,
		    enum cudastub_root_kind kind, const char *why)
{
	char resolved[PATH_MAX];

	if (!realpath(root, resolved) || !is_dir(resolved))
		return 0;
	for (unsigned i = 0; i < roots->count; i++)
		if (!strcmp(roots->root[i].path, resolved))
			return 0;
	if (roots->count == CUDASTUB_MAX_PYTHON_ROOTS)
		return 1;
	cudastub_path_join(roots->root[roots->count].path, resolved, NULL, NULL);
	roots->root[roots->count].kind = kind;
	roots->root[roots->count].why = why;
	roots->count++;
	return 0;
}

/* Every <prefix>/lib/python3.N/site-packages (and dist-packages). Read
 * with opendir, not glob: glob's current version needs glibc 2.27
 * (stubs/loader/platform/glibc_floor.h). */
static void add_site_packages(struct cudastub_python_roots *roots, const char *prefix,
			      const char *why)
{
	static const char *const kinds[] = {"site-packages", "dist-packages"};
	char lib[PATH_MAX], root[PATH_MAX];
	struct dirent *entry;
	DIR *dir;

	/* is_dir first: most prefixes have no lib/ (~/.local), and the stat is
	 * a system call the search makes anyway, where opendir's first call
	 * binds it (about 700 instructions) */
	if (!cudastub_path_join(lib, prefix, "lib", NULL) || !is_dir(lib) || !(dir = opendir(lib)))
		return;
	while ((entry = readdir(dir)) != NULL) {
		if (strncmp(entry->d_name, "python3", 7))
			continue;
		for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
			if (cudastub_path_join(root, lib, entry->d_name, kinds[k]))
				add_root(roots, root, CUDASTUB_ROOT_WHEELS, why);
	}
	closedir(dir);
}

/* The running program, when it is a Python interpreter: its prefix. */
static void add_interpreter(struct cudastub_python_roots *roots)
{
	char exe[PATH_MAX], *slash;
	ssize_t n = cudastub_sys_readlink("/proc/self/exe", exe, sizeof exe - 8);

	if (n <= 0)
		return;
	memset(exe + n, 0, 8); /* the NUL, and defined bytes for memcmp below */
	slash = strrchr(exe, '/');
	/* memcmp, compiled inline (strncmp's first call would bind it): a
	 * shorter name differs at its NUL */
	if (!slash || memcmp(slash + 1, "python", 6))
		return;
	*slash = '\0'; /* <prefix>/bin */
	slash = strrchr(exe, '/');
	if (!slash)
		return;
	*slash = '\0';
	add_site_packages(roots, exe, "the Python interpreter's prefix");
}

/* What the process has loaded from a site-packages folder: that folder. */
static int visit_loaded(struct dl_phdr_info *info, size_t size, void *data)
{
	static const char *const markers[] = {"/site-packages/", "/dist-packages/"};
	struct cudastub_python_roots *roots = data;

	(void)size;
	if (!info->dlpi_name || !*info->dlpi_name)
		return 0;
	for (size_t k = 0; k < sizeof markers / sizeof *markers; k++) {
		const char *at = strstr(info->dlpi_name, markers[k]);
		char root[PATH_MAX];
		size_t len;

		if (!at)
			continue;
		len = (size_t)(at - info->dlpi_name) + strlen(markers[k]) - 1;
		if (len >= sizeof root)
			continue;
		memcpy(root, info->dlpi_name, len);
		root[len] = '\0';
		add_root(roots, root, CUDASTUB_ROOT_WHEELS,
			 "a site-packages folder already loaded from");
	}
	return 0;
}

static void add_python_path(struct cudastub_python_roots *roots)
{
	const char *value = secure_getenv("PYTHONPATH");
	char entry[PATH_MAX];

	while (value && *value) {
		size_t len = strcspn(value, ":");

		if (len && len < sizeof entry && value[0] == '/') {
			memcpy(entry, value, len);
			entry[len] = '\0';
			add_root(roots, entry, CUDASTUB_ROOT_WHEELS, "a PYTHONPATH entry");
			add_site_packages(roots, entry, "a PYTHONPATH entry");
		}
		value += len + (value[len] == ':');
	}
}

void cudastub_python_roots(struct cudastub_python_roots *roots, int loaded_from_python)
{
	const char *venv = secure_getenv("VIRTUAL_ENV");
	const char *home = secure_getenv("HOME");
	const char *conda = secure_getenv("CONDA_PREFIX");
	char path[PATH_MAX];

	if (venv && venv[0] == '/')
		add_site_packages(roots, venv, "VIRTUAL_ENV");
	add_interpreter(roots);
	add_python_path(roots);
	if (loaded_from_python) /* else this walk would find nothing */
		cudastub_dl_iterate_phdr(visit_loaded, roots);
	if (home && home[0] == '/' && cudastub_path_join(path, home, ".local", NULL))
		add_site_packages(roots, path, "the user's site-packages");
	if (conda && conda[0] == '/') {
		if (cudastub_path_join(path, conda, "lib", NULL))
			add_root(roots, path, CUDASTUB_ROOT_LIBRARY_FOLDER, "CONDA_PREFIX");
		if (*CONDA_TARGET &&
		    cudastub_path_join(path, conda, "targets/" CONDA_TARGET "/lib", NULL))
			add_root(roots, path, CUDASTUB_ROOT_LIBRARY_FOLDER, "CONDA_PREFIX");
	}
}

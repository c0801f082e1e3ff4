/*
 * cudastub info --stub PATH: what a stub file that ships elsewhere (inside
 * a wheel, perhaps renamed by auditwheel to libcudart_stub-1a2b3c4d.so)
 * would load, asked of that file and not of the stubs this command links.
 *
 * The file is dlopen()ed RTLD_LOCAL, so its entry points do not interpose
 * on the command's own, and it searches as itself: the folders it derives
 * (pip's wheels beside it) are its own. Which library it stands in for is
 * read from what it exports: the cudastub_<lib>_info that the file itself
 * defines. dlsym() on a handle also searches the file's dependencies, so
 * a definition counts only when dladdr() places it in the file.
 */
#define _GNU_SOURCE
#include "cli.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Why path cannot be a stub before anything is loaded from it, or NULL:
 * missing, unreadable, or not ELF (dlopen's own words would be vaguer). */
static const char *not_elf(const char *path)
{
	unsigned char magic[4];
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	ssize_t got;

	if (fd < 0)
		return "cannot be opened";
	got = read(fd, magic, sizeof magic);
	close(fd);
	if (got != (ssize_t)sizeof magic || memcmp(magic, "\177ELF", 4) != 0)
		return "is not an ELF file, so not a cudastub stub";
	return NULL;
}

/* The entry point name of library lib, if the object at map defines it. */
static void *own_symbol(void *handle, const struct link_map *map, int lib, const char *what)
{
	char name[96];
	Dl_info where;
	void *sym;

	snprintf(name, sizeof name, "cudastub_%s_%s", cli_known_libraries[lib].name, what);
	sym = dlsym(handle, name);
	if (!sym || !dladdr(sym, &where) || !where.dli_fname ||
	    strcmp(where.dli_fname, map->l_name) != 0)
		return NULL;
	return sym;
}

void *cli_open_stub(const char *path, const char **why)
{
	char local[4200];
	void *handle;

	if ((*why = not_elf(path)))
		return NULL;
	/* a bare name would send dlopen() searching; the file is meant */
	snprintf(local, sizeof local, "%s%s", strchr(path, '/') ? "" : "./", path);
	handle = dlopen(local, RTLD_LAZY | RTLD_LOCAL);
	if (!handle)
		*why = dlerror();
	return handle;
}

int cli_stub_entry_points(void *handle, int lib, const cudastub_library_info *(**info)(void),
			  cudastub_state (**load)(void))
{
	struct link_map *map = NULL;

	if (dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || !map)
		return -1;
	*(void **)info = own_symbol(handle, map, lib, "info");
	*(void **)load = own_symbol(handle, map, lib, "load");
	return *info && *load ? 0 : -1;
}

static int stub_error(const char *path, const char *why)
{
	cli_line(stderr, "cudastub info: --stub %s: %s", path, why);
	return -1;
}

int cli_collect_stub(struct cli_library *libs, const char *path, void **handle)
{
	const char *why = NULL;
	int n = 0;

	*handle = cli_open_stub(path, &why);
	if (!*handle)
		return stub_error(path, why);
	for (int i = 0; i < CUDASTUB_LIB_COUNT; i++) {
		const cudastub_library_info *(*info)(void);
		cudastub_state (*load)(void);

		if (!cli_known_libraries[i].name)
			continue; /* a hole */
		if (cli_stub_entry_points(*handle, i, &info, &load) != 0)
			continue;
		load();
		cli_fill(&libs[n++], i, info());
	}
	if (!n)
		return stub_error(path, "defines no cudastub_<lib>_info entry point: not a "
					"cudastub stub");
	return n;
}

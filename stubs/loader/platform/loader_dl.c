/*
 * dlopen, dlsym and the other functions of the dynamic loader, found in
 * the process when a stub first needs one, rather than imported.
 *
 * glibc before 2.34 keeps them in libdl.so.2 (and pthread_once in
 * libpthread.so.0): a stub that imports them must name both files, and
 * every process that links a stub then maps two more files at start-up,
 * which is half of what loading a stub costs the dynamic loader (some
 * 24,000 instructions; since 2.34 the two files are empty and the
 * functions are in libc.so.6). So a stub names libc.so.6 alone
 * (cmake/CudastubStub.cmake) and, at its first need (the first search, or
 * the runtime stub's first registration), reads the functions from the
 * symbol table of the object that defines them (loader_symtab.c):
 *   - libc.so.6 itself, from glibc 2.34 on;
 *   - before, libdl.so.2, loaded (or found loaded) with libc's
 *     __libc_dlopen_mode, with which glibc loads its own NSS modules
 *     (exported to libdl since 2.3, never renamed until 2.34 made it
 *     needless).
 * libc.so.6 is found in the dynamic loader's list of objects
 * (loader_debug.c). A process where none of that is found (not glibc)
 * gets NULL from every call, and dlerror says why: the stub then loads
 * nothing and answers with its library-missing code.
 *
 * The functions are called from the stub's own code, so glibc sees the
 * stub as the caller, as it did: dlopen searches the stub's RUNPATH,
 * expands $ORIGIN from its folder, and loads into its namespace.
 *
 * Threads that need the functions while another thread reads them read
 * them too, each into its own copy, and never wait: one may be in a
 * library constructor, holding the loader's lock that the first one's
 * __libc_dlopen_mode waits for.
 */
#define _GNU_SOURCE
#include <link.h>
#include <stdatomic.h>

#include "loader_core.h"
#include "loader_dl.h"
#include "loader_debug.h"
#include "loader_symtab.h"
#include "loader_sys.h"

/* glibc's private flag that marks a load as made by dlopen */
#define LIBC_RTLD_DLOPEN 0x80000000

/* glibc's, which take what the loader's own of loader_dl.h take */
struct dl_functions {
	void *(*open)(const char *, int);
	void *(*sym)(void *, const char *);
	int (*close)(void *);
	char *(*error)(void);
	int (*addr1)(const void *, Dl_info *, void **, int);
	int (*info)(void *, int, void *);
};

enum { UNKNOWN = 0, FOUND = 1, MISSING = 2 };
/* UNKNOWN, FOUND, MISSING, or (process id << 2 | 3) while one reads them */
static atomic_uint state;
static struct dl_functions found;

static int read_functions(struct dl_functions *f, const struct link_map *from)
{
	*(void **)&f->open = cudastub_object_symbol(from, "dlopen");
	*(void **)&f->sym = cudastub_object_symbol(from, "dlsym");
	*(void **)&f->close = cudastub_object_symbol(from, "dlclose");
	*(void **)&f->error = cudastub_object_symbol(from, "dlerror");
	*(void **)&f->addr1 = cudastub_object_symbol(from, "dladdr1");
	*(void **)&f->info = cudastub_object_symbol(from, "dlinfo");
	return f->open && f->sym && f->close && f->error && f->addr1 && f->info;
}

/* libdl.so.2 of a glibc before 2.34, loaded by libc itself; NULL when that
 * cannot be done. */
static const struct link_map *libdl_of(const struct link_map *libc)
{
	void *(*libc_dlopen)(const char *, int);

	*(void **)&libc_dlopen = cudastub_object_symbol(libc, "__libc_dlopen_mode");
	/* glibc's handles are link maps */
	return libc_dlopen ? libc_dlopen("libdl.so.2", RTLD_LAZY | LIBC_RTLD_DLOPEN) : NULL;
}

static int look_up(struct dl_functions *f)
{
	const struct link_map *libc = cudastub_startup_object("libc.so.6"), *libdl;

	if (!libc)
		return 0;
	if (read_functions(f, libc))
		return 1;
	return (libdl = libdl_of(libc)) != NULL && read_functions(f, libdl);
}

static const struct dl_functions *functions(struct dl_functions *own)
{
	unsigned seen = atomic_load_explicit(&state, memory_order_acquire), mine;

	if (seen == FOUND)
		return &found;
	if (seen == MISSING)
		return NULL;
	mine = ((unsigned)cudastub_sys_getpid() << 2) | 3u;
	/* the first reads into the kept copy; a parent's read that a fork cut
	 * short is not this process's */
	if ((seen == UNKNOWN || ((seen & 3u) == 3u && seen != mine)) &&
	    atomic_compare_exchange_strong(&state, &seen, mine)) {
		int ok = look_up(&found);

		atomic_store_explicit(&state, ok ? FOUND : MISSING, memory_order_release);
		return ok ? &found : NULL;
	}
	if (seen == FOUND)
		return &found;
	return look_up(own) ? own : NULL;
}

static char missing[] = "cudastub: this process's C library has no dlopen that the stub can find";

void *cudastub_dl_open(const char *file, int mode)
{
	struct dl_functions own;
	const struct dl_functions *f = functions(&own);

	return f ? f->open(file, mode) : NULL;
}

void *cudastub_dl_sym(void *handle, const char *name)
{
	struct dl_functions own;
	const struct dl_functions *f = functions(&own);

	return f ? f->sym(handle, name) : NULL;
}

int cudastub_dl_close(void *handle)
{
	struct dl_functions own;
	const struct dl_functions *f = functions(&own);

	return f ? f->close(handle) : -1;
}

char *cudastub_dl_error(void)
{
	struct dl_functions own;
	const struct dl_functions *f = functions(&own);

	return f ? f->error() : missing;
}

int cudastub_dl_addr1(const void *address, Dl_info *info, void **extra, int flags)
{
	struct dl_functions own;
	const struct dl_functions *f = functions(&own);

	return f ? f->addr1(address, info, extra, flags) : 0;
}

int cudastub_dl_info(void *handle, int request, void *arg)
{
	struct dl_functions own;
	const struct dl_functions *f = functions(&own);

	return f ? f->info(handle, request, arg) : -1;
}

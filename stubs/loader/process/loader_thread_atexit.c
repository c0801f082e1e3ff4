/*
 * glibc's registration of a thread_local destructor,
 * __cxa_thread_atexit_impl (2.18 and later), above the stubs' glibc floor:
 * looked up in libc's symbol table at its first use rather than linked (or
 * asked of dlsym, which would bind it at every start). Without it (2.17)
 * every registration fails, and the callers do without.
 */
#define _GNU_SOURCE
#include <link.h>
#include <stdatomic.h>

#include "loader_process.h"
#include "loader_symtab.h"

typedef int (*thread_atexit_fn)(void (*)(void *), void *, void *);

/* what the look-up found, once looked_up says one has run. Threads that
 * race the first use each look it up and store the same answer. */
static _Atomic(thread_atexit_fn) found;
static atomic_int looked_up;

extern void *__dso_handle;

static thread_atexit_fn lookup(void)
{
	const struct link_map *libc;
	thread_atexit_fn fn = NULL;

	if (atomic_load_explicit(&looked_up, memory_order_acquire))
		return atomic_load_explicit(&found, memory_order_relaxed);
	libc = cudastub_startup_object("libc.so.6");
	if (libc)
		*(void **)&fn = cudastub_object_symbol(libc, "__cxa_thread_atexit_impl");
	atomic_store_explicit(&found, fn, memory_order_relaxed);
	atomic_store_explicit(&looked_up, 1, memory_order_release);
	return fn;
}

int cudastub_thread_atexit(void (*destructor)(void *), void *arg)
{
	thread_atexit_fn fn = lookup();

	/* tied to the stub's own __dso_handle: glibc keeps the stub loaded
	 * while the thread lives */
	return fn ? fn(destructor, arg, &__dso_handle) : -1;
}

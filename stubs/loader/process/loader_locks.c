/*
 * The dynamic loader's two locks, as glibc keeps them: dl_load_lock, which
 * dlopen and dlclose hold while a library's constructors or destructors
 * run, and dl_load_write_lock, which dl_iterate_phdr holds while its
 * callback runs and dlopen and dlclose while they change the list of
 * objects. Two questions are asked of them:
 *
 *   - does this thread hold one? A first call that does must not wait for
 *     another thread's search, which may be waiting for that lock
 *     (loader_load.c); one that does not can wait for as long as the
 *     search takes;
 *   - in a child of fork(), was one left held by a thread of the parent?
 *     glibc (2.36) makes the child's dl_load_lock new but leaves
 *     dl_load_write_lock as the parent's threads held it, and the child's
 *     next walk of its objects, or dlopen of a library, would wait for
 *     ever (loader_fork.c).
 *
 * Both are recursive pthread mutexes that name their owner's thread id,
 * the first two after the count of namespaces in ld.so's _rtld_global
 * (GLIBC_PRIVATE, and not a layout glibc promises): they are found by
 * that shape (a count from 1 to 16, then two mutexes whose kind is
 * recursive) and, before they are trusted, checked: inside a walk this
 * thread makes, the second names this thread as its owner, and the first
 * does not unless this thread held it before. Where that does not hold
 * (another C library, another layout), the answer is "unknown", and the
 * callers behave as they did without it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "loader_core.h"
#include "loader_process.h"

/* The first fields of glibc's mutex, the same on x86-64 and aarch64. */
struct glibc_mutex {
	int lock;
	unsigned count;
	int owner;
	unsigned users;
	int kind;
};

enum { RECURSIVE = 1, MAX_NAMESPACES = 16 };
enum { UNKNOWN = 0, FOUND = 1, ABSENT = 2 };

static atomic_int state;
/* written by each thread that checks (all find the same), read once state
 * says FOUND */
static _Atomic(const struct glibc_mutex *) load_lock, write_lock;

static int thread_id(void)
{
	return (int)syscall(SYS_gettid);
}

static int owner_of(const struct glibc_mutex *m)
{
	return __atomic_load_n(&m->owner, __ATOMIC_RELAXED);
}

/* The two locks in _rtld_global, by their shape; 0 when found. */
static int find_by_shape(const struct glibc_mutex **load, const struct glibc_mutex **write)
{
	size_t size = 0, step = sizeof(pthread_mutex_t);
	const char *global = cudastub_ld_so_symbol("_rtld_global", &size);

	if (!global || size < 2 * step + sizeof(size_t))
		return -1;
	for (size_t at = 0; at + sizeof(size_t) + 2 * step <= size; at += sizeof(size_t)) {
		size_t namespaces;
		const struct glibc_mutex *a, *b;

		memcpy(&namespaces, global + at, sizeof namespaces);
		a = (const struct glibc_mutex *)(global + at + sizeof(size_t));
		b = (const struct glibc_mutex *)((const char *)a + step);
		if (namespaces >= 1 && namespaces <= MAX_NAMESPACES && a->kind == RECURSIVE &&
		    b->kind == RECURSIVE) {
			*load = a, *write = b;
			return 0;
		}
	}
	return -1;
}

struct check {
	const struct glibc_mutex *load, *write;
	int self, held_load, ok;
};

static int check_inside_walk(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct check *c = arg;

	(void)info, (void)size;
	c->ok = owner_of(c->write) == c->self && (owner_of(c->load) == c->self) == c->held_load;
	return 1;
}

/* Found and checked once per process; threads that race it find the same,
 * and none waits for another. */
static int locks_known(void)
{
	int seen = atomic_load_explicit(&state, memory_order_acquire);
	struct check c = {0};

	if (seen != UNKNOWN)
		return seen == FOUND;
	if (find_by_shape(&c.load, &c.write) == 0) {
		c.self = thread_id();
		c.held_load = owner_of(c.load) == c.self;
		/* through the fork gate, as every walk: it holds the list lock */
		cudastub_dl_iterate_phdr(check_inside_walk, &c);
	}
	if (c.ok) {
		atomic_store_explicit(&load_lock, c.load, memory_order_relaxed);
		atomic_store_explicit(&write_lock, c.write, memory_order_relaxed);
	}
	atomic_store_explicit(&state, c.ok ? FOUND : ABSENT, memory_order_release);
	return c.ok;
}

int cudastub_loader_lock_held(void)
{
	int self;

	if (!locks_known())
		return -1;
	self = thread_id();
	return owner_of(atomic_load_explicit(&load_lock, memory_order_relaxed)) == self ||
	       owner_of(atomic_load_explicit(&write_lock, memory_order_relaxed)) == self;
}

/* Whether thread tid is gone from this process (pid). */
static int gone(int pid, int tid)
{
	int saved = errno, is_gone = syscall(SYS_tgkill, pid, tid, 0) != 0 && errno == ESRCH;

	errno = saved;
	return is_gone;
}

int cudastub_loader_lock_orphaned(int pid)
{
	const struct glibc_mutex *load, *write;
	int owner;

	/* Not yet checked here: the check walks the objects, which would wait
	 * for ever on a lock a fork left held. A lock of that shape that names
	 * a thread this process does not have is answered first. */
	if (atomic_load_explicit(&state, memory_order_acquire) == UNKNOWN &&
	    find_by_shape(&load, &write) == 0 && __atomic_load_n(&write->lock, __ATOMIC_RELAXED) &&
	    (owner = owner_of(write)) > 0 && owner != thread_id() && gone(pid, owner))
		return 1;
	if (!locks_known())
		return -1;
	owner = owner_of(atomic_load_explicit(&write_lock, memory_order_relaxed));
	return owner > 0 && owner != thread_id() && gone(pid, owner);
}

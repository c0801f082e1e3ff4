/*
 * Searches and fork(): a child must not inherit a library the stub is in
 * the middle of loading. glibc's fork() does not wait for a dlopen in
 * another thread, and a child forked during one inherits the loader as it
 * stood:
 *
 *   - while the library is being mapped, the loader's state reads "adding"
 *     (r_debug.r_state == RT_ADD), and the child's own first dlopen stops
 *     the process ("Inconsistency detected by ld.so: dl-open.c: ...
 *     RT_CONSISTENT"), exit status 127;
 *   - once mapped, the state reads consistent again, but the library is
 *     still being relocated; the child's dlopen of the same file finds it
 *     loaded and hands it back unrelocated, and the first call into it
 *     crashes (SIGSEGV).
 *
 * Both were seen, in about 1 of 100 runs of eight forks during a 16-thread
 * first-call storm, on a busy 2-core machine. Waiting for r_state alone
 * covers the first only. A third is dl_iterate_phdr: it holds the loader's
 * write lock while it walks, and glibc (2.36) resets only the other loader
 * lock in a child, so a child forked during the walk waits for ever at its
 * next dl_iterate_phdr, or at a dlopen that adds a library.
 *
 * So every dlopen, dlclose and dl_iterate_phdr the stub makes passes a
 * gate (and every atexit: cudastub_atexit, below), and fork()
 * (pthread_atfork) closes it: the prepare handler marks a
 * fork pending, then waits until no stub call into the loader is in flight
 * and r_state reads consistent (which also covers other threads' mapping,
 * if not their relocation), for FORK_WAIT_MS at most. A stub call that
 * meets a pending fork steps back until the fork is done, then asks again.
 * The gate takes no lock, so it adds no lock order.
 *
 * The bound matters where a library's constructor (run inside dlopen, so
 * "in flight") waits for the thread that forks: glibc before 2.36 made
 * pthread_atfork wait for a fork in progress, so a constructor calling it
 * held that fork up for the bound, once. None of NVIDIA's libraries the
 * stubs load calls it while loading (libcuda imports it, and calls it
 * later). With CUDASTUB_DEBUG=1 a fork that waits out the bound says so.
 *
 * Nothing here relies on a child handler: glibc (2.36 on) does not run, in
 * the child of a fork already under way, the handlers registered during
 * it, so what a child inherits is told apart by process id instead.
 *
 * Cancellation: a thread cancelled inside the gate or a prepare handler
 * would leave behind what it held (a slot that every later fork waits a
 * second for; in fork(), the runtime stub registry's lock, taken by the
 * prepare handler that ran before this one, and with it the next replay
 * and every __cudaUnregisterFatBinary), and one cancelled inside a library
 * constructor that the stub's dlopen runs would leave glibc's loader lock
 * held for ever. So the prepare handler and every call through the gate
 * run with cancellation disabled, and give the caller back its own state
 * after: a cancel asked for meanwhile takes effect at the caller's next
 * cancellation point. Linked directly, a library's constructor would have
 * run before main, where no cancel reaches it.
 *
 * A fork the guard could not hold (it began before the guard was
 * installed, or another thread's dlopen, not the stub's, began between the
 * prepare handler and the fork itself) can give a child whose loader is
 * caught mid-change: r_state reads RT_ADD or RT_DELETE, and the thread
 * that would have finished the change is not in the child. Nobody ever
 * will, and glibc's next dlopen there stops the process ("Inconsistency
 * detected by ld.so: dl-open.c: ... r_state == RT_CONSISTENT", exit status
 * 127). Linked directly, such a child loads nothing and runs on; so a
 * search in it loads nothing either and returns the not-available code
 * with the reason (cudastub_fork_left_loader_mid_change). Such a child is
 * told from a parent whose other thread is simply mid-dlopen (where dlopen
 * waits its turn and is safe) by this process having one thread (procfs'
 * num_threads): the gate's record of a fork would not do, since a child
 * keeps it for life, threads and their dlopen calls included.
 *
 * Measured with a thread looping dlopen/dlclose of a plugin and the NVRTC
 * stub's first call in each child forked meanwhile (no driver; the test
 * loader_fork_plugins): before, 18 of 30 children hung (their search's
 * walk of the loaded objects waited for the list lock the parent's dlopen
 * held; the issue saw ld.so's assertion, 14 of 150); then none was stopped
 * by ld.so, some return the not-available code and the others load as
 * usual; linked directly, 150 of 150 run. 8 to 14 of 60 still waited for
 * ever, most of them not in dlopen, as was thought, but in the first
 * call's atexit, on the lock of glibc's exit-handler list that the
 * parent's dlclose held (loader_exit.c: a child registers no exit handler
 * since). Left: 2 of 2,100 children (3 of 60 on a busy machine) wait for
 * ever inside their dlopen, adding the library to the loader's list, for
 * that list's lock, which the parent's dlopen or dlclose held while
 * r_state read consistent; nothing a process can read tells that case
 * apart. What such a child can do: anything that needs no dlopen. What it
 * cannot: load any library. And a child loads a library that registers
 * exit handlers while it loads (NVIDIA's C++ libraries do) only when no
 * parent thread held that list's lock at the fork: the stub's own
 * registrations pass the gate, other code's cannot be seen. A child that
 * starts threads before its first call is not recognised as left
 * mid-change, and ld.so stops it as before.
 *
 * The handlers are installed (cudastub_once, which a child forked while it
 * ran runs again) before the first search, and by the runtime stub
 * before its registry's own. A fork already under way when they are
 * installed does not run them (glibc 2.36), and nothing a library can call
 * waits for such a fork; installing them at the stub's first use leaves
 * that window to a fork that began before the stub was first used and
 * reaches the kernel after a search has started.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "loader_core.h"
#include "loader_pid.h"
#include "loader_log.h"
#include "loader_once.h"
#include "loader_process.h"
#include "loader_wait.h"

#define FORK_WAIT_MS 1000
#define SLOTS	     64

static cudastub_once_t installed = CUDASTUB_ONCE_INIT;
/* A stub call into the loader under way holds a slot, marked with its
 * process id (high half) and its thread's id (low half); a slot marked
 * with another process's id is a parent's, stale in a forked child. Marks
 * rather than a count, because a handler installed while another thread
 * forks does not run in that child (glibc 2.36 runs the child handlers of
 * those whose prepare ran), so no handler can be relied on to reset what
 * a child inherits. The thread's id tells a thread's own calls from the
 * others': a constructor that forks inside a stub dlopen must not wait for
 * itself, nor a call it makes wait for its own fork. */
static atomic_ullong slots[SLOTS];
/* The forks between prepare and parent: process id in the high half,
 * count in the low, so that a child never waits for its parent's fork. */
static atomic_ullong pending;

static int thread_id(void)
{
	return (int)syscall(SYS_gettid);
}

static unsigned long long mark_of(int pid, int tid)
{
	return ((unsigned long long)(unsigned)pid << 32) | (unsigned)tid;
}

static int pid_of(unsigned long long mark)
{
	return (int)(mark >> 32);
}

/* Calls of this process in flight, other than thread self's. */
static int calls_in_flight(int me, int self)
{
	int n = 0;

	for (int i = 0; i < SLOTS; i++) {
		unsigned long long mark = atomic_load(&slots[i]);

		n += pid_of(mark) == me && mark != mark_of(me, self);
	}
	return n;
}

/* Whether thread self holds a slot other than skip: a call made inside
 * one of its own (a constructor under a stub dlopen). */
static int holds_another(int me, int self, int skip)
{
	for (int i = 0; i < SLOTS; i++)
		if (i != skip && atomic_load(&slots[i]) == mark_of(me, self))
			return 1;
	return 0;
}

static int loader_consistent(void)
{
	struct r_debug *debug = cudastub_loader_debug();

	return !debug || __atomic_load_n(&debug->r_state, __ATOMIC_ACQUIRE) == RT_CONSISTENT;
}

struct forker {
	int pid, tid;
};

static int loader_idle(void *arg)
{
	const struct forker *f = arg;

	return calls_in_flight(f->pid, f->tid) == 0 && loader_consistent();
}

static int forks_pending(int me)
{
	unsigned long long p = atomic_load(&pending);

	return (int)(p >> 32) == me && (p & 0xffffffffu) != 0;
}

static int no_fork_pending(void *unused)
{
	(void)unused;
	return !forks_pending(cudastub_pid());
}

/* Marks a free (or a parent's) slot for thread self of process me; -1
 * when all are taken. */
static int take_slot(int me, int self)
{
	for (int i = 0; i < SLOTS; i++) {
		unsigned long long seen = atomic_load(&slots[i]);

		if (pid_of(seen) != me &&
		    atomic_compare_exchange_strong(&slots[i], &seen, mark_of(me, self)))
			return i;
	}
	return -1;
}

/* Both sides announce themselves before they look at the other (sequential
 * consistency), so a fork and a stub call never both go ahead unseen: a
 * call goes ahead only having seen, its mark up, no fork pending. One that
 * meets a fork takes its mark down, waits, and asks again with its mark up:
 * a program that forks in a loop starts the next fork as the last ends,
 * and its prepare handler may have looked at the marks, found none, and
 * gone on while this call was waiting. A fork held past the bound lets
 * the call go on. A call made inside another of the same thread's does not
 * wait (that thread's fork would wait for it). A call past 64 at once goes
 * unmarked: the gate is then best effort. */
static int enter(int me, int self)
{
	int slot = take_slot(me, self);

	while (forks_pending(me) && !holds_another(me, self, slot)) {
		if (slot >= 0)
			atomic_store(&slots[slot], 0);
		if (!cudastub_wait_bounded(no_fork_pending, NULL, FORK_WAIT_MS)) {
			slot = take_slot(me, self);
			break;
		}
		slot = take_slot(me, self);
	}
	return slot;
}

/* Clears the mark unless this is now a child and another thread took the
 * slot (the mark is then not ours to clear). */
static void leave(int slot, int me, int self)
{
	unsigned long long mark = mark_of(me, self);

	if (slot >= 0)
		atomic_compare_exchange_strong(&slots[slot], &mark, 0);
}

/* Cancellation off for a call through the gate: see the comment above. */
static int cancel_off(void)
{
	int caller;

	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &caller);
	return caller;
}

static void cancel_restore(int caller)
{
	pthread_setcancelstate(caller, NULL);
}

void *cudastub_dlopen(const char *path, int flags)
{
	int caller = cancel_off(), me = cudastub_pid(), self = thread_id(), slot = enter(me, self);
	void *handle = dlopen(path, flags);

	leave(slot, me, self);
	cancel_restore(caller);
	return handle;
}

int cudastub_dlclose(void *handle)
{
	int caller = cancel_off(), me = cudastub_pid(), self = thread_id(), slot = enter(me, self);
	int rc = dlclose(handle);

	leave(slot, me, self);
	cancel_restore(caller);
	return rc;
}

int cudastub_dl_iterate_phdr(int (*visit)(struct dl_phdr_info *, size_t, void *), void *data)
{
	int caller = cancel_off(), me = cudastub_pid(), self = thread_id(), slot = enter(me, self);
	int rc = dl_iterate_phdr(visit, data);

	leave(slot, me, self);
	cancel_restore(caller);
	return rc;
}

/* The stub registers exit handlers at its first search and again once a
 * library is loaded (loader_exit.c). glibc (2.36) leaves the lock of that
 * list as it was in a forked child, so a child forked while another
 * thread of its parent registered one waits for ever at any registration
 * of its own: 2 children in 8,000 fork storms did, their first call
 * blocked in __internal_atexit once their search had loaded the runtime
 * (tests/cudart/race_main.c). A child registers none of the stub's since
 * (loader_exit.c), but the C++ libraries its first call loads register
 * theirs. Through the gate, no fork goes ahead while the stub registers
 * one; the guard is installed first, since the first registration comes
 * before the first search. */
int cudastub_atexit(void (*handler)(void))
{
	int caller, me, self, slot, rc;

	cudastub_fork_guard_install();
	caller = cancel_off();
	me = cudastub_pid();
	self = thread_id();
	slot = enter(me, self);
	rc = atexit(handler);
	leave(slot, me, self);
	cancel_restore(caller);
	return rc;
}

static void fork_prepare(void)
{
	struct forker f = {cudastub_pid(), thread_id()};
	unsigned long long me = (unsigned long long)(unsigned)f.pid, seen = atomic_load(&pending),
			   next;
	int caller = cancel_off();

	do /* a count left by a parent's fork is not ours: start again */
		next = (seen >> 32) == me ? seen + 1 : (me << 32) | 1;
	while (!atomic_compare_exchange_weak(&pending, &seen, next));
	if (!cudastub_wait_bounded(loader_idle, &f, FORK_WAIT_MS) && cudastub_log_enabled())
		cudastub_log_stderr("cudastub: fork() waited %d ms for a library load in another "
				    "thread (%d in flight, loader %s) and went on; the child may "
				    "find that library half initialised (is a constructor waiting "
				    "on this fork?)\n",
				    FORK_WAIT_MS, calls_in_flight(f.pid, f.tid),
				    loader_consistent() ? "consistent" : "mapping");
	cancel_restore(caller);
}

/* In the child the count is the parent's (another process id): nothing to
 * undo there, and the child's own slots are whatever it marks anew. */
static void fork_parent(void)
{
	atomic_fetch_sub(&pending, 1);
}

static void install(void)
{
	pthread_atfork(fork_prepare, fork_parent, NULL);
}

void cudastub_fork_guard_install(void)
{
	cudastub_once(&installed, install);
}

/* The number of threads in this process (procfs' num_threads, the 20th
 * field of /proc/self/stat), or 0 when unknown. */
static int thread_count(void)
{
	char text[1024];
	const char *field = cudastub_proc_stat_field("/proc/self/stat", 20, text, sizeof text);

	return field ? atoi(field) : 0;
}

const char *cudastub_fork_left_loader_mid_change(void)
{
	if (loader_consistent())
		return NULL;
	if (thread_count() != 1)
		return NULL; /* another thread's dlopen: it finishes, ours waits */
	return "the dynamic loader was left mid-change by a fork; no library can be loaded in "
	       "this process";
}

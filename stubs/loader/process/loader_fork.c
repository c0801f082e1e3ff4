/*
 * Searches and fork(): a child must not inherit a library the stub is in
 * the middle of loading, nor a loader lock the stub's calls held. glibc's
 * fork() does not wait for another thread's dlopen, and a child inherits
 * the loader as it stood:
 *
 *   - while a library is being mapped, the loader's state reads "adding"
 *     (r_debug.r_state == RT_ADD), and the child's own first dlopen stops
 *     the process ("Inconsistency detected by ld.so: dl-open.c: ...
 *     RT_CONSISTENT"), exit status 127;
 *   - once mapped, the state reads consistent again, but the library is
 *     still being relocated; the child's dlopen of the same file finds it
 *     loaded and hands it back unrelocated, and the first call into it
 *     crashes (SIGSEGV);
 *   - glibc (2.36) makes the child's dl_load_lock and dl_load_tls_lock
 *     new, but leaves dl_load_write_lock, which dl_iterate_phdr holds
 *     while it walks and dlopen and dlclose while they change the list of
 *     objects, and the lock of the exit-handler list, which every
 *     __cxa_atexit takes (NVIDIA's C++ libraries call it from their
 *     constructors), as the parent's threads held them: a child forked
 *     during either waits for ever at its next walk, dlopen of a new
 *     library, or registration (and exit()).
 *
 * So every dlopen, dlclose and dl_iterate_phdr the stub makes passes a
 * gate (and every atexit: cudastub_atexit, below), and fork()
 * (pthread_atfork) closes it: the prepare handler marks a fork pending,
 * then waits until no stub call into the loader is in flight and r_state
 * reads consistent (which also covers other threads' mapping, if not their
 * relocation), for FORK_WAIT_MS at most. A stub call that meets a pending
 * fork steps back and sleeps until the fork is done (a futex the parent
 * handler wakes), then asks again: calls held up by a fork never poll,
 * which in a storm of first calls took the CPU from the loads the fork was
 * waiting for, until it waited out its bound. The gate takes no lock, so
 * it adds no lock order.
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
 * A fork the gate does not hold (it began before the guard was installed,
 * or the walk or load was another thread's, not the stub's: the program's
 * own dlopen, dlclose or dl_iterate_phdr) can give a child whose loader
 * nobody will ever finish: linked directly, such a child loads nothing and
 * runs on, so a search in it loads nothing either, walks nothing, and
 * returns the not-available code with the reason
 * (cudastub_fork_left_loader_mid_change):
 *   - r_state reads RT_ADD or RT_DELETE, and this process has one thread
 *     (procfs' num_threads: a parent whose other thread is simply
 *     mid-dlopen, where dlopen waits its turn and is safe, has more; the
 *     gate's record of a fork would not do, since a child keeps it for
 *     life, threads and their dlopen calls included);
 *   - in a child of the process the stub was loaded in, the list lock
 *     names a thread this process does not have (loader_locks.c).
 * What is left: a child whose parent's own thread (not the stub's) held
 * the exit-handler list's lock at the fork, which no process can read,
 * waits for ever in the constructor of a C++ library its first call
 * loads, as it would at its own atexit() or exit(), linked directly or
 * not; and a child that starts threads before its first call is not
 * recognised as left mid-change, and ld.so stops it as before.
 *
 * The handlers are installed (cudastub_once, which a child forked while it
 * ran runs again) when the stub is loaded, by its one constructor
 * (loader_exit.c), and by the runtime stub before its registry's own. A
 * fork already under way when they are installed does not run them (glibc
 * 2.36), and nothing a library can call waits for such a fork: installed
 * at the first search, they missed every fork whose prepare phase (other
 * libraries' handlers, which may wait) had begun when the first searches
 * of a storm started, and such a fork went ahead while a stub's dlopen
 * relocated NVIDIA's library, whose child crashed in its own dlopen. At
 * load, only a fork under way while a program dlopen()s the stub itself
 * is left, whose child the checks above answer, but for a lock of the
 * exit-handler list that a load held.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
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
/* bumped as each fork ends in the parent: the futex word that calls held
 * up by a fork sleep on */
static atomic_int forks_ended;

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

int cudastub_loader_consistent(void)
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

	return calls_in_flight(f->pid, f->tid) == 0 && cudastub_loader_consistent();
}

static int forks_pending(int me)
{
	unsigned long long p = atomic_load(&pending);

	return (int)(p >> 32) == me && (p & 0xffffffffu) != 0;
}

static long long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Sleeps until no fork of process me is pending (1), or FORK_WAIT_MS have
 * passed (0). Every call that a fork holds up sleeps on forks_ended, which
 * the fork's parent handler bumps and wakes: a storm of first calls held
 * up by a fork does not poll while the fork waits for the loads in flight
 * (it took their CPU, and a fork then waited out its bound). The word is
 * read before the pending forks, and bumped after the count falls, so an
 * end between the two makes the sleep return at once. */
static int wait_for_forks(int me)
{
	long long until = now_ms() + FORK_WAIT_MS;

	for (;;) {
		int seen = atomic_load(&forks_ended);
		long long left = until - now_ms();

		if (!forks_pending(me))
			return 1;
		if (left <= 0)
			return 0;
		cudastub_futex_wait(&forks_ended, seen, (int)left);
	}
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
		if (!wait_for_forks(me)) {
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

/* A call into a library the stub searches, before the library is
 * published: its version probe, its check, the runtime's driver probe.
 * That is NVIDIA's code, whose own locks (libcuda's, taken by the probe's
 * cuDriverGetVersion and cuGetProcAddress, which its exit handler takes
 * again) a fork would leave held in the child as it leaves the loader's;
 * linked directly, no such call happens while the program forks. So it
 * passes the gate too, and runs with cancellation disabled. (The runtime's
 * replay of the kernel registrations calls into NVIDIA's code under the
 * registry's lock, which its own fork handler waits for.) */
struct cudastub_gate_pass cudastub_fork_gate_enter(void)
{
	struct cudastub_gate_pass pass;

	pass.caller = cancel_off();
	pass.pid = cudastub_pid();
	pass.tid = thread_id();
	pass.slot = enter(pass.pid, pass.tid);
	return pass;
}

void cudastub_fork_gate_leave(struct cudastub_gate_pass pass)
{
	leave(pass.slot, pass.pid, pass.tid);
	cancel_restore(pass.caller);
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
				    cudastub_loader_consistent() ? "consistent" : "mapping");
	cancel_restore(caller);
}

/* In the child the count is the parent's (another process id): nothing to
 * undo there, and the child's own slots are whatever it marks anew. */
static void fork_parent(void)
{
	atomic_fetch_sub(&pending, 1);
	atomic_fetch_add(&forks_ended, 1);
	cudastub_futex_wake_all(&forks_ended);
}

static void install(void)
{
	pthread_atfork(fork_prepare, fork_parent, NULL);
}

void cudastub_fork_guard_install(void)
{
	cudastub_once(&installed, install);
}

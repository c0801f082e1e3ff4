/*
 * A thread that loaded a library, ending beside exit().
 *
 * A library's constructors run on the thread that loads it. Linked
 * directly, that is the main thread, whose key destructors never run
 * (exit() ends the process without them). Loaded by a first call, it may
 * be any thread, and some libraries give that thread a record there,
 * which a pthread key destructor releases when the thread ends. libnvrtc
 * 13 does, under a lock of its own that its exit handler destroys: a
 * worker that ended while the main thread ran exit() locked that lock as
 * it was destroyed, and glibc's assertion in pthread_mutex_lock stopped
 * the process (once, 1 run in 60 of tests/e2e/test_exit_race.c; every
 * time on the fake that keeps such records, tests/loader/test_exit.c).
 *
 * So a thread other than the main thread whose search loaded a library
 * gets a thread_local destructor, registered after the load. glibc runs a
 * thread's thread_local destructors newest first and all of them before
 * its key destructors, so this one runs before anything the library
 * registered for the thread. It keeps the thread's end out of the window
 * in which exit() runs a loaded library's exit handlers: the stub's
 * handler registered after the load opens that window (glibc runs it just
 * before the library's own), the one registered before the search closes
 * it (loader_exit.c, point 6).
 *   - A thread that ends outside the window writes its id in a slot, and
 *     the handler that opens a window waits until each thread in a slot is
 *     gone: its key destructors have run, whole, before the library's exit
 *     handlers.
 *   - A thread that ends inside the window waits until it closes. Its key
 *     destructors then run after the library's teardown, as on a thread
 *     that ended later; what a library does then is its own affair, as
 *     when it is linked directly.
 * Both sides write before they read, with sequential consistency, as a
 * search and the exit mark do: a thread either sees the window or is
 * waited for. A thread that sees the window gives its slot back before it
 * waits, so exit() never waits for a thread that waits for exit().
 * exit()'s handlers that run before the window (the program's, registered
 * after the load: a pool that joins its threads) are not held up at all.
 *
 * Both waits are bounded (CUDASTUB_EXIT_WAIT_MS). The bound is met only
 * when an exit handler inside the window (a library's, or one registered
 * while that library loaded) joins the waiting thread; exit() then goes
 * on. A slot keeps the id of a thread long gone until a window opens (one
 * system call each) or a thread needs the slot; an id reused by then
 * makes that exit() wait for an unrelated thread, for the bound at most.
 * A thread that finds no free slot (SLOTS ending at once) goes unwatched.
 * The thread_local destructor keeps the stub loaded while the thread
 * lives, as glibc does for any.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "loader_log.h"
#include "loader_pid.h"
#include "loader_process.h"
#include "loader_wait.h"

#define SLOTS 8

/* the ids of watched threads that have begun to end; 0 when free */
static atomic_int ending[SLOTS];
/* The threads watched: their process's id (high half) and their own (low
 * half), so that a thread that loads a second library is not watched
 * twice. A thread takes its mark down as it ends; a mark naming another
 * process is a parent's thread, whose copy that fork() made (the child's
 * main thread) ends with exit(). One that finds no free mark is watched
 * again at its next load (its end then waits once more). */
#define WATCHED 16
static atomic_ullong watched[WATCHED];
/* The loaded libraries' exit handlers running, per process: the exit
 * handler the stub registers after a load opens such a window, the one
 * registered before its search (which glibc runs after the library's own)
 * closes it (loader_exit.c, point 6). */
static cudastub_pid_count finalising;

static int window_open(void)
{
	return cudastub_pid_count_of(&finalising, cudastub_pid()) > 0;
}

static int thread_id(void)
{
	return (int)syscall(SYS_gettid);
}

/* tgkill with no signal: whether thread tid of process pid is gone */
static int gone(int pid, int tid)
{
	int saved = errno, is_gone = syscall(SYS_tgkill, pid, tid, 0) != 0 && errno == ESRCH;

	errno = saved;
	return is_gone;
}

/* A free slot, or one whose thread is gone (a thread of a parent process
 * is gone in its child), marked with tid; NULL when none. */
static atomic_int *take_slot(int pid, int tid)
{
	for (int reclaim = 0; reclaim < 2; reclaim++)
		for (int i = 0; i < SLOTS; i++) {
			int seen = atomic_load(&ending[i]);

			if ((seen == 0 || (reclaim && gone(pid, seen))) &&
			    atomic_compare_exchange_strong(&ending[i], &seen, tid))
				return &ending[i];
		}
	return NULL;
}

static int window_closed(void *unused)
{
	(void)unused;
	return !window_open();
}

static unsigned long long watch_mark(int pid, int tid)
{
	return ((unsigned long long)(unsigned)pid << 32) | (unsigned)tid;
}

/* Takes this thread's mark down; whether it was watched in this process. */
static int unwatch(int pid, int tid)
{
	for (int i = 0; i < WATCHED; i++) {
		unsigned long long mark = watch_mark(pid, tid);

		if (atomic_compare_exchange_strong(&watched[i], &mark, 0))
			return 1;
	}
	return 0;
}

static int is_watched(int pid, int tid)
{
	for (int i = 0; i < WATCHED; i++)
		if (atomic_load(&watched[i]) == watch_mark(pid, tid))
			return 1;
	return 0;
}

/* whether a mark was free */
static int mark_watched(int pid, int tid)
{
	for (int i = 0; i < WATCHED; i++) {
		unsigned long long seen = atomic_load(&watched[i]);

		if ((int)(seen >> 32) != pid &&
		    atomic_compare_exchange_strong(&watched[i], &seen, watch_mark(pid, tid)))
			return 1;
	}
	return 0;
}

/* the destructor's argument for a thread watched without a mark */
static char unmarked;

static void watched_thread_ending(void *how)
{
	int pid = cudastub_pid(), tid = thread_id();
	atomic_int *slot;

	/* a thread copied by fork() is its child's main thread, whose end is
	 * that child's exit() */
	if (tid == pid || (how != &unmarked && !unwatch(pid, tid)))
		return;
	slot = take_slot(pid, tid);
	if (!window_open())
		return; /* a window that opens now waits for this thread */
	if (slot)
		atomic_compare_exchange_strong(slot, &tid, 0);
	if (cudastub_log_enabled())
		cudastub_log_stderr(
			"cudastub: thread %d, which loaded a library, ends while exit() "
			"runs the loaded libraries' exit handlers; it waits until they "
			"have run\n",
			tid);
	if (!cudastub_wait_bounded(window_closed, NULL, CUDASTUB_EXIT_WAIT_MS) &&
	    cudastub_log_enabled())
		cudastub_log_stderr("cudastub: thread %d waited %d ms for exit()'s handlers and "
				    "ends\n",
				    tid, CUDASTUB_EXIT_WAIT_MS);
}

void cudastub_thread_end_watch(void)
{
	int pid = cudastub_pid(), tid = thread_id();
	void *how;

	/* the main thread's end is exit() */
	if (tid == pid || is_watched(pid, tid))
		return;
	how = mark_watched(pid, tid) ? NULL : &unmarked;
	if (cudastub_thread_atexit(watched_thread_ending, how) != 0 && !how)
		unwatch(pid, tid);
}

struct ending_thread {
	atomic_int *slot;
	int pid, tid;
};

/* gone, or no longer in its slot (it saw the mark and waits instead) */
static int ended(void *arg)
{
	const struct ending_thread *t = arg;

	return atomic_load(t->slot) != t->tid || gone(t->pid, t->tid);
}

static void wait_for_ending_threads(int pid)
{
	int self = thread_id();

	for (int i = 0; i < SLOTS; i++) {
		struct ending_thread t = {&ending[i], pid, atomic_load(&ending[i])};

		/* a thread that calls exit() has run its own thread_local
		 * destructors first: it never waits for itself */
		if (t.tid == 0 || t.tid == self)
			continue;
		if (cudastub_wait_bounded(ended, &t, CUDASTUB_EXIT_WAIT_MS))
			atomic_compare_exchange_strong(&ending[i], &t.tid, 0);
		else if (cudastub_log_enabled())
			cudastub_log_stderr("cudastub: exit() waited %d ms for thread %d, which "
					    "loaded a library and is ending, and went on\n",
					    CUDASTUB_EXIT_WAIT_MS, t.tid);
	}
}

void cudastub_thread_end_window_open(int pid)
{
	cudastub_pid_count_up(&finalising, pid);
	wait_for_ending_threads(pid);
}

void cudastub_thread_end_window_close(int pid)
{
	cudastub_pid_count_down(&finalising, pid);
}

void cudastub_thread_end_window_reset(int pid)
{
	atomic_store(&finalising, (unsigned long long)pid << 32);
}

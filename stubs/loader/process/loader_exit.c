/*
 * First calls and exit(): a process must never finalise a library the stub
 * is still loading, nor load one after it began to finalise.
 *
 * A linked library is loaded before main and finalised by exit. A stub
 * loads on its first call, which may come from a thread that starts while
 * the main thread is already in exit(). glibc's exit() runs the exit
 * handlers newest first and ld.so's _dl_fini (registered before main)
 * last; _dl_fini takes a snapshot of the loaded objects and runs their
 * destructors. A dlopen in flight there lets NVIDIA's constructors run
 * beside, or after, that finalisation, and the thread then calls into a
 * library whose static objects are gone: SIGSEGV, SIGABRT or a hang, in
 * about 1 run in 4 of a program that exits while a worker starts (none
 * when linked directly).
 *
 * So, per stub:
 *
 *   1. Each search registers an exit handler (atexit, which glibc ties
 *      to the stub's own __dso_handle, so a dlclose of the stub runs it
 *      too) before it dlopen()s anything. Registered after _dl_fini's
 *      and before the handlers of any library the stub then loads, it runs
 *      before _dl_fini and after those libraries' own handlers.
 *      Once a library is loaded, and before anything else is done with it
 *      (the runtime's replay), the handler is registered again: newer than
 *      every handler the library's constructors registered (its C++ static
 *      destructors), it runs before them, so that exit() never finalises
 *      the runtime under a replay still going on.
 *   2. A search is counted "in flight" from before it looks at the exit
 *      mark until its library is loaded and its after_load hook (the
 *      runtime's replay of deferred registrations) has returned. The
 *      handler sets the mark, then waits for the count to fall to zero,
 *      for CUDASTUB_EXIT_WAIT_MS at most. Both sides write before they
 *      read, with sequential consistency (Dekker), so a search either sees
 *      the mark or is waited for. What the handler waited for is then
 *      loaded whole before _dl_fini takes its snapshot, and the handlers it
 *      registered meanwhile run (glibc starts its list again when one is
 *      added). Then it waits for any dlopen() in flight, as _dl_fini
 *      would, so that a loaded library's own loads (the runtime's of
 *      libcuda) end before that library's handlers finalise it.
 *   3. A search that meets the mark loads nothing: the first call returns
 *      the stub's library-missing code, and its error string and the log
 *      say that the process is exiting. A search that exit() overtook
 *      (the mark appeared while it loaded) gives the same answer, and what
 *      it loaded stays loaded, unused: its after_load hook does not run
 *      (the runtime replays nothing) and no call goes into a library that
 *      the exit handlers are about to finalise. That answer is published,
 *      as any search's: the process never stops exiting.
 *   4. A destructor sets the mark too, for a first call that begins while
 *      _dl_fini runs, after the stub's own destructor (a destructor of an
 *      object finalised after the stub, a thread still running). A first
 *      call made earlier in _dl_fini (the destructor of a program or a
 *      library that links the stub, which ld.so finalises before the stub)
 *      still loads: glibc accepts the registration there (_dl_fini is
 *      itself an exit handler) and what it loads is never finalised, which
 *      is harmless. Once every handler has run glibc refuses a
 *      registration, and the search then loads nothing either.
 *   5. A library in the middle of its constructors when exit() begins has
 *      registered exit handlers (C++ static destructors) newer than the
 *      stub's, and glibc runs those first, while the constructors still
 *      run: libnvrtc crashed or hung there in 1 run in 5. Only the exiting
 *      thread's thread_local destructors run before them, so the stub's
 *      one constructor registers a thread_local destructor on the thread
 *      that loads it, the main thread of a program that links it: when
 *      that thread calls exit() (or returns from main), the mark is set
 *      and the loads in flight are waited for before any exit handler.
 *   6. A thread other than the main thread whose search loaded a library
 *      ran that library's constructors, and may hold per-thread records
 *      of it that its key destructors release. Its end and that library's
 *      exit handlers are kept apart (loader_thread_end.c). Each search
 *      registers its handler before it looks, so that a window opens with
 *      the handler registered after the load and closes with the one
 *      registered before the search, on either side of the library's own:
 *      the opening waits for such a thread that is ending, and one that
 *      begins to end inside the window waits for it to close.
 *
 * The wait takes no lock, is not a cancellation point (cancellation is
 * held off while it sleeps), and never waits for its own thread: exit()
 * called from inside a first call (a library constructor, a replay) does
 * not wait for itself. It does wait for a load that holds up exit() on
 * purpose, for the bound only; such a load then goes on while _dl_fini
 * runs, which the debug log reports.
 *
 * What this cannot prevent: exit() called by a thread other than the one
 * that loaded the stub (a worker thread's exit(), or a stub dlopen()ed by
 * a worker) while a library's constructors run gets only points 1 to 4;
 * the window is the constructors' length. On glibc 2.17, which has no
 * thread_local destructors, the same holds for every thread.
 *
 * The mark and the count carry the process id they belong to, as the fork
 * gate's marks do (loader_fork.c): a child forked while its parent loads
 * or exits neither waits for the parent's loads nor thinks itself exiting.
 * A child forked after a search met the mark inherits that published
 * answer, as it inherits any.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "loader_core.h"
#include "loader_pid.h"
#include "loader_log.h"
#include "loader_process.h"
#include "loader_sys.h"
#include "loader_wait.h"

/* the process that is exiting, or 0 */
static atomic_int exiting_pid;
/* Searches in flight: each marks a slot with its process id (high half)
 * and its thread's id (low half), so that exit() called from inside a
 * search (a library constructor, a replay) does not wait for itself; a
 * search that finds every slot taken counts in overflow, and an exit()
 * from inside that one waits for itself, for the bound. A slot that names
 * another process is a parent's: free in its child. */
#define SEARCH_SLOTS 32
static atomic_ullong searching[SEARCH_SLOTS];
static cudastub_pid_count overflow;
/* 1 once the handler is registered (fork keeps it in a child), or once a
 * child of fork() that registers none has begun a search */
static atomic_int handler_registered;

static int thread_id(void)
{
	return (int)syscall(SYS_gettid);
}

static unsigned long long search_mark(int pid, int tid)
{
	return ((unsigned long long)(unsigned)pid << 32) | (unsigned)tid;
}

/* The searches of process me in flight, other than this thread's. */
static int searches_in_flight(int me)
{
	unsigned long long own = search_mark(me, thread_id());
	int n = cudastub_pid_count_of(&overflow, me);

	for (int i = 0; i < SEARCH_SLOTS; i++) {
		unsigned long long mark = atomic_load(&searching[i]);

		n += (int)(mark >> 32) == me && mark != own;
	}
	return n;
}

/* Marks a slot (a free one, or a parent's) for this thread's search, or
 * counts it in overflow. */
static void search_begins(int me)
{
	unsigned long long mine = search_mark(me, thread_id());

	for (int i = 0; i < SEARCH_SLOTS; i++) {
		unsigned long long seen = atomic_load(&searching[i]);

		if ((int)(seen >> 32) != me &&
		    atomic_compare_exchange_strong(&searching[i], &seen, mine))
			return;
	}
	cudastub_pid_count_up(&overflow, me);
}

static void search_ends(int me)
{
	unsigned long long mine = search_mark(me, thread_id());

	for (int i = 0; i < SEARCH_SLOTS; i++) {
		unsigned long long seen = mine;

		if (atomic_compare_exchange_strong(&searching[i], &seen, 0))
			return;
	}
	/* a search a parent process counted, finished in its child: the
	 * child's count never held it */
	cudastub_pid_count_down(&overflow, me);
}

static int no_search_in_flight(void *me)
{
	return searches_in_flight(*(int *)me) <= 0;
}

static void wait_for_searches(int me)
{
	if (!cudastub_wait_bounded(no_search_in_flight, &me, CUDASTUB_EXIT_WAIT_MS) &&
	    cudastub_log_enabled())
		cudastub_log_stderr("cudastub: exit() waited %d ms for %d first call(s) loading a "
				    "library and went on; the process finalises while they load\n",
				    CUDASTUB_EXIT_WAIT_MS, searches_in_flight(me));
}

/*
 * Waits for a dlopen() that another thread has in flight, as _dl_fini
 * itself does (it takes ld.so's load lock before its snapshot), but before
 * the exit handlers of a library the stub loaded run rather than after:
 * a library loaded by a first call registered its handlers after every
 * handler of the program's own libraries, so glibc runs them first. The
 * 12.4 runtime, called while a worker's cudaGetDeviceCount was inside the
 * runtime's own dlopen of libcuda, crashed 5 times in 60 when exit() came
 * then; a directly linked runtime is finalised in _dl_fini, after that
 * wait. dlopen(NULL) takes the lock and returns the program's own handle.
 * Waits no longer than _dl_fini would, and the lock is recursive, so an
 * exit() from a constructor under dlopen does not wait for itself. Not in
 * a child that a fork left with the loader mid-change (or its list
 * locked): there no dlopen can end, and even dlopen(NULL) stops the
 * process at ld.so's assertion (r_state == RT_CONSISTENT), where the
 * child's exit() had nothing to wait for.
 */
static void wait_for_loader_lock(void)
{
	void *program;

	if (cudastub_fork_left_loader_mid_change())
		return;
	program = dlopen(NULL, RTLD_LAZY | RTLD_NOLOAD);

	if (program)
		dlclose(program);
}

static void exit_started(void)
{
	int me = cudastub_pid_once();

	atomic_store(&exiting_pid, me);
	/* No search has begun (the search registers first, then reads the
	 * mark, both sequentially consistent): none will load, and a process
	 * that never called through the stub exits at no cost. */
	if (!atomic_load(&handler_registered))
		return;
	wait_for_searches(me);
	wait_for_loader_lock();
}

/* Registered after each load: runs just before the handlers that the
 * library's constructors registered. A loading thread that ends from now
 * on waits for them; one already ending is waited for. */
static void library_finalising(void)
{
	int me = cudastub_pid_once();

	exit_started();
	cudastub_thread_end_window_open(me);
}

/* Registered before each search: runs after the handlers of what that
 * search loads. The first one registered is point 1's handler. */
static void library_finalised(void)
{
	exit_started();
	cudastub_thread_end_window_close(cudastub_pid_once());
}

/* The main thread's thread_local destructors, the first thing exit() runs
 * (before any exit handler), run this: exit() has begun if it runs on the
 * main thread, since glibc runs a main thread's thread_local destructors
 * only in exit() (pthread_exit on the main thread skips them). On another
 * thread (the stub dlopen()ed by a worker) it is that thread ending. */
static void main_thread_ending(void *unused)
{
	(void)unused;
	if (thread_id() == cudastub_pid_once())
		exit_started();
}

/* The stub's one constructor. It installs the fork guard (loader_fork.c:
 * at load, so that no fork misses it), and registers main_thread_ending as a
 * thread_local destructor of the thread that loads the stub (the main
 * thread, for a program that links it), so that exit() waits for a first
 * call's load before it runs any exit handler, the handlers that NVIDIA's
 * constructors registered while that load runs included (they are newer
 * than every handler the stub can register, and glibc runs the newest
 * first). Its cost: glibc's one small allocation, a look-up in libc's
 * symbol table, and the fork handlers' registration (bench/measure/startup.sh).
 * __cxa_thread_atexit_impl came in glibc 2.18, above the stubs' floor: looked up, not linked (nor
 * asked of dlsym, which would bind it at every start), and without it (2.17) the exit handler
 * registered by the first search is all there is. */
__attribute__((constructor)) static void watch_main_thread_exit(void)
{
	cudastub_pid_note_loaded();
	(void)cudastub_thread_atexit(main_thread_ending, NULL);
	cudastub_fork_guard_install();
}

/* Runs in _dl_fini (or at the stub's dlclose), after every exit handler:
 * no wait there, only the marks. */
__attribute__((destructor)) static void stub_finalised(void)
{
	int me = cudastub_pid_once();

	atomic_store(&exiting_pid, me);
	cudastub_thread_end_window_reset(me);
}

int cudastub_exit_started(void)
{
	int pid = atomic_load(&exiting_pid);

	return pid != 0 && pid == cudastub_pid(); /* no system call until exit */
}

/*
 * A child of fork() registers no exit handler. glibc's fork() leaves the
 * lock of the exit-handler list as the parent's other threads held it, and
 * a parent thread's dlclose holds it (__cxa_finalize): such a child would
 * wait for ever in its first call's registration. 8 to 14 of 60 children
 * did in tests/loader/test_fork_plugins.c (gdb: __internal_atexit, on
 * __exit_funcs_lock), not in dlopen.
 * What a child keeps: the handler its parent registered, if its parent had
 * searched, and the main thread's thread_local destructor (point 5), which
 * fork() copies with the thread that forked. What it gives up: points 1 to
 * 4 for a child whose parent never searched, when a thread other than the
 * one that forked calls exit() while a first call loads.
 */
static int forked_child(void)
{
	return cudastub_pid_forked_child();
}

/* Registers the handler that runs after what this search loads; 0, or -1
 * when libc refused the first one. A later one refused leaves a window of
 * point 6 open until an older handler closes it, or the bound. */
static int register_handler(void)
{
	if (forked_child()) {
		atomic_store(&handler_registered, 1); /* a search begins: exit waits */
		return 0;
	}
	if (cudastub_atexit(library_finalised) != 0)
		return atomic_load(&handler_registered) ? 0 : -1;
	atomic_store(&handler_registered, 1);
	return 0;
}

void cudastub_exit_loaded(void)
{
	/* no handler on failure: the one registered before the search stays */
	if (!forked_child())
		(void)cudastub_atexit(library_finalising);
	cudastub_thread_end_watch();
}

enum cudastub_exit_pass cudastub_exit_enter(void)
{
	int me = cudastub_pid();

	/* glibc refuses a registration once its exit handlers, _dl_fini
	 * included, have all run (or memory ran out: the call fails, and the
	 * next one tries again) */
	if (register_handler() != 0)
		return CUDASTUB_EXIT_UNREGISTERED;
	search_begins(me);
	return atomic_load(&exiting_pid) == me ? CUDASTUB_EXIT_EXITING : CUDASTUB_EXIT_GO;
}

void cudastub_exit_leave(enum cudastub_exit_pass pass)
{
	int me = cudastub_pid();

	if (pass == CUDASTUB_EXIT_UNREGISTERED)
		return;
	search_ends(me);
}

const char *cudastub_exit_summary(void)
{
	return "cudastub: the process is exiting; nothing is loaded (a first call that begins "
	       "once exit() has started loads no library)";
}

/*
 * The process around a search: fork() kept out of a library being mapped
 * (loader_fork.c), exit() out of one being loaded (loader_exit.c).
 */
#ifndef CUDASTUB_LOADER_PROCESS_H
#define CUDASTUB_LOADER_PROCESS_H

#include "loader_core.h"
#include "loader_debug.h"
#include "loader_proc_stat.h"

/* loader_fork.c: the guard is installed before the first search, so that
 * fork() never splits the loader in the middle of a library the stub is
 * loading or of a walk of the loaded ones; the stub's every dlopen,
 * dlclose and dl_iterate_phdr goes through the three calls below, which
 * fork() waits for. */
struct dl_phdr_info;
CUDASTUB_HIDDEN void cudastub_fork_guard_install(void);
CUDASTUB_HIDDEN void *cudastub_dlopen(const char *path, int flags);
CUDASTUB_HIDDEN int cudastub_dlclose(void *handle);
CUDASTUB_HIDDEN int cudastub_dl_iterate_phdr(int (*visit)(struct dl_phdr_info *, size_t, void *),
					     void *data);
/* A call into a library being searched or loaded (a probe, the replay)
 * through the same gate: enter before it, leave after. */
struct cudastub_gate_pass {
	int caller, pid, tid, slot;
};
CUDASTUB_HIDDEN struct cudastub_gate_pass cudastub_fork_gate_enter(void);
CUDASTUB_HIDDEN void cudastub_fork_gate_leave(struct cudastub_gate_pass pass);
/* atexit() through the same gate (it installs the guard first): glibc's
 * fork() does not reset the lock of its list of exit handlers in the
 * child, so a child forked while another thread registered one would wait
 * for ever at its own next registration. */
CUDASTUB_HIDDEN int cudastub_atexit(void (*handler)(void));
/* Whether the dynamic loader's list of objects reads consistent (no
 * library being mapped), or no r_debug was found. */
CUDASTUB_HIDDEN int cudastub_loader_consistent(void);

/* loader_fork_child.c: why no library can be loaded in this process, or
 * NULL: a child that fork() left with the dynamic loader mid-change
 * (another thread of the parent was in dlopen or dlclose), where the next
 * dlopen would stop the process, or with its list locked. Asked once at
 * the start of each search, and by exit(). */
CUDASTUB_HIDDEN const char *cudastub_fork_left_loader_mid_change(void);

/* loader_exit.c: first calls against exit() (see there). A search passes
 * enter before it looks at anything and leave once its library is loaded
 * and its after_load hook has returned; exit() waits, bounded, for the
 * searches between the two. */
enum cudastub_exit_pass {
	CUDASTUB_EXIT_GO,	    /* search and load */
	CUDASTUB_EXIT_EXITING,	    /* exit() has started: load nothing */
	CUDASTUB_EXIT_UNREGISTERED, /* no exit handler could be registered:
				     * load nothing, a later call tries again */
};
CUDASTUB_HIDDEN enum cudastub_exit_pass cudastub_exit_enter(void);
CUDASTUB_HIDDEN void cudastub_exit_leave(enum cudastub_exit_pass pass);
/* A search loaded its library: the exit handler again, newer than the
 * library's own (see loader_exit.c). */
CUDASTUB_HIDDEN void cudastub_exit_loaded(void);
/* Whether this process has begun to exit (its exit handlers or _dl_fini). */
CUDASTUB_HIDDEN int cudastub_exit_started(void);
/* How long exit() waits for a search, a load or a thread's end. */
#define CUDASTUB_EXIT_WAIT_MS 2000

/* loader_thread_atexit.c: glibc's thread_local destructor for this
 * thread, tied to the stub; -1 on a glibc without them (2.17). */
CUDASTUB_HIDDEN int cudastub_thread_atexit(void (*destructor)(void *), void *arg);

/* loader_thread_end.c: a thread other than the main thread whose search
 * loaded a library, ending beside exit() (see there). watch: on that
 * thread, after the load. The window of a process (pid) is open while
 * exit() runs a loaded library's exit handlers: exit() opens it before
 * them (and waits there for the watched threads already ending), closes it
 * after them, and resets it as the stub is finalised. */
CUDASTUB_HIDDEN void cudastub_thread_end_watch(void);
CUDASTUB_HIDDEN void cudastub_thread_end_window_open(int pid);
CUDASTUB_HIDDEN void cudastub_thread_end_window_close(int pid);
CUDASTUB_HIDDEN void cudastub_thread_end_window_reset(int pid);
/* What a search that met exit() says, for error strings and the log. */
CUDASTUB_HIDDEN const char *cudastub_exit_summary(void);

/* loader_locks.c: whether this thread holds one of the dynamic loader's
 * locks (dl_load_lock, dl_load_write_lock): 1 or 0, or -1 when they cannot
 * be found; and whether the list lock was left held, by a fork, by a
 * thread that this process (pid) does not have: 1 or 0, or -1. */
CUDASTUB_HIDDEN int cudastub_loader_lock_held(void);
CUDASTUB_HIDDEN int cudastub_loader_lock_orphaned(int pid);

#endif /* CUDASTUB_LOADER_PROCESS_H */

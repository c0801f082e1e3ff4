/*
 * How the loader waits for another thread. A first call that waits for
 * another thread's search sleeps on a futex that the search wakes when it
 * publishes (loader_load.c). Everywhere else it polls, every 100 us, for a
 * bounded time. fork() (loader_fork.c) and exit()
 * (loader_exit.c, loader_thread_end.c) wait so for a load, a search or a
 * thread's end that they must not overtake, and none of them may wait for
 * ever on a thread that is itself stuck. No lock is taken, so a thread
 * stopped by fork() or by a signal handler leaves nothing held; and the
 * sleep is no cancellation point (cancellation is held off around it).
 */
#ifndef CUDASTUB_LOADER_WAIT_H
#define CUDASTUB_LOADER_WAIT_H

#include "loader_core.h"

/* Polls ready(arg) until it holds or bound_ms have passed; returns
 * whether it held. */
CUDASTUB_HIDDEN int cudastub_wait_bounded(int (*ready)(void *), void *arg, int bound_ms);

/* Sleeps while *word is seen (futex, private to the process), at most
 * timeout_ms (none when negative): 0 once woken or the word changed (or a
 * signal came), -1 when the time ran out. No cancellation point. */
CUDASTUB_HIDDEN int cudastub_futex_wait(atomic_int *word, int seen, int timeout_ms);
/* Wakes every thread asleep on word. */
CUDASTUB_HIDDEN void cudastub_futex_wake_all(atomic_int *word);

#endif /* CUDASTUB_LOADER_WAIT_H */

/*
 * Once per process, on one word: 0 before the run, DONE after it, and
 * while it runs the running process's id shifted left (an even number).
 * A thread that finds its own process running it sleeps on the word
 * (futex, private), and the runner wakes every sleeper when done. A word
 * that names another process was left by a fork() in the middle of the
 * parent's run: the child's first thread to find it runs fn itself, as
 * glibc restarts a pthread_once cut short by fork().
 *
 * The process id is asked with a system call: cudastub_pid() sets itself
 * up through this once (loader_pid.c). It is asked only until the run is
 * done; after that a call costs one load.
 */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "loader_once.h"
#include "loader_sys.h"

#define DONE 1u

static void wait_while(cudastub_once_t *once, unsigned running)
{
	int caller;

	/* no cancellation point (the futex call through syscall() is none),
	 * and none while asleep: the runner's wake must find a sleeper, not a
	 * thread cancelled half-way */
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &caller);
	while (atomic_load_explicit(once, memory_order_acquire) == running)
		syscall(SYS_futex, once, FUTEX_WAIT_PRIVATE, running, NULL, NULL, 0);
	pthread_setcancelstate(caller, NULL);
}

void cudastub_once(cudastub_once_t *once, void (*fn)(void))
{
	unsigned seen = atomic_load_explicit(once, memory_order_acquire), mine;

	if (seen == DONE)
		return;
	mine = (unsigned)cudastub_sys_getpid() << 1;
	for (;;) {
		if (seen == DONE)
			return;
		if (seen == mine) { /* another thread of this process runs it */
			wait_while(once, mine);
			seen = atomic_load_explicit(once, memory_order_acquire);
			continue;
		}
		/* never run, or a parent's run cut short by fork() */
		if (atomic_compare_exchange_weak_explicit(once, &seen, mine, memory_order_acquire,
							  memory_order_acquire))
			break;
	}
	fn();
	atomic_store_explicit(once, DONE, memory_order_release);
	syscall(SYS_futex, once, FUTEX_WAKE_PRIVATE, 0x7fffffff, NULL, NULL, 0);
}

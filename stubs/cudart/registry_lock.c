/*
 * The registry lock's slow paths (registry_lock.h): a thread that finds the
 * word held marks it (WAITERS) and sleeps on it with futex(2), which is no
 * cancellation point, so recording a kernel leaves the caller's
 * cancellation state alone; the holder that gives back a marked word wakes
 * one sleeper, which marks the word again when it takes it, so that a
 * second sleeper is woken in turn.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "registry_lock.h"

/* A word that names another process was inherited (see registry_lock.h). */
static int is_inherited(unsigned seen, unsigned mine)
{
	return (seen & ~CUDART_LOCK_WAITERS) != (mine & ~CUDART_LOCK_WAITERS);
}

/* The time left until deadline as a relative timeout; 0 once passed. */
static int time_left(const struct timespec *deadline, struct timespec *left)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	left->tv_sec = deadline->tv_sec - now.tv_sec;
	left->tv_nsec = deadline->tv_nsec - now.tv_nsec;
	if (left->tv_nsec < 0) {
		left->tv_nsec += 1000000000L;
		left->tv_sec--;
	}
	return left->tv_sec >= 0;
}

int cudart_lock_wait(atomic_uint *word, unsigned mine, const struct timespec *deadline)
{
	for (;;) {
		unsigned seen = atomic_load_explicit(word, memory_order_relaxed);
		struct timespec left, *timeout = NULL;

		/* taken marked: a sleeper may remain, and giving back wakes it */
		if ((seen == 0 || is_inherited(seen, mine)) &&
		    atomic_compare_exchange_strong_explicit(word, &seen, mine | CUDART_LOCK_WAITERS,
							    memory_order_acquire,
							    memory_order_relaxed))
			return 0;
		if (seen == 0 || is_inherited(seen, mine))
			continue;
		if (!(seen & CUDART_LOCK_WAITERS) &&
		    !atomic_compare_exchange_strong_explicit(
			    word, &seen, seen | CUDART_LOCK_WAITERS, memory_order_relaxed,
			    memory_order_relaxed))
			continue;
		if (deadline) {
			if (!time_left(deadline, &left))
				return -1;
			timeout = &left;
		}
		if (syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, seen | CUDART_LOCK_WAITERS,
			    timeout, NULL, 0) != 0 &&
		    errno == ETIMEDOUT && deadline && !time_left(deadline, &left))
			return -1;
	}
}

void cudart_lock_wake(atomic_uint *word)
{
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

int cudart_lock_try(atomic_uint *word)
{
	unsigned mine = cudart_lock_mine();
	unsigned seen = atomic_load_explicit(word, memory_order_relaxed);

	while (seen == 0 || is_inherited(seen, mine)) {
		if (atomic_compare_exchange_weak_explicit(
			    word, &seen, mine | (seen ? CUDART_LOCK_WAITERS : 0u),
			    memory_order_acquire, memory_order_relaxed))
			return 1;
	}
	return 0;
}

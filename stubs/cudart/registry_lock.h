/*
 * The deferred registry's lock (cudart_registry.c): one word that holds
 * the process id of the thread holding it, so that recording a kernel
 * takes an atomic compare-and-swap and gives it back with one exchange
 * (or one subtraction), where a pthread mutex, with its separate note of
 * the owning process, cost a fifth of the stub's own work per recorded
 * kernel.
 *
 * The word is 0 when free, else the holder's process id | WAITERS, the
 * top bit, set while a thread may sleep on it (futex); a process id never
 * reaches it (Linux's are below 2^22), and a kernel's record takes the id
 * as it is, with no shift (cudart_registry.c). A word of WAITERS alone is
 * free too, and a sleeper may remain: cudart_lock_give_mine leaves it,
 * and the next taker, finding it names no process, takes it as
 * inherited. A word that names another process was inherited across a
 * fork() that ran none of the registry's handlers (glibc skips those
 * installed while a fork is under way): the child's first thread to find
 * it takes it over, as if fresh.
 */
#ifndef CUDASTUB_REGISTRY_LOCK_H
#define CUDASTUB_REGISTRY_LOCK_H

#include <stdatomic.h>
#include <time.h>

#include "loader_pid.h"

#define CUDART_LOCK_WAITERS 0x80000000u

/* The slow paths (registry_lock.c): wait until taken, or until the
 * CLOCK_MONOTONIC deadline when it is not NULL (0 taken, -1 timed out);
 * wake a waiter. */
__attribute__((visibility("hidden"))) int cudart_lock_wait(atomic_uint *word, unsigned mine,
							   const struct timespec *deadline);
__attribute__((visibility("hidden"))) void cudart_lock_wake(atomic_uint *word);
/* Takes the word only when no thread of this process holds it: 1 if taken. */
__attribute__((visibility("hidden"))) int cudart_lock_try(atomic_uint *word);

static inline unsigned cudart_lock_mine(void)
{
	return (unsigned)cudastub_pid();
}

static inline void cudart_lock_take(atomic_uint *word)
{
	unsigned mine = cudart_lock_mine(), free_word = 0;

	if (!atomic_compare_exchange_strong_explicit(word, &free_word, mine, memory_order_acquire,
						     memory_order_relaxed))
		cudart_lock_wait(word, mine, NULL);
}

static inline void cudart_lock_give(atomic_uint *word)
{
	if (atomic_exchange_explicit(word, 0, memory_order_release) & CUDART_LOCK_WAITERS)
		cudart_lock_wake(word);
}

/* cudart_lock_give for a holder that knows its word: one subtraction that
 * leaves 0, or WAITERS where a sleeper marked it. The woken sleeper, or the next
 * thread, finds that 1 naming no process (is_inherited) and takes it. */
static inline void cudart_lock_give_mine(atomic_uint *word, unsigned mine)
{
	if (atomic_fetch_sub_explicit(word, mine, memory_order_release) != mine)
		cudart_lock_wake(word);
}

#endif

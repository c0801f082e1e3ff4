#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "loader_wait.h"

/* What makes the futex calls: a test counts them through its own
 * (tests/loader/test_wait_wakeups.c). */
#ifndef CUDASTUB_FUTEX_SYSCALL
#define CUDASTUB_FUTEX_SYSCALL syscall
#endif
long CUDASTUB_FUTEX_SYSCALL(long number, ...);

static long long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

int cudastub_wait_bounded(int (*ready)(void *), void *arg, int bound_ms)
{
	struct timespec tick = {0, 100000L};
	long long until;
	int held, cancel_state;

	if (ready(arg))
		return 1;
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel_state);
	until = now_ms() + bound_ms;
	while (!(held = ready(arg)) && now_ms() < until)
		nanosleep(&tick, NULL);
	pthread_setcancelstate(cancel_state, NULL);
	return held;
}

int cudastub_futex_wait(atomic_int *word, int seen, int timeout_ms)
{
	struct timespec timeout = {timeout_ms / 1000, (timeout_ms % 1000) * 1000000L};
	int saved = errno, timed_out;

	timed_out = CUDASTUB_FUTEX_SYSCALL(SYS_futex, word, FUTEX_WAIT_PRIVATE, seen,
					   timeout_ms < 0 ? NULL : &timeout, NULL, 0) != 0 &&
		    errno == ETIMEDOUT;
	errno = saved;
	return timed_out ? -1 : 0;
}

void cudastub_futex_wake_all(atomic_int *word)
{
	CUDASTUB_FUTEX_SYSCALL(SYS_futex, word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

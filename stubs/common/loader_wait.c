#define _GNU_SOURCE
#include <pthread.h>
#include <time.h>

#include "loader_wait.h"

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

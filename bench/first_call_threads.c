/*
 * Concurrent first calls: T threads, released together from a barrier,
 * each make the library's cheap call (cheap_call.h) once; the first of
 * them finds nothing loaded.
 *
 *   bench_threads_<library>_<stub|direct> T
 *
 * thread_first_call is what callgrind counts (measure/threads.sh), in
 * every thread: T against one thread says what T - 1 more threads add.
 * The program prints the wall time from the barrier's release to the last
 * thread's return, in microseconds.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cheap_call.h"

enum { MAX_THREADS = 1024 };

static pthread_barrier_t start;
static int failed;

__attribute__((noinline)) int thread_first_call(void)
{
	return cheap_call();
}

static void *run(void *unused)
{
	(void)unused;
	pthread_barrier_wait(&start);
	if (thread_first_call())
		__atomic_store_n(&failed, 1, __ATOMIC_RELAXED);
	return NULL;
}

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 1;
	pthread_t ids[MAX_THREADS];
	double began;

	if (threads < 1 || threads > MAX_THREADS) {
		fprintf(stderr, "usage: %s THREADS (1 to %d)\n", argv[0], MAX_THREADS);
		return 2;
	}
	pthread_barrier_init(&start, NULL, (unsigned)threads + 1);
	for (int i = 0; i < threads; i++)
		if (pthread_create(&ids[i], NULL, run, NULL) != 0)
			return 1;
	began = now_us();
	pthread_barrier_wait(&start);
	for (int i = 0; i < threads; i++)
		pthread_join(ids[i], NULL);
	printf("threads=%d wall_us=%.0f failed=%d\n", threads, now_us() - began, failed);
	return 0;
}

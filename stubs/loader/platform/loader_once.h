/*
 * Run a function once per process (loader_once.c): what pthread_once did
 * for the loader, without naming libpthread.so.0, where glibc before 2.34
 * keeps pthread_once (glibc_floor.h).
 */
#ifndef CUDASTUB_LOADER_ONCE_H
#define CUDASTUB_LOADER_ONCE_H

#include <stdatomic.h>

/* A once word, 0 before the first run. */
typedef atomic_uint cudastub_once_t;
#define CUDASTUB_ONCE_INIT 0u

/* Runs fn unless it has run in this process; a thread that finds it
 * running in another thread of this process sleeps until it has run. A
 * run that a fork() cut short in the parent runs again in the child, as
 * glibc's pthread_once does there. fn must not wait for a thread that may
 * itself be waiting here. */
__attribute__((visibility("hidden"))) void cudastub_once(cudastub_once_t *once, void (*fn)(void));

#endif /* CUDASTUB_LOADER_ONCE_H */

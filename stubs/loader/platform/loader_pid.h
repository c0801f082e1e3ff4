/*
 * The process id, asked for on every call through the fork gate and every
 * kernel registration: without a system call once known (loader_pid.c).
 */
#ifndef CUDASTUB_LOADER_PID_H
#define CUDASTUB_LOADER_PID_H

#include <stdatomic.h>

#include "loader_sys.h"

/* getpid(), read from memory that a fork leaves zeroed in the child. */
__attribute__((visibility("hidden"))) int cudastub_pid(void);

/* That memory, once cudastub_pid has set it up; before (or where the
 * kernel refused the advice) a word that holds 0, so that a reader needs no
 * test of its own for "not set up": it finds 0, as a child does. */
extern __attribute__((visibility("hidden"))) _Atomic(atomic_int *) cudastub_pid_page;

/* The process id when it is known without a call, else 0 (ask
 * cudastub_pid): for a path that must make no call, such as a recorded
 * kernel's (cudart_registry.c). */
static inline int cudastub_pid_known(void)
{
	return atomic_load_explicit(atomic_load_explicit(&cudastub_pid_page, memory_order_acquire),
				    memory_order_relaxed);
}

/* The process id, without setting that memory up: for code that runs once
 * in a process that may never have called through the stub (its exit),
 * where setting it up costs more than the one system call. */
static inline int cudastub_pid_once(void)
{
	int pid = cudastub_pid_known();

	return pid ? pid : cudastub_sys_getpid();
}

/* Counts tagged with their process: its id in the high half, the count in
 * the low; a count left by a parent process is not its child's. */
typedef atomic_ullong cudastub_pid_count;

static inline int cudastub_pid_count_of(cudastub_pid_count *count, int me)
{
	unsigned long long seen = atomic_load(count);

	return (int)(seen >> 32) == me ? (int)(seen & 0xffffffffu) : 0;
}

static inline void cudastub_pid_count_up(cudastub_pid_count *count, int me)
{
	unsigned long long seen = atomic_load(count), next;

	do /* a parent's count: start again */
		next = (int)(seen >> 32) == me ? seen + 1 : ((unsigned long long)me << 32) | 1;
	while (!atomic_compare_exchange_weak(count, &seen, next));
}

/* never below zero, and never a parent's count */
static inline void cudastub_pid_count_down(cudastub_pid_count *count, int me)
{
	unsigned long long seen = atomic_load(count);

	while ((int)(seen >> 32) == me && (seen & 0xffffffffu) != 0 &&
	       !atomic_compare_exchange_weak(count, &seen, seen - 1))
		;
}

/* The stub's constructor notes the process it was loaded in; a process
 * other than that one is a child of fork(), which inherited the stub. */
__attribute__((visibility("hidden"))) void cudastub_pid_note_loaded(void);
__attribute__((visibility("hidden"))) int cudastub_pid_forked_child(void);

#endif

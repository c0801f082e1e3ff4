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

#endif

/*
 * A child of fork() that must not load: glibc's fork() copies the dynamic
 * loader as the parent's other threads left it (loader_fork.c tells how),
 * and where that was mid-change, or with the list of objects locked, the
 * child's first dlopen would stop the process or wait for ever. A search
 * asks here first, and so does exit() before it waits for the loader.
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include "loader_pid.h"
#include "loader_process.h"

/* The number of threads in this process (procfs' num_threads, the 20th
 * field of /proc/self/stat), or 0 when unknown. */
static int thread_count(void)
{
	char text[1024];
	const char *field = cudastub_proc_stat_field("/proc/self/stat", 20, text, sizeof text);

	return field ? atoi(field) : 0;
}

const char *cudastub_fork_left_loader_mid_change(void)
{
	if (!cudastub_loader_consistent()) {
		if (thread_count() != 1)
			return NULL; /* another thread's dlopen: it finishes, ours waits */
		return "the dynamic loader was left mid-change by a fork; no library can be loaded "
		       "in this process";
	}
	/* glibc (2.36) gives a child a new dl_load_lock, but its list lock as
	 * the parent's threads held it: a walk of the loaded objects, or a
	 * dlopen, would wait for ever (loader_locks.c). Asked only in a child
	 * of the process that loaded the stub: elsewhere the dlopen of the stub
	 * itself took that lock. */
	if (cudastub_pid_forked_child() && cudastub_loader_lock_orphaned(cudastub_pid()) == 1)
		return "the dynamic loader's list of objects was left locked by a fork (another "
		       "thread walked or changed it then); no library can be loaded in this "
		       "process";
	return NULL;
}

/*
 * glibc has not cached the process id since 2.25: getpid() is a system
 * call, and the loader asks it on every walk of the loaded objects and the
 * runtime stub on every kernel registration (3,736 of them in Debian's
 * MAGMA), each to tell a forked child from its parent.
 *
 * The answer is kept in a page the kernel zeroes in a child
 * (MADV_WIPEONFORK, Linux 4.14): every fork, glibc's, _Fork() or a raw
 * clone, leaves a child that finds 0 there and asks once. Where the kernel
 * refuses the advice, every ask is a system call, as before. qemu-user
 * accepts the advice without acting on it, so a fork handler zeroes the
 * page too: a child of fork() is then right under qemu as well (one made
 * by _Fork() there, which runs no handler, is not).
 */
#define _GNU_SOURCE
#include "loader_once.h"
#include "loader_pid.h"
#include "loader_sys.h"

#include <pthread.h>
#include <stdatomic.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_WIPEONFORK
#define MADV_WIPEONFORK 18 /* Linux's value; older headers lack it */
#endif

/* what cudastub_pid_page points to until the page is set up */
static atomic_int not_set_up;
_Atomic(atomic_int *) cudastub_pid_page = &not_set_up;
static cudastub_once_t once = CUDASTUB_ONCE_INIT;
/* set after the first set_up: later asks skip the once, which cost as
 * much again as the rest of an ask (the runtime stub asks once per
 * recorded kernel) */
static atomic_int set;

static void forget_in_child(void)
{
	atomic_store(atomic_load(&cudastub_pid_page), 0);
}

static void set_up(void)
{
	size_t page = (size_t)getauxval(AT_PAGESZ);
	void *p = cudastub_sys_mmap(page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1);

	if (p == MAP_FAILED)
		return;
	if (cudastub_sys_madvise(p, page, MADV_WIPEONFORK) != 0) {
		cudastub_sys_munmap(p, page);
		return;
	}
	pthread_atfork(NULL, NULL, forget_in_child);
	atomic_store(&cudastub_pid_page, (atomic_int *)p);
}

int cudastub_pid(void)
{
	atomic_int *page;
	int pid;

	if (!atomic_load_explicit(&set, memory_order_acquire)) {
		cudastub_once(&once, set_up);
		atomic_store_explicit(&set, 1, memory_order_release);
	}
	page = atomic_load_explicit(&cudastub_pid_page, memory_order_acquire);
	if (page == &not_set_up)
		return cudastub_sys_getpid();
	pid = atomic_load_explicit(page, memory_order_relaxed);
	if (pid == 0) {
		pid = cudastub_sys_getpid();
		atomic_store_explicit(page, pid, memory_order_relaxed);
	}
	return pid;
}

/* the process the stub was loaded in (its constructor), or 0 before */
static int loaded_in_pid;

void cudastub_pid_note_loaded(void)
{
	loaded_in_pid = cudastub_sys_getpid();
}

int cudastub_pid_forked_child(void)
{
	return loaded_in_pid && cudastub_pid() != loaded_in_pid;
}

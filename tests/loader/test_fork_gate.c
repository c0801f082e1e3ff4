/*
 * The fork gate (stubs/loader/process/loader_fork.c) on its own, compiled in, with
 * the order of events forced rather than hoped for:
 *   - a call that waited out one fork asks again before it goes ahead: a
 *     program that forks in a loop starts the next fork as the last ends,
 *     and that fork's prepare handler may find no call marked while the
 *     call is between seeing "no fork" and putting its mark up;
 *   - the loader's state is read where ld.so keeps it: this program
 *     names _r_debug, so it holds a copy that ld.so never updates;
 *   - a child forked while the stub walks the loaded libraries
 *     (dl_iterate_phdr, which holds a loader lock glibc does not reset in
 *     a child) can walk them and load a library itself;
 *   - a child forked while the stub registers an exit handler (atexit,
 *     whose lock glibc does not reset either) can register one.
 */
#define _GNU_SOURCE
#include <CUnit/CUnit.h>
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_support.h"
#include "ts_exit_lock.h"

/* The seam: once armed, the next compare-and-swap the gate makes on a mark
 * stops before it happens until the test lets it go, so the test can run a
 * fork's prepare handler in between. */
static atomic_int hold_next_mark;
static sem_t mark_reached, mark_go;

static bool mark_cas(atomic_ullong *mark, unsigned long long *expected, unsigned long long desired)
{
	if (atomic_exchange(&hold_next_mark, 0)) {
		sem_post(&mark_reached);
		sem_wait(&mark_go);
	}
	return atomic_compare_exchange_strong(mark, expected, desired);
}

#undef atomic_compare_exchange_strong
#define atomic_compare_exchange_strong(mark, expected, desired) mark_cas(mark, expected, desired)
#include "loader_fork.c"

int cudastub_log_enabled(void)
{
	return 0;
}

void cudastub_log_stderr(const char *fmt, ...)
{
	(void)fmt;
}

static void sleep_ms(long ms)
{
	struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};

	nanosleep(&t, NULL);
}

/* ---- a call between two forks ---- */

static atomic_int second_fork_over;
static atomic_int admitted, pending_when_admitted, second_fork_over_when_admitted;

static void *call_into_loader(void *arg)
{
	int me = (int)getpid(), self = thread_id(), slot;

	(void)arg;
	slot = enter(me, self);
	atomic_store(&pending_when_admitted, forks_pending(me));
	atomic_store(&second_fork_over_when_admitted, atomic_load(&second_fork_over));
	atomic_store(&admitted, 1);
	leave(slot, me, self);
	return NULL;
}

/* Waits up to a second for flag; whether it was set. */
static int becomes_set(atomic_int *flag)
{
	for (int i = 0; i < 1000 && !atomic_load(flag); i++)
		sleep_ms(1);
	return atomic_load(flag);
}

static void test_call_asks_again_after_a_fork(void)
{
	pthread_t caller;

	sem_init(&mark_reached, 0, 0);
	sem_init(&mark_go, 0, 0);
	fork_prepare(); /* the first fork: nothing in flight, it goes ahead */
	CU_ASSERT_TRUE(forks_pending((int)getpid()));
	pthread_create(&caller, NULL, call_into_loader, NULL);
	sleep_ms(20); /* the call has met the fork and waits */
	CU_ASSERT_FALSE(atomic_load(&admitted));
	CU_ASSERT_EQUAL(calls_in_flight((int)getpid(), 0), 0);

	atomic_store(&hold_next_mark, 1);
	fork_parent(); /* the first fork is over ... */
	sem_wait(&mark_reached);
	/* ... and the call, having seen no fork, is about to put its mark up
	 * when the next fork's prepare handler looks, finds no mark, and lets
	 * that fork go ahead */
	fork_prepare();
	sem_post(&mark_go);
	sleep_ms(20);
	CU_ASSERT_FALSE_FATAL(atomic_load(&admitted)); /* it saw the second fork */
	atomic_store(&second_fork_over, 1);
	fork_parent();
	CU_ASSERT_TRUE_FATAL(becomes_set(&admitted));
	pthread_join(caller, NULL);
	CU_ASSERT_EQUAL(atomic_load(&pending_when_admitted), 0);
	CU_ASSERT_EQUAL(atomic_load(&second_fork_over_when_admitted), 1);
	CU_ASSERT_EQUAL(calls_in_flight((int)getpid(), 0), 0);
}

/* ---- a fork during a walk of the loaded libraries ---- */

static sem_t walking;

/* Stops the walk at its first library for 200 ms, with the loader's lock
 * held, after saying so. */
static int slow_first_visit(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)info, (void)size, (void)data;
	sem_post(&walking);
	sleep_ms(200);
	return 1;
}

static int count_visit(struct dl_phdr_info *info, size_t size, void *count)
{
	(void)info, (void)size;
	++*(int *)count;
	return 0;
}

static void *walk(void *arg)
{
	(void)arg;
	cudastub_dl_iterate_phdr(slow_first_visit, NULL);
	return NULL;
}

static void test_fork_during_a_walk(void)
{
	pthread_t walker;
	int status = 0;
	pid_t child;

	sem_init(&walking, 0, 0);
	pthread_create(&walker, NULL, walk, NULL);
	sem_wait(&walking);
	child = fork();
	if (child == 0) {
		int objects = 0;

		alarm(10); /* a child left holding the lock waits for ever */
		dl_iterate_phdr(count_visit, &objects);
		/* not _exit: ThreadSanitizer's exit checks would count the
		 * parent's walker, which a child does not have, as leaked */
		syscall(SYS_exit_group, objects > 0 && dlopen("libm.so.6", RTLD_NOW) ? 0 : 1);
	}
	CU_ASSERT_FATAL(child > 0);
	CU_ASSERT_EQUAL(waitpid(child, &status, 0), child);
	CU_ASSERT_TRUE(WIFEXITED(status));
	if (WIFSIGNALED(status))
		printf("  the child was ended by signal %d (SIGALRM: it waited on the loader)\n",
		       WTERMSIG(status));
	CU_ASSERT_EQUAL(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0);
	pthread_join(walker, NULL);
}

/* ---- a fork while another thread registers an exit handler ---- */

#if TS_EXIT_LOCK
/* The stub registers exit handlers through the gate: a fork waits for the
 * registration, and its child can register one (without the gate, 2
 * children in 8,000 fork storms wait for ever in theirs). */
static void test_fork_during_an_exit_registration(void)
{
	pthread_t registrar;
	int status = 0;
	pid_t child;

	ts_exit_start_held_registration(&registrar, cudastub_atexit);
	child = fork();
	if (child == 0) {
		alarm(10); /* a child left holding the lock waits for ever */
		syscall(SYS_exit_group, atexit(ts_exit_nothing) == 0 ? 0 : 1);
	}
	CU_ASSERT_FATAL(child > 0);
	CU_ASSERT_EQUAL(waitpid(child, &status, 0), child);
	if (WIFSIGNALED(status))
		printf("  the child was ended by signal %d (SIGALRM: it waited on the lock)\n",
		       WTERMSIG(status));
	CU_ASSERT_TRUE(WIFEXITED(status));
	CU_ASSERT_EQUAL(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0);
	pthread_join(registrar, NULL);
}
#endif

/* ---- the loader's state as ld.so keeps it ---- */

/* This program names _r_debug, so it holds a start-up copy of it that
 * ld.so does not update; read there, the loader would look busy for ever
 * and every fork wait out its bound. */
static void test_loader_state_read_where_ld_so_keeps_it(void)
{
	printf("  this program's copy of _r_debug reads r_state %d; ld.so's record %s\n",
	       (int)_r_debug.r_state,
	       cudastub_loader_consistent() ? "consistent" : "not consistent");
	struct forker me = {(int)getpid(), thread_id()};

	CU_ASSERT_TRUE(cudastub_loader_consistent());
	CU_ASSERT_TRUE(loader_idle(&me));
}

/* As the stub does before its first search; this also finds ld.so's
 * record, without which every prepare handler here would wait its bound. */
static int install_guard(void)
{
	cudastub_fork_guard_install();
	return 0;
}

static void register_suites(void)
{
	CU_pSuite s = CU_add_suite("loader: the fork gate", install_guard, NULL);

	if (!s)
		return;
	CU_add_test(s, "a call that waited out a fork asks again before it goes ahead",
		    test_call_asks_again_after_a_fork);
	CU_add_test(s, "the loader's state is read where ld.so keeps it, not in a copy",
		    test_loader_state_read_where_ld_so_keeps_it);
	CU_add_test(s, "a child forked during a walk of the loaded libraries can walk them",
		    test_fork_during_a_walk);
#if TS_EXIT_LOCK
	CU_add_test(s, "a child forked while the stub registers an exit handler can register one",
		    test_fork_during_an_exit_registration);
#endif
}

int main(int argc, char **argv)
{
	return ts_main(argc, argv, NULL, register_suites);
}

/*
 * A stand-in for glibc's lock of its exit-handler list, which fork()
 * leaves in a child as the parent held it: __cxa_atexit (which atexit
 * calls) interposed, taking a lock of its own around glibc's, so that a
 * test can hold one registration open while it forks. Include it in one
 * file of a test program only (it defines __cxa_atexit there).
 * TS_EXIT_LOCK is 0 under a sanitizer, whose runtime has an __cxa_atexit
 * of its own; the tests that need it are then not registered.
 */
#ifndef CUDASTUB_TS_EXIT_LOCK_H
#define CUDASTUB_TS_EXIT_LOCK_H

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TS_EXIT_LOCK 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define TS_EXIT_LOCK 0
#endif
#endif
#ifndef TS_EXIT_LOCK
#define TS_EXIT_LOCK 1
#endif

#if TS_EXIT_LOCK
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

static pthread_mutex_t ts_exit_list_lock = PTHREAD_MUTEX_INITIALIZER;
/* the next registration is held open; then set while it is */
static atomic_int ts_exit_hold_next, ts_exit_held;

int __cxa_atexit(void (*handler)(void *), void *arg, void *dso);
int __cxa_atexit(void (*handler)(void *), void *arg, void *dso)
{
	static int (*real)(void (*)(void *), void *, void *);
	struct timespec hold = {0, 300000000L};
	int rc;

	pthread_mutex_lock(&ts_exit_list_lock);
	if (atomic_exchange(&ts_exit_hold_next, 0)) {
		atomic_store(&ts_exit_held, 1);
		nanosleep(&hold, NULL);
	}
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "__cxa_atexit");
	rc = real ? real(handler, arg, dso) : -1;
	pthread_mutex_unlock(&ts_exit_list_lock);
	return rc;
}

/* The next registration, from any thread, holds the lock for 300 ms. */
static inline void ts_exit_hold_next_registration(void)
{
	atomic_store(&ts_exit_held, 0);
	atomic_store(&ts_exit_hold_next, 1);
}

/* Returns once a registration holds the lock open. */
static inline void ts_exit_wait_until_held(void)
{
	struct timespec tick = {0, 1000000L};

	while (!atomic_load(&ts_exit_held))
		nanosleep(&tick, NULL);
}

/* A handler that does nothing, to register. */
static inline void ts_exit_nothing(void)
{
}

static int (*ts_exit_registrar)(void (*)(void));

static inline void *ts_exit_register_held(void *unused)
{
	(void)unused;
	ts_exit_hold_next_registration();
	ts_exit_registrar(ts_exit_nothing);
	return NULL;
}

/* Starts a thread that registers a handler through registrar (atexit, or
 * the stub's own), holding the lock open; returns once it holds it. The
 * caller joins the thread. */
static inline void ts_exit_start_held_registration(pthread_t *thread,
						   int (*registrar)(void (*)(void)))
{
	ts_exit_registrar = registrar;
	pthread_create(thread, NULL, ts_exit_register_held, NULL);
	ts_exit_wait_until_held();
}
#endif

#endif

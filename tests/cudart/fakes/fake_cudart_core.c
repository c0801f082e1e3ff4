/* The part every fake runtime has: version, errors, device count, and the
 * call log. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "fake_cudart.h"

const char *fake_cudart_calls[FAKE_CALL_LOG];
int fake_cudart_call_count;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

/* A child forked while another thread held a lock of the fake gets fresh
 * ones. Not through pthread_atfork: taking the locks around fork would
 * invert the order against the stub's registry lock (a replay holds it
 * while calling in here), and a child handler registered while another
 * thread forks is not run in that child (glibc 2.36 no longer blocks
 * pthread_atfork during a fork), which left a child waiting for ever on a
 * lock its parent's thread held. So each lock notes the process it was
 * made in, which the constructor sets before any call can come. */
static atomic_int locks_pid;
/* How many times this fake was initialised in the process: a library
 * mapped once runs its constructor once. */
FAKE_EXPORT int fake_cudart_loads;

__attribute__((constructor)) static void note_locks_pid(void)
{
	atomic_store(&locks_pid, (int)getpid());
	fake_cudart_loads++;
}

void fake_lock(pthread_mutex_t *m)
{
	int me = (int)getpid();

	/* a forked child runs this one thread: nobody holds a lock of ours */
	if (atomic_load(&locks_pid) != me) {
		pthread_mutex_init(&log_lock, NULL);
		fake_cudart_reset_register_locks();
		atomic_store(&locks_pid, me);
	}
	pthread_mutex_lock(m);
}

void fake_cudart_record(const char *name)
{
	fake_lock(&log_lock);
	if (fake_cudart_call_count < FAKE_CALL_LOG)
		fake_cudart_calls[fake_cudart_call_count] = name;
	fake_cudart_call_count++;
	pthread_mutex_unlock(&log_lock);
	fake_cudart_event("call %s", name);
}

int fake_cudart_was_called(const char *name)
{
	int i, found = 0;

	fake_lock(&log_lock);
	for (i = 0; i < fake_cudart_call_count && i < FAKE_CALL_LOG; i++)
		found |= strcmp(fake_cudart_calls[i], name) == 0;
	pthread_mutex_unlock(&log_lock);
	return found;
}

FAKE_EXPORT cudaError_t cudaRuntimeGetVersion(int *v)
{
	fake_cudart_record("cudaRuntimeGetVersion");
	*v = FAKE_MAJOR * 1000 + FAKE_MINOR * 10;
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t cudaDriverGetVersion(int *v)
{
	fake_cudart_record("cudaDriverGetVersion");
	*v = 0;
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t cudaGetDeviceCount(int *count)
{
	fake_cudart_record("cudaGetDeviceCount");
	*count = 1;
	return cudaSuccess;
}

FAKE_EXPORT const char *cudaGetErrorName(cudaError_t e)
{
	return e == cudaSuccess ? "cudaSuccess" : "fakeError";
}

FAKE_EXPORT const char *cudaGetErrorString(cudaError_t e)
{
	return e == cudaSuccess ? "no error" : "fake error";
}

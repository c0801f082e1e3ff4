/* The part every fake runtime has: version, errors, device count, and the
 * call log. */
#define _GNU_SOURCE
#include <pthread.h>
#include <string.h>

#include "fake_cudart.h"

const char *fake_cudart_calls[FAKE_CALL_LOG];
int fake_cudart_call_count;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

void fake_cudart_record(const char *name)
{
	pthread_mutex_lock(&log_lock);
	if (fake_cudart_call_count < FAKE_CALL_LOG)
		fake_cudart_calls[fake_cudart_call_count] = name;
	fake_cudart_call_count++;
	pthread_mutex_unlock(&log_lock);
}

int fake_cudart_was_called(const char *name)
{
	int i, found = 0;

	pthread_mutex_lock(&log_lock);
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

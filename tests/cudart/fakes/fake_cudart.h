/*
 * Fake runtimes for the runtime stub's tests. Each major's fake is built
 * from every fake_cudart_*.c in this folder, compiled against THAT major's
 * real headers (the toolkit's for the build's major, the fetched 11.8 and
 * 12.4 headers for the others), so its functions have exactly that major's
 * ABI. FAKE_MAJOR and FAKE_MINOR say which.
 *
 * A fake records what it was called with, so a test can prove that an
 * adapter or a layout copy (stubs/cudart/layout/layout.c) translated the
 * arguments, and that a gated function never reached a fake whose ABI
 * differs. Tests read the records with dlsym on the fake's handle
 * (dlopen(path, RTLD_NOLOAD)).
 */
#ifndef CUDASTUB_FAKE_CUDART_H
#define CUDASTUB_FAKE_CUDART_H

#include <cuda_runtime_api.h>
#include <pthread.h>

#define FAKE_EXPORT __attribute__((visibility("default")))

/* The names of the functions called, in order (fake_cudart_core.c). */
enum { FAKE_CALL_LOG = 256 };
extern FAKE_EXPORT const char *fake_cudart_calls[FAKE_CALL_LOG];
extern FAKE_EXPORT int fake_cudart_call_count;
void fake_cudart_record(const char *name);
/* pthread_mutex_lock, which first makes sure a forked child gets every
 * lock of the fake fresh (fake_cudart_core.c) */
void fake_lock(pthread_mutex_t *m);
void fake_cudart_reset_register_locks(void);

/* Registration events and calls, in order, one line each
 * (fake_cudart_register.c); fake_cudart_record adds "call <name>". */
enum { FAKE_EVENT_LOG = 512 };
void fake_cudart_event(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Whether name was called since the start, for tests: 1 or 0. */
FAKE_EXPORT int fake_cudart_was_called(const char *name);

#endif

/*
 * What every program of the GPU suite prints: each call's status, each
 * result checked against the host's own computation, one line each, so
 * that a run through the stubs can be compared byte for byte with the same
 * program linked to NVIDIA's libraries. The exit status is 0 when every
 * call succeeded and every result was right, else 1 (on a machine without
 * a GPU the first call fails, the same way in every variant).
 */
#ifndef CUDASTUB_GPU_CHECK_H
#define CUDASTUB_GPU_CHECK_H

#include <stdio.h>

static int gpu_failures;

/* A call's status: ok when it equals success. Returns whether it did. */
static inline int gpu_call(const char *what, long status, long success)
{
	printf("%s: %ld\n", what, status);
	if (status != success)
		gpu_failures++;
	return status == success;
}

/* A result: right or wrong, with what was checked. */
static inline int gpu_result(const char *what, int right)
{
	printf("%s: %s\n", what, right ? "right" : "WRONG");
	if (!right)
		gpu_failures++;
	return right;
}

static inline int gpu_exit(void)
{
	printf("exit: %d\n", gpu_failures ? 1 : 0);
	return gpu_failures ? 1 : 0;
}

#endif

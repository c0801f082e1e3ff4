/*
 * What the fake runtimes' struct-writing functions (fake_cudart_props.c,
 * fake_cudart_descs.c) write and record, shared with the suites of
 * tests/adapters.
 */
#ifndef CUDASTUB_FAKE_CUDART_PROPS_H
#define CUDASTUB_FAKE_CUDART_PROPS_H

#include <stddef.h>

/* A struct the fake writes holds FAKE_PATTERN(k) in its byte k, in the
 * fake's own layout: a field copied from the wrong offset shows. */
#define FAKE_PATTERN(k) ((unsigned char)(((k)*131u + 17u) % 251u + 1u))

/* cudaDeviceGetAttribute answers FAKE_ATTRIBUTE_BASE + attr for every
 * attribute the fake's headers define, and cudaErrorInvalidValue for others. */
#define FAKE_ATTRIBUTE_BASE 5000
/* The device cudaChooseDevice picks; a device the fake refuses. */
#define FAKE_CHOSEN_DEVICE 7
#define FAKE_BAD_DEVICE	   99

/* A struct the fake was given: where it was, and its bytes in the fake's
 * layout (size bytes of it). */
struct fake_received {
	const void *ptr;
	size_t size;
	unsigned char bytes[1088];
};

#endif

/*
 * The ld.so.cache reader (stubs/loader/search/loader_ldcache.c) over arbitrary
 * bytes: it must find only NUL-ended strings inside the buffer, whatever
 * the counts and offsets claim.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "loader.h"

struct bounds {
	const uint8_t *data;
	size_t size;
	int visits;
};

static int visit(const char *path, void *ctx)
{
	struct bounds *b = ctx;
	const uint8_t *p = (const uint8_t *)path;

	if (p < b->data || p >= b->data + b->size ||
	    !memchr(p, '\0', (size_t)(b->data + b->size - p)))
		abort();
	return ++b->visits == 3; /* stop early sometimes, as a search does */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bounds b = {data, size, 0};

	cudastub_ldcache_parse(data, size, "libcudart.so.13", visit, &b);
	/* the name the first entry would carry, when there is one */
	if (size > 64 && memchr(data + 48, '\0', 16)) {
		char name[17];

		memcpy(name, data + 48, 16);
		name[16] = '\0';
		cudastub_ldcache_parse(data, size, name, visit, &b);
	}
	return 0;
}

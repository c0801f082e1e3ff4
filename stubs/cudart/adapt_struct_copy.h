/*
 * Copying a struct between two majors' layouts when one is the other's
 * prefix: the older struct's fields sit at the same offsets at the start of
 * the newer one, and the newer adds fields (often reserved words that must
 * be zero) after them. "common" is where the older struct's last field ends;
 * its tail padding is not copied, as it would land on a newer field.
 */
#ifndef CUDASTUB_ADAPT_STRUCT_COPY_H
#define CUDASTUB_ADAPT_STRUCT_COPY_H

#include <stddef.h>
#include <string.h>

/* Writes to (to_size bytes): the first common bytes of from, then zeros. */
static inline void struct_copy_prefix(void *to, size_t to_size, const void *from, size_t common)
{
	memcpy(to, from, common);
	memset((char *)to + common, 0, to_size - common);
}

/* Whether bytes [begin, end) of p are all zero: a newer struct's fields
 * that an older runtime has no place for must be, or the call is refused. */
static inline int struct_bytes_are_zero(const void *p, size_t begin, size_t end)
{
	const unsigned char *b = p;

	for (size_t i = begin; i < end; i++)
		if (b[i])
			return 0;
	return 1;
}

#endif

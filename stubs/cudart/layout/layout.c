/*
 * Copying a struct between two majors' layouts (layout.h): the one engine
 * every generated translator calls, in both directions.
 */
#include <string.h>

#include "layout.h"

enum direction { GIVE, REPORT };

static int all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

/* Whether a non-zero value that cannot be carried over fails the call. */
static int refuses(enum cudastub_layout_policy policy, enum direction direction)
{
	return policy == CUDASTUB_LAYOUT_REFUSE ||
	       (policy == CUDASTUB_LAYOUT_GIVEN && direction == GIVE);
}

/*
 * Copies src (layout `from`) to dst (layout `to`), or with dst NULL only
 * checks: returns -1 when a value that cannot be carried over must be
 * refused. Every translation checks first and copies after, so that a
 * refused struct leaves the destination as it was.
 */
static int translate(const struct cudastub_layout *from, const unsigned char *src,
		     const struct cudastub_layout *to, unsigned char *dst, enum direction direction,
		     cudastub_layout_query_fn query, int argument)
{
	const struct cudastub_layout_family *family = to->family;

	if (dst)
		memset(dst, 0, to->size);
	for (unsigned i = 0; i < family->field_count; i++) {
		const struct cudastub_layout_place f = from->places[i], t = to->places[i];
		enum cudastub_layout_policy policy = family->policies[i];
		int value;

		if (f.size && t.size && from->nested && to->nested && from->nested[i] &&
		    to->nested[i]) {
			if (translate(from->nested[i], src + f.offset, to->nested[i],
				      dst ? dst + t.offset : NULL, direction, query, argument))
				return -1;
		} else if (f.size && t.size) {
			unsigned n = f.size < t.size ? f.size : t.size;

			if (!dst && f.size > n && refuses(policy, direction) &&
			    !all_zero(src + f.offset + n, f.size - n))
				return -1;
			if (dst)
				memcpy(dst + t.offset, src + f.offset, n);
		} else if (f.size) {
			if (!dst && refuses(policy, direction) && !all_zero(src + f.offset, f.size))
				return -1;
		} else if (dst && t.size == sizeof value && query && from->queries &&
			   from->queries[i] >= 0 &&
			   query(&value, from->queries[i], argument) == 0) {
			/* asked of the runtime that reported the struct, with its
			 * own headers' enumerator */
			memcpy(dst + t.offset, &value, sizeof value);
		}
	}
	return 0;
}

const void *cudastub_layout_give(const struct cudastub_layout *from, const void *src,
				 const struct cudastub_layout *to, void *room)
{
	if (translate(from, src, to, NULL, GIVE, NULL, 0))
		return NULL;
	translate(from, src, to, room, GIVE, NULL, 0);
	return room;
}

int cudastub_layout_report(const struct cudastub_layout *from, const void *src,
			   const struct cudastub_layout *to, void *dst,
			   cudastub_layout_query_fn query, int argument)
{
	if (translate(from, src, to, NULL, REPORT, NULL, 0))
		return -1;
	return translate(from, src, to, dst, REPORT, query, argument);
}

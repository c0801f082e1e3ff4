/*
 * Paths as the search builds them: a folder and one or two names joined
 * with '/', bounded by PATH_MAX.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <string.h>

#include "loader_path.h"

/* Not snprintf: a search joins some thirty paths, and formatting them was
 * a tenth of its own work. */
int cudastub_path_join(char *out, const char *a, const char *b, const char *c)
{
	const char *parts[3] = {a, b, c};
	size_t at = 0;

	for (int i = 0; i < 3 && parts[i]; i++) {
		size_t n = strlen(parts[i]);

		if (at + (i > 0) + n >= PATH_MAX)
			return 0;
		if (i > 0)
			out[at++] = '/';
		memcpy(out + at, parts[i], n);
		at += n;
	}
	out[at] = '\0';
	return at > 0;
}

/*
 * Which values an enum has in each recorded version's headers (generated:
 * <lib>_enums.c, from the spec's `enum` lines), for adapters that must not
 * hand a runtime a value its headers never defined.
 */
#ifndef CUDASTUB_ENUM_VALUES_H
#define CUDASTUB_ENUM_VALUES_H

#include <stddef.h>

struct cudastub_enum_values {
	int major, minor;
	unsigned count;
	const int *values; /* ascending */
};

/*
 * Whether CUDA major.minor defines value, by the newest record of that
 * major no newer than minor, or the major's oldest when all are newer
 * (a 12.2 runtime is judged by the 12.4 headers, the closest we have).
 * table: newest first, ending with major 0. 0 for a major with no record.
 */
static inline int cudastub_enum_defined(const struct cudastub_enum_values *table, int major,
					int minor, int value)
{
	const struct cudastub_enum_values *pick = NULL;

	for (const struct cudastub_enum_values *t = table; t->major; t++) {
		if (t->major != major)
			continue;
		pick = t;
		if (t->minor <= minor)
			break;
	}
	for (unsigned i = 0; pick && i < pick->count; i++)
		if (pick->values[i] == value)
			return 1;
	return 0;
}

#endif

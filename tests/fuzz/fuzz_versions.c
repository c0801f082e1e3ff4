/*
 * The text the environment and the file system give the stub: pins
 * (CUDASTUB_<LIB>_MAJOR), versions read from file names and the text
 * NVML gives its version in (stubs/loader/search/loader_versions.c). What they accept must be the
 * one spelling they document; the rest is refused, never misread.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader.h"

static const struct cudastub_soname majors[] = {
	{13, "libcudart.so.13"}, {12, "libcudart.so.12"}, {11, "libcudart.so.11.0"}, {0, NULL}};
static const struct cudastub_soname any_major[] = {{0, "libcuda.so.1"}, {0, NULL}};

static int digits_only(const char *s)
{
	if (!*s || *s == '0')
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char text[64], again[128];
	int major = -1, minor = -1;

	if (size >= sizeof text)
		size = sizeof text - 1;
	memcpy(text, data, size);
	text[size] = '\0';

	/* an accepted pin is the number its digits say, and one it may be */
	if (cudastub_pin_parse(text, majors, &major) == 0 &&
	    (!digits_only(text) || major != atoi(text) ||
	     (major != 11 && major != 12 && major != 13)))
		abort();
	if (cudastub_pin_parse(text, any_major, &major) == 0 &&
	    (!digits_only(text) || major != atoi(text) || major < 1 || major > 99))
		abort();
	if (cudastub_version_from_file_name(text, "libcudart", &major, &minor) == 0) {
		/* what was read is what the name says, at its start */
		snprintf(again, sizeof again, "libcudart.so.%d.%d", major, minor);
		if (major < 1 || major > 99 || minor < 0 || minor > 99 ||
		    strncmp(text, again, strlen(again)) != 0 ||
		    (text[strlen(again)] != '\0' && text[strlen(again)] != '.'))
			abort();
	}
	/* a version as NVML writes it: accepted only as digits between single
	 * dots, two numbers at least, each read as the number it spells */
	{
		int own[3];

		if (cudastub_version_from_text(text, size + 1, own) == 0) {
			const char *p = text;
			int numbers = 0;

			while (*p) {
				char *end;
				long n = strtol(p, &end, 10);

				if (end == p || *p < '0' || *p > '9' || end - p > 6 ||
				    (numbers < 3 && n != own[numbers]))
					abort();
				numbers++;
				p = end;
				if (*p == '.' && (p[1] < '0' || p[1] > '9'))
					abort();
				if (*p == '.')
					p++;
				else if (*p)
					abort();
			}
			if (numbers < 2)
				abort();
		}
	}
	if (cudastub_version_decode((int)size * 997 - 5000, &major, &minor) == 0 &&
	    (major < 0 || minor < 0 || minor > 99))
		abort();
	return 0;
}

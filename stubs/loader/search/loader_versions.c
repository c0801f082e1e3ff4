/*
 * CUDA's version numbers, and the driver's: what every stub asks or reads
 * the same way. A version is 1000 * major + 10 * minor (12040 is 12.4), for
 * the runtime, NVRTC's callers and the driver alike. The parsers here read
 * text the environment and the file system give (pins, file names): they
 * accept one spelling and refuse everything else (tests/fuzz).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>

#include "loader_core.h"
#include "loader_probe.h"
#include "loader_versions.h"

int cudastub_version_decode(int version, int *major, int *minor)
{
	if (version <= 0)
		return -1;
	*major = version / 1000;
	*minor = (version % 1000) / 10;
	return 0;
}

int cudastub_version_code_split(long long code, int own[3])
{
	/* the newer form since cuDNN 9 and NCCL 2.9; both libraries' majors
	 * stay below 10, so a code of five digits or more is never the older */
	long long scale = code >= 10000 ? 10000 : 1000;

	if (code <= 0 || code / scale > 99)
		return -1;
	own[0] = (int)(code / scale);
	own[1] = (int)(code % scale / 100);
	own[2] = (int)(code % 100);
	return 0;
}

int cudastub_driver_version(void *driver, int *version)
{
	int (*get)(int *);

	*version = 0;
	*(void **)&get = driver ? cudastub_probe_symbol(driver, "cuDriverGetVersion") : NULL;
	return get ? get(version) : -1;
}

/* Reads a number of at most two digits, not starting with 0 unless it is
 * 0 itself, at *p; advances *p past it. -1 when there is none. */
static int small_number(const char **p)
{
	int n = 0, digits = 0;

	while (**p >= '0' && **p <= '9' && digits < 3) {
		n = n * 10 + (**p - '0');
		digits++;
		(*p)++;
	}
	if (!digits || digits > 2 || (digits == 2 && n < 10))
		return -1;
	return n;
}

int cudastub_version_from_file_name(const char *name, const char *family, int *major, int *minor)
{
	size_t len = strlen(family);
	const char *p = name;
	int ma, mi;

	if (strncmp(p, family, len) != 0 || strncmp(p + len, ".so.", 4) != 0)
		return -1;
	p += len + 4;
	if ((ma = small_number(&p)) < 1 || *p++ != '.' || (mi = small_number(&p)) < 0)
		return -1;
	/* a patch level and beyond: digits between dots */
	while (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return -1;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p)
		return -1;
	*major = ma;
	*minor = mi;
	return 0;
}

int cudastub_version_from_text(const char *text, size_t size, int own[3])
{
	int numbers = 0, value[3] = {0, 0, 0};
	size_t i = 0;

	for (;;) {
		int n = 0, digits = 0;

		while (i < size && text[i] >= '0' && text[i] <= '9' && digits <= 6) {
			n = n * 10 + (text[i++] - '0');
			digits++;
		}
		if (!digits || digits > 6)
			return -1;
		if (numbers < 3)
			value[numbers] = n;
		numbers++;
		if (i < size && text[i] == '.') {
			i++;
			continue;
		}
		if (i == size || text[i] != '\0' || numbers < 2)
			return -1;
		break;
	}
	for (int k = 0; k < 3; k++)
		own[k] = value[k];
	return 0;
}

int cudastub_pin_parse(const char *text, const struct cudastub_soname *sonames, int *major)
{
	const char *p = text;
	int n = small_number(&p);

	if (n < 1 || *p)
		return -1;
	for (const struct cudastub_soname *so = sonames; so->soname; so++) {
		if (so->major == n || so->major == 0) {
			*major = n;
			return 0;
		}
	}
	return -1;
}

int cudastub_release_of(const struct cudastub_release_line *lines, const int own[3])
{
	for (; lines->cuda_major; lines++) {
		int k = 0;

		while (k < 3 && own[k] == lines->first[k])
			k++;
		if (k == 3 || own[k] > lines->first[k])
			return lines->cuda_major;
	}
	return -1;
}

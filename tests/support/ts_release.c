#define _GNU_SOURCE /* PATH_MAX */
#include "ts_release.h"

#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "test_support.h"

/* The fixtures of releases 12 and 11, in the order they are searched. */
static const char *const *release_fixtures(int major)
{
	/* the CUDA runtime, the math libraries, then the libraries packaged
	 * one to a fixture (CUPTI, cuSOLVERMg, nvJPEG, nvFatbin, cuFile) */
	static const char *const fixtures_12[] = {
		"cuda-12.4",   "mathlibs-12.4", "cupti-12.4",  "cusolvermg-12.4",
		"nvjpeg-12.4", "nvfatbin-12.4", "cufile-12.4", NULL,
	};
	static const char *const fixtures_11[] = {
		"cuda-11.8",   "mathlibs-11.8", "cupti-11.8", "cusolvermg-11.8",
		"nvjpeg-11.8", "cufile-11.8",	NULL,
	};
	static const char *const none[] = {NULL};

	return major == 12 ? fixtures_12 : major == 11 ? fixtures_11 : none;
}

const char *ts_release_path(int major, char *buf, size_t size)
{
	const char *const *fixture = release_fixtures(major);
	char dir[PATH_MAX / 2];
	size_t n = 0;

	buf[0] = '\0';
	for (; *fixture && n < size; fixture++)
		if (ts_fixture_libdir(*fixture, dir, sizeof dir))
			n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ":" : "", dir);
	return buf;
}

const char *ts_release_file(int major, const char *soname, char *buf, size_t size)
{
	const char *const *fixture = release_fixtures(major);
	char dir[PATH_MAX / 2], why[PATH_MAX];
	int every_fixture_here = 1;

	if (major == 13)
		return ts_toolkit_file(soname, buf, size);
	for (; *fixture; fixture++) {
		if (!ts_fixture_libdir(*fixture, dir, sizeof dir)) {
			every_fixture_here = 0; /* reported */
			continue;
		}
		snprintf(buf, size, "%s/%s", dir, soname);
		if (access(buf, F_OK) == 0)
			return buf;
	}
	if (every_fixture_here) {
		snprintf(why, sizeof why,
			 "%s is in no fixture of CUDA %d; run tests/fixtures/fetch.sh", soname,
			 major);
		ts_unavailable(why);
	}
	return NULL;
}

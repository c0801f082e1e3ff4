#define _GNU_SOURCE /* PATH_MAX */
#include "ts_release.h"

#include <gnu/libc-version.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "test_support.h"

/* The fixtures of releases 12 and 11, in the order they are searched. */
static const char *const *release_fixtures(int major)
{
	/* the CUDA runtime, the math libraries, then the libraries packaged
	 * one to a fixture (CUPTI, cuSOLVERMg, nvJPEG, nvFatbin, cuFile, NPP's
	 * core and signal libraries) */
	static const char *const fixtures_12[] = {
		"cuda-12.4",	   "mathlibs-12.4", "cupti-12.4",
		"cusolvermg-12.4", "nvjpeg-12.4",   "nvfatbin-12.4",
		"cufile-12.4",	   "npp-12.4",	    NULL,
	};
	static const char *const fixtures_11[] = {
		"cuda-11.8",   "mathlibs-11.8", "cupti-11.8", "cusolvermg-11.8",
		"nvjpeg-11.8", "cufile-11.8",	"npp-11.8",   NULL,
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

/* Libraries of a release that its fixtures above do not hold: a fixture
 * of their own, or none where this machine can have no such library. */
static const struct {
	int major;
	const char *soname, *fixture, *why;
	const char *glibc; /* the glibc it needs, or NULL */
} apart[] = {
	/* Debian sid's NCCL, built with 12.4 */
	{12, "libnccl.so.2", "nccl-2.29", "Debian sid's NCCL needs glibc 2.38", "2.38"},
	{12, "libcudnn.so.9", NULL, "Debian's nvidia-cudnn downloads cuDNN at install time", NULL},
	{11, "libcudnn.so.9", NULL, "Debian's nvidia-cudnn downloads cuDNN at install time", NULL},
	{11, "libnccl.so.2", NULL, "Debian has no NCCL built with CUDA 11.8", NULL},
};

/* soname of major from the table above: 1 when it is there (buf set, or
 * NULL in *found after reporting why not), else 0. */
static int release_file_apart(int major, const char *soname, char *buf, size_t size,
			      const char **found)
{
	char dir[PATH_MAX / 2], why[256];

	for (size_t i = 0; i < sizeof apart / sizeof *apart; i++) {
		if (apart[i].major != major || strcmp(apart[i].soname, soname) != 0)
			continue;
		*found = NULL;
		if (!apart[i].fixture ||
		    (apart[i].glibc && strverscmp(gnu_get_libc_version(), apart[i].glibc) < 0)) {
			snprintf(why, sizeof why, "no %s of CUDA %d here: %s", soname, major,
				 apart[i].why);
			ts_not_applicable(why);
		} else if (ts_fixture_libdir(apart[i].fixture, dir, sizeof dir)) {
			snprintf(buf, size, "%s/%s", dir, soname);
			*found = buf;
		}
		return 1;
	}
	return 0;
}

const char *ts_release_file(int major, const char *soname, char *buf, size_t size)
{
	const char *const *fixture = release_fixtures(major);
	char dir[PATH_MAX / 2], why[PATH_MAX];
	int every_fixture_here = 1;
	const char *found;

	if (major == 13)
		return ts_toolkit_file(soname, buf, size);
	if (release_file_apart(major, soname, buf, size, &found))
		return found;
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

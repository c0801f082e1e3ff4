/*
 * The CUDA version a driver supports, read from its file's name, without
 * loading it.
 *
 * NVIDIA installs the driver library as libcuda.so.<driver version>
 * (libcuda.so.550.163.01), and libcuda.so.1 is a link to it: Debian's
 * packages, NVIDIA's run file, its repositories' packages and the
 * container toolkit's mounts alike. Each driver branch supports one CUDA
 * version, the one NVIDIA's release notes name as needing that branch:
 * branch 550 answers cuDriverGetVersion with 12040, 580 with 13000. So a
 * stub that only wants to know which CUDA release to prefer (any of them,
 * the runtime's included: its library loads the driver itself when it
 * needs it) need not map the driver's 28 MB and run its constructors.
 *
 * A name that does not say (a libcuda.so.1 that is the file itself, as on
 * WSL; a cudastub shim; a branch older than the table) answers 0, and the
 * caller asks the driver itself. A branch newer than the table's newest
 * supports at least that CUDA version; it answers that, marked as a lower
 * bound.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader_core.h"

/* Driver branch, and the CUDA version its drivers report (release notes,
 * "CUDA Toolkit and Corresponding Driver Versions"), oldest first. One
 * line per CUDA release: docs/adding-a-major.md. */
static const struct {
	unsigned short branch;
	int cuda;
} branches[] = {
	{410, 10000}, {418, 10010}, {440, 10020}, {450, 11000}, {455, 11010}, {460, 11020},
	{465, 11030}, {470, 11040}, {495, 11050}, {510, 11060}, {515, 11070}, {520, 11080},
	{525, 12000}, {530, 12010}, {535, 12020}, {545, 12030}, {550, 12040}, {555, 12050},
	{560, 12060}, {565, 12070}, {570, 12080}, {575, 12090}, {580, 13000}, {590, 13010},
};
enum { BRANCHES = sizeof branches / sizeof *branches };

/* "550.163.01" at text: the branch (550), when text is two or three dot-
 * separated runs of digits, the first of three digits; else 0. */
static int branch_of(const char *text)
{
	int branch = 0, parts = 0;
	const char *p = text;

	for (;;) {
		int digits = 0, value = 0;

		while (*p >= '0' && *p <= '9') {
			if (++digits > 4)
				return 0;
			value = value * 10 + (*p++ - '0');
		}
		if (digits == 0)
			return 0;
		if (parts++ == 0) {
			if (digits != 3)
				return 0;
			branch = value;
		}
		if (*p == '\0')
			break;
		if (*p++ != '.')
			return 0;
	}
	return parts >= 2 && parts <= 3 ? branch : 0;
}

int cudastub_driver_version_of_name(const char *name, int *at_least)
{
	static const char prefix[] = "libcuda.so.";
	int branch, i;

	*at_least = 0;
	if (strncmp(name, prefix, sizeof prefix - 1) != 0 ||
	    !(branch = branch_of(name + sizeof prefix - 1)) || branch < branches[0].branch)
		return 0;
	for (i = BRANCHES - 1; i > 0 && branches[i].branch > branch; i--)
		;
	*at_least = branch > branches[BRANCHES - 1].branch;
	return branches[i].cuda;
}

int cudastub_driver_version_from_file(const char *path, char *driver, size_t size, int *at_least)
{
	char resolved[PATH_MAX];
	const char *name;
	int version;

	*at_least = 0;
	if (!realpath(path, resolved))
		return 0;
	name = strrchr(resolved, '/');
	name = name ? name + 1 : resolved;
	version = cudastub_driver_version_of_name(name, at_least);
	if (version && driver)
		snprintf(driver, size, "%s", name + strlen("libcuda.so."));
	return version;
}

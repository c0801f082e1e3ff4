/*
 * Which of this command's stubs stands in for a library a file needs, in
 * one place: the rule for CUDA majors. A stub exports the ABI of the
 * headers it was built with, so it stands in only for a SONAME of that
 * major (a CUDA 12 program runs on CUDA 13 through the 12-ABI stub or
 * shim, never through the 13-ABI one, whose prototypes differ). A SONAME
 * that serves several majors (libcurand.so.10; the driver's libcuda.so.1,
 * which names its changed functions _v2, _v3) is always covered. Where no
 * stub stands in, the reason is given, and the file keeps needing that
 * library, named on its line.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "patch.h"

/* The CUDA ABI major of the stub this command links for library k, or 0
 * when it links none. */
static int stub_abi(int k)
{
	const cudastub_library_info *info = cudastub_info((cudastub_lib)k);

	return info ? info->abi_major : 0;
}

/* The majors the SONAME name serves for library k, as a mask of 1 << major
 * (~0 for one name for every major), or 0 when it is none of k's. */
static unsigned long soname_majors(int k, const char *name)
{
	unsigned long majors = 0;

	for (const struct cli_soname *so = cli_known_libraries[k].sonames; so && so->name; so++)
		if (!strcmp(so->name, name))
			majors |= so->major ? 1ul << so->major : ~0ul;
	return majors;
}

/* "12" or "11 or 12": the majors of a mask. */
static void majors_text(unsigned long majors, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int m = 1; m < 64 && n < size; m++)
		if (majors & (1ul << m))
			n += (size_t)snprintf(buf + n, size - n, "%s%d", n ? " or " : "", m);
}

enum cover patch_cover(int k, const char *name, char *reason, size_t size)
{
	unsigned long serves = cli_known_libraries[k].name ? soname_majors(k, name) : 0;
	char majors[64];
	int abi;

	if (!serves)
		return COVER_NONE;
	if (!stub_source(k)) {
		snprintf(reason, size, "no stub in this cudastub (built without it)");
		return COVER_NOT_BUILT;
	}
	abi = stub_abi(k);
	if (!(serves & (1ul << abi))) {
		majors_text(serves, majors, sizeof majors);
		snprintf(reason, size,
			 "no stub for the CUDA %s ABI (this cudastub's are CUDA %d's)", majors,
			 abi);
		return COVER_OTHER_ABI;
	}
	return COVER_STUB;
}

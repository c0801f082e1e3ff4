/*
 * Debian's lstopo and one of its plugins, as the hwloc suites run them
 * (test_hwloc_cuda, test_hwloc_nvml): the fixtures' folders, and a work
 * folder of this run holding the plugin as shipped.
 */
#ifndef CUDASTUB_HWLOC_FIXTURE_H
#define CUDASTUB_HWLOC_FIXTURE_H

#include <limits.h>

struct hw_fixture {
	char lib[PATH_MAX];    /* hwloc's own library folder */
	char lstopo[PATH_MAX]; /* lstopo-no-graphics */
	char work[64];	       /* the work folder (mkdtemp) */
	char plugins[96];      /* work/plugins, the plugin copied in */
	char plugin[PATH_MAX]; /* that copy */
};

/*
 * Fills f for the plugin (its file name) with a work folder from template
 * ("/tmp/cudastub-hwloc-XXXXXX"); 0 when ready. Not applicable in a
 * sanitizer build (sanitized: Debian's lstopo cannot load its stubs);
 * missing, when non-NULL, is what this build lacks for the suite, reported
 * as unavailable; missing fixtures are reported by ts_fixture.
 */
int hw_prepare(struct hw_fixture *f, const char *plugin, const char *template, int sanitized,
	       const char *missing);

/* Copies a file with cp; 0 when done. */
int hw_copy_file(const char *from, const char *to);

#endif

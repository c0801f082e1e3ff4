/* Debian's lstopo and a plugin of it, for the hwloc suites: hwloc_fixture.h. */
#define _GNU_SOURCE
#include "hwloc_fixture.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "test_support.h"

int hw_copy_file(const char *from, const char *to)
{
	char *argv[] = {"/bin/cp", (char *)from, (char *)to, NULL};
	struct ts_child c;

	return ts_run_program(argv, NULL, NULL, &c) == 0 && c.exit_code == 0 ? 0 : -1;
}

int hw_prepare(struct hw_fixture *f, const char *plugin, const char *template, int sanitized,
	       const char *missing)
{
	char shipped[PATH_MAX];
	const char *hwloc, *contrib;

	if (sanitized) {
		/* a sanitizer's runtime must come first in a process that loads
		 * a stub built with it, and Debian's lstopo is not built with it;
		 * the stub's code is the same as the plain build's, which runs
		 * these tests */
		ts_not_applicable("a sanitizer build: Debian's lstopo cannot load its stubs");
		return -1;
	}
	if (missing) {
		ts_unavailable(missing);
		return -1;
	}
	if (!(hwloc = ts_fixture("hwloc-2.9")) || !(contrib = ts_fixture("hwloc-contrib-2.9")))
		return -1;
	snprintf(f->lib, sizeof f->lib, "%s/usr/lib/" TS_MULTIARCH, hwloc);
	snprintf(f->lstopo, sizeof f->lstopo, "%s/usr/bin/lstopo-no-graphics", hwloc);
	snprintf(shipped, sizeof shipped, "%s/usr/lib/" TS_MULTIARCH "/hwloc/%s", contrib, plugin);
	snprintf(f->work, sizeof f->work, "%s", template);
	if (!mkdtemp(f->work)) {
		CU_FAIL("mkdtemp");
		return -1;
	}
	snprintf(f->plugins, sizeof f->plugins, "%s/plugins", f->work);
	mkdir(f->plugins, 0755);
	snprintf(f->plugin, sizeof f->plugin, "%s/%s", f->plugins, plugin);
	if (hw_copy_file(shipped, f->plugin) != 0) {
		CU_FAIL("could not copy the plugin");
		return -1;
	}
	return 0;
}

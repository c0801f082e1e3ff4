/*
 * `cudastub patch --check` proves that a patched file loads: each
 * DT_NEEDED entry that names a stub must lead, through the file's own
 * RUNPATH (or RPATH) with $ORIGIN read as the file's folder, to a file the
 * dynamic loader would take (a regular ELF file of the file's class and
 * machine; the first one found, as the loader takes it), and that file
 * must define every version the file needs of it. These are the checks
 * ld.so makes before main: a RUNPATH that leads nowhere (one written from
 * a temporary folder, say) fails here, as an import would.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "elf_read.h"
#include "patch_check.h"
#include "patch_names.h"
#include "patch_plan.h"
#include "patch_runpath.h"

/* Whether the entry name names a stub (patch_names.c). */
static int stub_name(const char *name)
{
	struct stub_ref ref;

	return stub_parse(name, &ref);
}

/* How many versions the file fd needs of name that stub (at found) does
 * not define, each reported. */
static int versions_missing(const char *path, int fd, const char *name, int stub, const char *found)
{
	char needs[8192], defs[16384], *v, *save = NULL;
	int missing = 0;

	if (elf_version_needs(fd, name, needs, sizeof needs) != 0 ||
	    elf_version_defs(stub, defs, sizeof defs) != 0) {
		cli_line(stdout, "%s: would not load: the symbol versions of %s cannot be read",
			 path, found);
		return 1;
	}
	for (v = strtok_r(needs, "\n", &save); v; v = strtok_r(NULL, "\n", &save))
		if (!plan_needs_name(defs, v)) {
			cli_line(stdout,
				 "%s: would not load: %s defines no version %s, which it needs of "
				 "%s",
				 path, found, v, name);
			missing++;
		}
	return missing;
}

int check_loads(const char *path, int fd, const char *dir, const char *needed, const char *runpath)
{
	char names[16384], found[PATH_MAX + 256], *name, *save = NULL;
	int elf_class, machine, faults = 0;

	if (elf_identity(fd, &elf_class, &machine) != 0)
		return 0; /* no ELF file: nothing it loads */
	snprintf(names, sizeof names, "%s", needed);
	for (name = strtok_r(names, "\n", &save); name; name = strtok_r(NULL, "\n", &save)) {
		int stub;

		if (!stub_name(name))
			continue;
		stub = runpath_find(runpath, dir, name, elf_class, machine, found, sizeof found);
		if (stub < 0) {
			cli_line(stdout, "%s: would not load: its RUNPATH (%s) leads to no %s",
				 path, *runpath ? runpath : "none", name);
			faults++;
			continue;
		}
		faults += versions_missing(path, fd, name, stub, found);
		close(stub);
	}
	return faults ? -1 : 0;
}

/*
 * The names stubs go by, as a DT_NEEDED entry meets them. A stub's file
 * name is its SONAME and says its library, its CUDA ABI and a tag of its
 * build (lib<lib>_stub_cu<major>-<8 hex>.so, libcudastub_cu<major>-<8 hex>.so
 * for every stub of an ABI in one file): ld.so takes a DT_NEEDED entry as
 * met by any object already loaded under that SONAME, so stubs of two
 * builds, which two wheels may ship, must never share one. Names of
 * earlier cudastubs are read too: lib<lib>_stub.so (one name for every
 * build, which two wheels in one process share wrongly) and the content
 * names `--unique-names` gave them (lib<lib>_stub-<8 hex>.so).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "patch_names.h"

/* Whether s starts with 8 hex digits followed by ".so" and nothing more. */
static int tag_then_so(const char *s)
{
	for (int i = 0; i < 8; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return !strcmp(s + 8, ".so");
}

/* What follows the stem ("libcudart_stub", "libcudastub") in name. */
static int parse_rest(const char *rest, struct stub_ref *ref)
{
	char *end;
	long abi;

	if (!strcmp(rest, ".so")) {
		ref->form = STUB_LEGACY;
		return 1;
	}
	if (rest[0] == '-' && tag_then_so(rest + 1)) {
		ref->form = STUB_LEGACY_CONTENT;
		return 1;
	}
	if (strncmp(rest, "_cu", 3))
		return 0;
	abi = strtol(rest + 3, &end, 10);
	if (end == rest + 3 || abi <= 0 || abi >= 100 || end[0] != '-' || !tag_then_so(end + 1))
		return 0;
	ref->abi = (int)abi;
	ref->form = STUB_TAGGED;
	return 1;
}

int stub_parse(const char *name, struct stub_ref *ref)
{
	char stem[96];

	memset(ref, 0, sizeof *ref);
	if (!strncmp(name, "libcudastub", 11)) {
		ref->slot = COMBINED_SLOT;
		return parse_rest(name + 11, ref);
	}
	for (int k = 0; k < PATCH_KINDS; k++) {
		size_t len;

		if (!cli_known_libraries[k].name)
			continue;
		len = (size_t)snprintf(stem, sizeof stem, "lib%s_stub",
				       cli_known_libraries[k].name);
		if (!strncmp(name, stem, len)) {
			ref->slot = k;
			if (parse_rest(name + len, ref))
				return 1;
		}
	}
	return 0;
}

/*
 * The names stubs go by, and the slots of a plan (patch_names.c).
 */
#ifndef CUDASTUB_CLI_PATCH_NAMES_H
#define CUDASTUB_CLI_PATCH_NAMES_H

#include "cudastub/cudastub.h"

/* The slots of a plan: one per library, and libcudastub_cu<major>'s after. */
enum { PATCH_KINDS = CUDASTUB_LIB_COUNT, COMBINED_SLOT = PATCH_KINDS, PATCH_SLOTS };

/* A stub's name as a DT_NEEDED entry has it: a slot (its library, or
 * COMBINED_SLOT), and the form of the name. */
enum stub_form {
	STUB_TAGGED,	     /* lib<lib>_stub_cu<abi>-<tag>.so: a build's, of one ABI */
	STUB_LEGACY,	     /* lib<lib>_stub.so: an earlier cudastub's, every build's */
	STUB_LEGACY_CONTENT, /* lib<lib>_stub-<8 hex>.so: the same, named by content */
};
struct stub_ref {
	int slot, abi; /* abi: STUB_TAGGED's */
	enum stub_form form;
};
/* Whether name is a stub's; its slot, ABI and form in ref. */
int stub_parse(const char *name, struct stub_ref *ref);

#endif

/*
 * What one file needs done (patch_plan.c).
 */
#ifndef CUDASTUB_CLI_PATCH_PLAN_H
#define CUDASTUB_CLI_PATCH_PLAN_H

#include <stddef.h>

#include "patch_names.h"
#include "patch_types.h"

enum { UNCOVERED_MAX = 32 };
/* An NVIDIA library a file still needs, and why no stub stands in. */
struct uncovered {
	char name[256], reason[160];
};
/* What one file needs done; filled by plan_file, carried out by
 * apply_plan. */
struct plan {
	const char *path;
	int abi;	   /* the CUDA ABI of the stubs the file gets (patch_file_abi) */
	char abi_why[160]; /* when this cudastub has no stubs of that ABI, why */
	char needed[16384], runpath_now[8192]; /* what the file has */
	char dir[4096], stub_dir[4096];	       /* real paths */
	const char *from[PATCH_SLOTS];	       /* names to replace, by slot */
	char names[PATCH_SLOTS][256];
	int uses[PATCH_SLOTS]; /* the stub of that slot is (or will be) needed */
	char runpath[8192];    /* the RUNPATH to set, or "" to leave it */
	int copy[PATCH_SLOTS]; /* the stub must be copied in */
	/* the name each stub goes by (its file's, which is its SONAME), and
	 * the file it is copied from */
	char to[PATCH_SLOTS][64];
	char source[PATCH_SLOTS][4096];
	/* needs a stub of another build already (or an earlier cudastub's
	 * named by content): left as it is, nothing to copy */
	int named[PATCH_SLOTS];
	/* every stub in libcudastub_cu<major>: --combined, or the file needs
	 * it already; each name in from[] then becomes to[COMBINED_SLOT] */
	int combined;
	struct uncovered uncovered[UNCOVERED_MAX];
	int uncovered_count;
	int change;
};
/* Decides what the open file fd (t's) needs: 1 if it has CUDA libraries
 * to deal with, 0 if not, 2 if its dynamic section cannot be read
 * (reported; left alone, as a file with nothing to patch is), -1 if it is
 * refused (reported). */
int plan_file(struct patch_options *o, const struct patch_target *t, int fd, struct plan *p);
/* " still needs a, b: <reason>; c: <reason>;" for the file's line, or "". */
void plan_uncovered_text(const struct plan *p, char *out, size_t size);
/* Whether needed (one DT_NEEDED entry a line) has the entry name. */
int plan_needs_name(const char *needed, const char *name);

#endif

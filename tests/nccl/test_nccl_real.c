/*
 * NCCL through its stubs, with NVIDIA's libraries and no GPU: the 13.0
 * toolkit's libnccl.so.2 (NCCL 2.28, built with CUDA 13.0) through the
 * 13-ABI stub, and Debian's (sid's libnccl2 2.29, built with CUDA 12.4:
 * the nccl-2.29 fixture) through the 12-ABI stub. Debian's needs glibc
 * 2.38: where this system's is older, the children that may load it run
 * under trixie's glibc (the glibc-2.41 fixture: its dynamic loader, with
 * its libraries first on the path).
 *
 *   versions      ncclGetVersion answers through the stub what the library
 *                 answers directly; the stub reports NCCL's own version and
 *                 the CUDA release its version banner names (13 for the
 *                 toolkit's, 12 for Debian's);
 *   error strings ncclGetErrorString, every code and codes past the last,
 *                 as directly (NCCL's own texts: forwarded);
 *   no GPU        ncclGetUniqueId answers as directly (it needs no GPU: a
 *                 success with an id that is not all zeros), and
 *                 ncclGetLastError says the same;
 *   release       the CUDA release decides under a pin: a pin of 12 refuses
 *                 the toolkit's NCCL (CUDA 13); Debian's first on
 *                 the path, a pin of 13 passes it for the toolkit's; a
 *                 process that has CUDA 13's runtime loaded takes the
 *                 toolkit's NCCL over Debian's (12) first on the path;
 *   no library    the documented codes; ncclGetVersion answers, with
 *                 success, what the NCCL of the stub's record answers (the
 *                 toolkit's for the 13-ABI stub, Debian's for the 12-ABI
 *                 one); the error strings ncclResult_t's names, the "no
 *                 library" code explained.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <gnu/libc-version.h>
#include <limits.h>
#include <nccl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudastub/cudastub.h"
#include "test_support.h"
#include "ts_real.h"

/* From CMake: NC_STUB and NC_STUB_12, the stubs of the 13 and 12 ABIs. */

#define FIRST_CODE (-1)
#define LAST_CODE  12

/* ---- child: the calls, through NC_OPEN (the stub or a real library) ---- */

static int calls_child(void)
{
	const char *preload = getenv("NC_PRELOAD");
	void *lib;
	ncclResult_t (*get_version)(int *);
	const char *(*error_string)(ncclResult_t);
	ncclResult_t (*unique_id)(ncclUniqueId *);
	const char *(*last_error)(ncclComm_t);
	ncclUniqueId id;
	int version = -7, rc, set = 0;
	const char *last;

	/* a CUDA release already in the process, as a framework has it */
	if (preload && !dlopen(preload, RTLD_NOW | RTLD_GLOBAL)) {
		printf("preload_error=%s\n", dlerror());
		return 3;
	}
	lib = ts_real_open("NC_OPEN");
	if (!lib)
		return 3;
	*(void **)&get_version = ts_real_symbol(lib, "ncclGetVersion");
	*(void **)&error_string = ts_real_symbol(lib, "ncclGetErrorString");
	*(void **)&unique_id = ts_real_symbol(lib, "ncclGetUniqueId");
	*(void **)&last_error = ts_real_symbol(lib, "ncclGetLastError");

	rc = (int)get_version(&version);
	printf("version_rc=%d\nversion=%d\n", rc, version);
	for (int code = FIRST_CODE; code <= LAST_CODE; code++) {
		const char *s = error_string((ncclResult_t)code);

		printf("err_%d=%s\n", code, s ? s : "(null)");
	}
	memset(&id, 0, sizeof id);
	rc = (int)unique_id(&id);
	for (size_t k = 0; k < sizeof id.internal; k++)
		set |= id.internal[k] != 0;
	printf("unique_id_rc=%d\nunique_id_set=%d\n", rc, set);
	last = last_error(NULL);
	/* quoted, so that an empty text is told from a missing line */
	if (last)
		printf("last_error=\"%s\"\n", last);
	else
		printf("last_error=(null)\n");

	ts_real_print_info(lib, "cudastub_nccl_info");
	fflush(stdout);
	return 0;
}

/* ---- parent ---- */

struct release {
	struct ts_real_release at;
	int minor;	  /* what the stub must report, with at.major */
	const char *stub; /* the stub of its ABI */
};

static const struct release releases[] = {
	{{"13.0 toolkit", 13, NULL, "libnccl.so.2"}, 0, NC_STUB},
	{{"Debian sid", 12, "nccl-2.29", "libnccl.so.2"}, 4, NC_STUB_12},
};
#define RELEASES (sizeof releases / sizeof *releases)

/* Where Debian sid's NCCL can load: "" on a glibc of 2.38 or later, else
 * trixie's dynamic loader and library folder (the glibc-2.41 fixture), in
 * *loader and *libs; 0 when neither (reported). */
static int newer_glibc(const char **loader, const char **libs)
{
	static char ld[PATH_MAX + 32], dir[PATH_MAX];
	const char *fixture;

	*loader = *libs = "";
	if (strverscmp(gnu_get_libc_version(), "2.38") >= 0)
		return 1;
	if (!ts_toolkit_is_native()) {
		ts_not_applicable("Debian sid's NCCL needs glibc 2.38, and trixie's is fetched "
				  "for x86-64 only");
		return 0;
	}
	fixture = ts_fixture("glibc-2.41");
	if (!fixture)
		return 0;
	snprintf(dir, sizeof dir, "%s/usr/lib/" TS_MULTIARCH, fixture);
	snprintf(ld, sizeof ld, "%s/ld-linux-x86-64.so.2", dir);
	*loader = ld;
	*libs = dir;
	return 1;
}

/* NCCL of r in buf, or NULL (reported): Debian's only where it can load. */
static const char *nccl_library(const struct release *r, char *buf, size_t size)
{
	const char *loader, *libs;

	if (!ts_real_library(&r->at, buf, size) || (r->at.fixture && !newer_glibc(&loader, &libs)))
		return NULL;
	return buf;
}

/* Runs the calls child on path; with debian, where Debian's NCCL can load
 * (under trixie's glibc where this one is older). */
static int nccl_calls(const char *path, const char *const *extra, int debian, struct ts_child *out)
{
	char open_var[PATH_MAX + 16], dirs[4 * PATH_MAX];
	const char *env[8] = {open_var}, *loader = "", *libs = "";
	char *argv[] = {NULL, "--library-path", dirs, (char *)ts_self(), "--child", "calls", NULL};
	int n = 1;

	if (debian && !newer_glibc(&loader, &libs))
		return -1;
	if (!*loader)
		return ts_real_run("calls", "NC_OPEN", path, extra, out);
	snprintf(open_var, sizeof open_var, "NC_OPEN=%s", path);
	/* --library-path stands for LD_LIBRARY_PATH, which the loader then
	 * ignores: the test's folders go after glibc's */
	snprintf(dirs, sizeof dirs, "%s", libs);
	for (; extra && *extra && n < 6; extra++) {
		env[n++] = *extra;
		if (!strncmp(*extra, "LD_LIBRARY_PATH=", 16))
			snprintf(dirs + strlen(dirs), sizeof dirs - strlen(dirs), ":%s",
				 *extra + 16);
	}
	/* in a sanitizer build: trixie's dynamic loader keeps allocations the
	 * leak check, which knows only this glibc's, would call leaks */
	env[n++] = "ASAN_OPTIONS=detect_leaks=0";
	env[n] = NULL;
	argv[0] = (char *)loader;
	if (ts_run_program(argv, env, NULL, out) != 0 || out->exit_code != 0) {
		CU_FAIL("the calls child failed");
		fprintf(stderr, "%s: exit %d\n%s%s\n", path, out->exit_code, out->out, out->err);
		return -1;
	}
	return 0;
}

static int nccl_both(const struct release *r, const char *real)
{
	char override[PATH_MAX + 32];
	const char *env[] = {override, NULL};
	int debian = r->at.fixture != NULL;

	snprintf(override, sizeof override, "CUDASTUB_NCCL_PATH=%s", real);
	return nccl_calls(real, NULL, debian, &ts_direct) ||
			       nccl_calls(r->stub, env, debian, &ts_through)
		       ? -1
		       : 0;
}

static void test_versions(void)
{
	for (size_t i = 0; i < RELEASES; i++) {
		const struct release *r = &releases[i];
		char path[PATH_MAX], own[32];
		const char *real = nccl_library(r, path, sizeof path);
		long v;

		if (!real || nccl_both(r, real))
			continue;
		CU_ASSERT_EQUAL(ts_number(&ts_direct, "version_rc"), ncclSuccess);
		TS_REAL_SAME("version_rc");
		TS_REAL_SAME("version");
		v = ts_number(&ts_direct, "version");
		/* NCCL_VERSION_CODE's form since 2.9 */
		snprintf(own, sizeof own, "%ld.%ld.%ld", v / 10000, v % 10000 / 100, v % 100);
		CU_ASSERT_EQUAL(v / 10000, 2);
		CU_ASSERT_STRING_EQUAL(ts_text(&ts_through, "own"), own);
		CU_ASSERT_EQUAL(ts_number(&ts_through, "state"), CUDASTUB_STATE_LOADED);
		/* the CUDA release its banner names */
		CU_ASSERT_EQUAL(ts_number(&ts_through, "major"), r->at.major);
		CU_ASSERT_EQUAL(ts_number(&ts_through, "minor"), r->minor);
		printf("  %s: NCCL %s (%ld), CUDA %ld.%ld by its banner\n", r->at.name, own, v,
		       ts_number(&ts_through, "major"), ts_number(&ts_through, "minor"));
	}
}

TS_TEST(test_versions, "versions as directly, the CUDA release of each");

static void test_error_strings_and_no_gpu(void)
{
	for (size_t i = 0; i < RELEASES; i++) {
		char path[PATH_MAX], key[16];
		const char *real = nccl_library(&releases[i], path, sizeof path);

		if (!real || nccl_both(&releases[i], real))
			continue;
		for (int code = FIRST_CODE; code <= LAST_CODE; code++) {
			snprintf(key, sizeof key, "err_%d", code);
			TS_REAL_SAME(key);
		}
		CU_ASSERT_STRING_EQUAL(ts_text(&ts_direct, "err_0"), "no error");
		TS_REAL_SAME("unique_id_rc");
		TS_REAL_SAME("unique_id_set");
		TS_REAL_SAME("last_error");
		/* a unique id needs no GPU */
		CU_ASSERT_EQUAL(ts_number(&ts_direct, "unique_id_rc"), ncclSuccess);
		CU_ASSERT_EQUAL(ts_number(&ts_direct, "unique_id_set"), 1);
		printf("  %s: %d error strings, ncclGetUniqueId %ld both ways\n",
		       releases[i].at.name, LAST_CODE - FIRST_CODE + 1,
		       ts_number(&ts_direct, "unique_id_rc"));
	}
}

TS_TEST(test_error_strings_and_no_gpu, "error strings and ncclGetUniqueId as directly");

/* The release decides, from what each library's banner says. */
static void test_release(void)
{
	char toolkit[PATH_MAX / 2], debian[PATH_MAX / 2], path[PATH_MAX + 32], cudart[PATH_MAX];
	const char *pin_env[] = {path, "CUDASTUB_NCCL_MAJOR=13", NULL};
	const char *process_env[] = {path, cudart, NULL}, *path_env[] = {path, NULL};

	if (!nccl_library(&releases[0], toolkit, sizeof toolkit))
		return;
	/* only the toolkit's (CUDA 13) on the path: a pin of 12 refuses it */
	*strrchr(toolkit, '/') = '\0';
	snprintf(path, sizeof path, "LD_LIBRARY_PATH=%s", toolkit);
	pin_env[1] = "CUDASTUB_NCCL_MAJOR=12";
	if (nccl_calls(NC_STUB, pin_env, 0, &ts_through) == 0) {
		CU_ASSERT_EQUAL(ts_number(&ts_through, "state"), CUDASTUB_STATE_NOT_FOUND);
		CU_ASSERT_EQUAL(ts_number(&ts_through, "unique_id_rc"), ncclUnhandledCudaError);
	}
	pin_env[1] = "CUDASTUB_NCCL_MAJOR=13";
	if (!nccl_library(&releases[1], debian, sizeof debian))
		return;
	/* Debian's folder first on the path, the toolkit's after it */
	*strrchr(debian, '/') = '\0';
	snprintf(path, sizeof path, "LD_LIBRARY_PATH=%s:%s", debian, toolkit);
	if (nccl_calls(NC_STUB, path_env, 1, &ts_through) == 0)
		CU_ASSERT_EQUAL(ts_number(&ts_through, "state"), CUDASTUB_STATE_LOADED);
	/* a pin of 13: Debian's (12.4) is passed by, the toolkit's taken */
	if (nccl_calls(NC_STUB, pin_env, 1, &ts_through) == 0) {
		CU_ASSERT_EQUAL(ts_number(&ts_through, "major"), 13);
		CU_ASSERT_PTR_NOT_NULL(strstr(ts_text(&ts_through, "path"), toolkit));
	}
	pin_env[1] = "CUDASTUB_NCCL_MAJOR=12";
	if (nccl_calls(NC_STUB, pin_env, 1, &ts_through) == 0) {
		CU_ASSERT_EQUAL(ts_number(&ts_through, "major"), 12);
		CU_ASSERT_PTR_NOT_NULL(strstr(ts_text(&ts_through, "path"), debian));
	}
	/* CUDA 13's runtime already in the process: its release first, so the
	 * toolkit's NCCL over Debian's, though Debian's comes first */
	snprintf(cudart, sizeof cudart, "NC_PRELOAD=%s/libcudart.so.13", toolkit);
	if (nccl_calls(NC_STUB, process_env, 1, &ts_through) == 0) {
		CU_ASSERT_EQUAL(ts_number(&ts_through, "major"), 13);
		CU_ASSERT_PTR_NOT_NULL(strstr(ts_text(&ts_through, "path"), toolkit));
	}
}

TS_TEST(test_release, "the CUDA release decides under a pin and in a process");

static void test_no_library(void)
{
	const char *env[] = {"CUDASTUB_NCCL_PATH=/nonexistent/cudastub-no-nccl", NULL};

	/* each stub answers the version of its record's NCCL, as that NCCL
	 * answers on this machine */
	for (size_t i = 0; i < RELEASES; i++) {
		char path[PATH_MAX];
		const char *real = nccl_library(&releases[i], path, sizeof path);

		if (!real || nccl_calls(real, NULL, releases[i].at.fixture != NULL, &ts_direct) ||
		    nccl_calls(releases[i].stub, env, 0, &ts_through))
			continue;
		CU_ASSERT_EQUAL(ts_number(&ts_through, "version_rc"), ncclSuccess);
		TS_REAL_SAME("version");
		CU_ASSERT_EQUAL(ts_number(&ts_through, "state"), CUDASTUB_STATE_OVERRIDE_FAILED);
		printf("  %s's stub, no library: version %ld\n", releases[i].at.name,
		       ts_number(&ts_through, "version"));
	}
	if (nccl_calls(NC_STUB, env, 0, &ts_through))
		return;
	CU_ASSERT_EQUAL(ts_number(&ts_through, "unique_id_rc"), ncclUnhandledCudaError);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "unique_id_set"), 0);
	/* NCCL's own answer when no error is recorded, never NULL */
	CU_ASSERT_STRING_EQUAL(ts_text(&ts_through, "last_error"), "\"\"");
	CU_ASSERT_STRING_EQUAL(ts_text(&ts_through, "err_0"), "ncclSuccess");
	CU_ASSERT_STRING_EQUAL(ts_text(&ts_through, "err_5"), "ncclInvalidUsage");
	CU_ASSERT_STRING_EQUAL(ts_text(&ts_through, "err_12"), "unrecognized status code");
	CU_ASSERT_PTR_NOT_NULL(strstr(ts_text(&ts_through, "err_1"), "CUDASTUB_NCCL_PATH"));
	CU_ASSERT_EQUAL(ts_number(&ts_through, "state"), CUDASTUB_STATE_OVERRIDE_FAILED);
	CU_ASSERT_PTR_NOT_NULL(strstr(ts_text(&ts_through, "error"), "CUDASTUB_NCCL_PATH="));
}

TS_TEST(test_no_library, "no library: the record's version, documented codes, names");

TS_REAL_MAIN("NCCL through its stub, real libraries", calls_child)

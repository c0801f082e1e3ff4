/*
 * nvFatbin through its stub, with NVIDIA's library and no GPU: the 12.4
 * fixture's libnvfatbin.so.12, through the stub built against the 12.4
 * headers (nvFatbin arrived in CUDA 12.4, and no CUDA 13 nvFatbin.h is
 * recorded here: tests/abi_stubs.cmake, cudastub_stub_from_fixture_headers).
 *
 *   version      nvFatbinVersion through the stub answers what the library
 *                answers called directly;
 *   strings      nvFatbinGetErrorString, for every code the headers know
 *                and some they do not (-1 to 20), the same text (or NULL)
 *                through the stub as directly;
 *   fatbin       nvFatbinCreate, nvFatbinSize, nvFatbinDestroy of an empty
 *                fat binary (no GPU needed): the same results;
 *   no library   every call CUDASTUB_NVFATBIN_ERROR_STUB_LIBRARY, the
 *                version outputs 0; the error string names each code and
 *                explains the stub's own code with the failed search's line.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudastub/cudastub.h"
#include "test_support.h"
#include "ts_real.h"
#include "ts_release.h"

/* From CMake: FB_STUB_12, the stub built against the 12.4 headers. */

/* the codes whose strings are compared: 12.4's 0 to 11, 12.5's to 16, and
 * codes no release has */
#define FIRST_CODE (-1)
#define LAST_CODE  20

/* ---- child: the calls, through FB_OPEN (the stub or the real library) ---- */

static int calls_child(void)
{
	void *lib = ts_real_open("FB_OPEN");
	int (*version)(unsigned int *, unsigned int *);
	const char *(*error_string)(int);
	int (*create)(void **, const char **, size_t);
	int (*size)(void *, size_t *);
	int (*destroy)(void **);
	const cudastub_library_info *(*info)(void);
	unsigned int major = 7, minor = 7;
	void *handle = NULL;
	size_t bytes = 7;

	if (!lib)
		return 3;
	*(void **)&version = dlsym(lib, "nvFatbinVersion");
	*(void **)&error_string = dlsym(lib, "nvFatbinGetErrorString");
	*(void **)&create = dlsym(lib, "nvFatbinCreate");
	*(void **)&size = dlsym(lib, "nvFatbinSize");
	*(void **)&destroy = dlsym(lib, "nvFatbinDestroy");
	if (!version || !error_string || !create || !size || !destroy)
		return 4;
	printf("version_rc=%d\n", version(&major, &minor));
	printf("major=%u\nminor=%u\n", major, minor);
	for (int code = FIRST_CODE; code <= LAST_CODE; code++) {
		const char *s = error_string(code);

		printf("string%d=%s\n", code, s ? s : "(NULL)");
	}
	printf("create_rc=%d\n", create(&handle, NULL, 0));
	if (handle) {
		printf("size_rc=%d\n", size(handle, &bytes));
		printf("size=%zu\n", bytes);
		printf("destroy_rc=%d\n", destroy(&handle));
	}
	fflush(stdout);
	*(void **)&info = dlsym(lib, "cudastub_nvfatbin_info");
	if (info) {
		const char *s = error_string(CUDASTUB_NVFATBIN_ERROR_STUB_LIBRARY);
		char line[1024];

		/* what the stub says of its own code, on one line */
		snprintf(line, sizeof line, "%s", s ? s : "(NULL)");
		for (char *c = line; *c; c++)
			if (*c == '\n')
				*c = ' ';
		printf("stub_state=%d\nstub_major=%d\nstub_string=%s\n", (int)info()->state,
		       info()->major, line);
	}
	return 0;
}

/* ---- parent ---- */

static void test_real(void)
{
	char path[PATH_MAX], a[16384], b[16384];
	const char *real;

	if (!*FB_STUB_12) {
		ts_unavailable("the 12.4 headers (tests/fixtures/fetch.sh), fetched before "
			       "configuring");
		return;
	}
	real = ts_release_file(12, "libnvfatbin.so.12", path, sizeof path);
	if (!real)
		return; /* reported */
	if (ts_real_both("calls", "FB_OPEN", "CUDASTUB_NVFATBIN_PATH", FB_STUB_12, real, NULL))
		return;
	CU_ASSERT_EQUAL(ts_number(&ts_direct, "version_rc"), 0);
	CU_ASSERT_EQUAL(ts_number(&ts_direct, "major"), 12);
	/* 0 is success, whose string is NULL; 1 is a real error's text */
	CU_ASSERT_STRING_EQUAL(ts_text(&ts_direct, "string0"), "(NULL)");
	CU_ASSERT_STRING_NOT_EQUAL(ts_text(&ts_direct, "string1"), "(NULL)");
	CU_ASSERT_EQUAL(ts_number(&ts_direct, "create_rc"), 0);
	/* every line the library decides, the same through the stub */
	CU_ASSERT_STRING_EQUAL(ts_real_answers(&ts_through, "stub_state=", NULL, a, sizeof a),
			       ts_real_answers(&ts_direct, "stub_state=", NULL, b, sizeof b));
	CU_ASSERT_EQUAL(ts_number(&ts_through, "stub_state"), CUDASTUB_STATE_LOADED);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "stub_major"), 12);
	printf("  %s: nvFatbin %ld.%ld; %d error strings, create, size %ld, destroy: the same "
	       "through the stub\n",
	       real, ts_number(&ts_through, "major"), ts_number(&ts_through, "minor"),
	       LAST_CODE - FIRST_CODE + 1, ts_number(&ts_through, "size"));
}

TS_TEST(test_real, "version, error strings, an empty fatbin: the library's answers");

static void test_no_library(void)
{
	if (!*FB_STUB_12 ||
	    ts_real_run("calls", "FB_OPEN", FB_STUB_12,
			(const char *[]){"CUDASTUB_NVFATBIN_PATH=/nonexistent/cudastub-no-library",
					 NULL},
			&ts_through))
		return; /* reported by test_real */
	CU_ASSERT_EQUAL(ts_number(&ts_through, "version_rc"), CUDASTUB_NVFATBIN_ERROR_STUB_LIBRARY);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "major"), 0);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "minor"), 0);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "create_rc"), CUDASTUB_NVFATBIN_ERROR_STUB_LIBRARY);
	CU_ASSERT_PTR_NULL(ts_value(&ts_through, "destroy_rc"));
	/* without a library: each code's name from the enum */
	CU_ASSERT_STRING_EQUAL(ts_text(&ts_through, "string1"), "NVFATBIN_ERROR_INTERNAL");
	CU_ASSERT_STRING_EQUAL(ts_text(&ts_through, "string11"), "NVFATBIN_ERROR_EMPTY_INPUT");
	CU_ASSERT_STRING_EQUAL(ts_text(&ts_through, "string20"), "unrecognized status code");
	/* and the stub's own code: none found, which variable to set */
	CU_ASSERT_PTR_NOT_NULL(
		strstr(ts_text(&ts_through, "stub_string"), "CUDASTUB_NVFATBIN_PATH"));
	CU_ASSERT_EQUAL(ts_number(&ts_through, "stub_state"), CUDASTUB_STATE_OVERRIDE_FAILED);
}

TS_TEST(test_no_library, "no library: the stub's code, outputs 0, names");

TS_REAL_MAIN("nvFatbin: the real library through the stub", calls_child)

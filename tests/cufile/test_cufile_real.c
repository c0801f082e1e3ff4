/*
 * cuFile (GPUDirect Storage) through its stub, with NVIDIA's libraries and
 * no GPU or driver: the 12.4 and 11.8 fixtures' libcufile.so.0 (cuFile
 * 1.9.1 and 1.4.0), through the stubs built against the 12.4 and 11.8
 * headers (no CUDA 13 cufile.h is recorded here: tests/abi_stubs.cmake,
 * cudastub_stub_from_fixture_headers).
 *
 *   driver      cuFileDriverOpen returns what the library returns without
 *               a driver (CU_FILE_NVFS_SETUP_ERROR here; with one, what it
 *               returns there), err and cu_err, the same through the stub;
 *               cuFileUseCount and cuFileDriverClose too;
 *   version     cuFileGetVersion (12.4: 1090) the same through the stub;
 *               on 11.8, which lacks it, the 12.x stub refuses it uncalled
 *               (CU_FILE_PLATFORM_NOT_SUPPORTED) and says 0;
 *   no library  every call CU_FILE_DRIVER_NOT_INITIALIZED with cu_err 0,
 *               cuFileRead minus that code (never 0, end of file), the
 *               version output 0, no crash.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cufile.h>

#include "cudastub/cudastub.h"
#include "test_support.h"
#include "ts_real.h"

/* From CMake: CU_STUB_12 and CU_STUB_11, the stubs built against the 12.4
 * and 11.8 headers ("" where those were not fetched when configuring). */

/* cuFile writes its log beside the process; the children's goes nowhere */
#define NO_LOG "CUFILE_LOGFILE_PATH=/dev/null"

/* ---- child: the calls, through CU_OPEN (a stub or a real library) ---- */

static int calls_child(void)
{
	void *lib = ts_real_open("CU_OPEN");
	CUfileError_t (*driver_open)(void);
	CUfileError_t (*driver_close)(void);
	CUfileError_t (*get_version)(int *);
	long (*use_count)(void);
	ssize_t (*file_read)(CUfileHandle_t, void *, size_t, off_t, off_t);
	const cudastub_library_info *(*info)(void);
	CUfileError_t status;

	if (!lib)
		return 3;
	*(void **)&driver_open = dlsym(lib, "cuFileDriverOpen");
	*(void **)&driver_close = dlsym(lib, "cuFileDriverClose");
	*(void **)&get_version = dlsym(lib, "cuFileGetVersion");
	*(void **)&use_count = dlsym(lib, "cuFileUseCount");
	*(void **)&file_read = dlsym(lib, "cuFileRead");
	if (!driver_open || !driver_close || !use_count || !file_read)
		return 4;
	status = driver_open();
	printf("open_err=%d\nopen_cu_err=%d\n", (int)status.err, (int)status.cu_err);
	printf("use_count=%ld\n", use_count());
	status = driver_close();
	printf("close_err=%d\nclose_cu_err=%d\n", (int)status.err, (int)status.cu_err);
	fflush(stdout);
	if (get_version) {
		int version = -7;

		status = get_version(&version);
		printf("version_err=%d\nversion=%d\n", (int)status.err, version);
	}
	*(void **)&info = dlsym(lib, "cudastub_cufile_info");
	if (info) {
		/* only without a library: a real read needs a registered handle */
		if (info()->state != CUDASTUB_STATE_LOADED)
			printf("read=%zd\n", file_read(NULL, NULL, 1, 0, 0));
		printf("stub_state=%d\nstub_major=%d\n", (int)info()->state, info()->major);
	}
	return 0;
}

/* ---- parent ---- */

static const struct ts_real_fixture_lib cufile = {
	{CU_STUB_12, CU_STUB_11},
	{"libcufile.so.0", "libcufile.so.0"},
	"CU_OPEN",
	"CUDASTUB_CUFILE_PATH",
	NO_LOG,
	"the 12.4 and 11.8 headers and cufile.h",
	"no real cuFile: cufile-12.4, cufile-11.8",
};

static void same_answers(const struct ts_real_pair *p)
{
	char a[4096], b[4096];

	/* the driver's open fails without a driver (with one, it may
	 * succeed): whichever, the same through the stub */
	CU_ASSERT_PTR_NOT_NULL(ts_value(&ts_direct, "open_err"));
	CU_ASSERT_STRING_EQUAL(
		ts_real_answers(&ts_through, "version_err=", "stub_state=", a, sizeof a),
		ts_real_answers(&ts_direct, "version_err=", "stub_state=", b, sizeof b));
	CU_ASSERT_EQUAL(ts_number(&ts_through, "stub_state"), CUDASTUB_STATE_LOADED);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "stub_major"), p->major);
	if (p->major == 12 && p->abi == 12) {
		CU_ASSERT_EQUAL(ts_number(&ts_direct, "version_err"), CU_FILE_SUCCESS);
		CU_ASSERT_EQUAL(ts_number(&ts_through, "version_err"),
				ts_number(&ts_direct, "version_err"));
		CU_ASSERT_EQUAL(ts_number(&ts_through, "version"),
				ts_number(&ts_direct, "version"));
	} else if (p->major == 11) {
		/* 1.4 has no cuFileGetVersion: the 12.x stub refuses it, the
		 * 11.x stub has none */
		CU_ASSERT_PTR_NULL(ts_value(&ts_direct, "version_err"));
		if (p->abi == 12) {
			CU_ASSERT_EQUAL(ts_number(&ts_through, "version_err"),
					CU_FILE_PLATFORM_NOT_SUPPORTED);
			CU_ASSERT_EQUAL(ts_number(&ts_through, "version"), 0);
		}
	}
	printf("  abi %d stub, %s: cuFileDriverOpen %ld (cu_err %ld), cuFileGetVersion %s, the "
	       "same directly\n",
	       p->abi, p->real, ts_number(&ts_through, "open_err"),
	       ts_number(&ts_through, "open_cu_err"), ts_text(&ts_direct, "version"));
}

static void test_real(void)
{
	ts_real_fixture_pairs(&cufile, same_answers);
}

TS_TEST(test_real, "the driver's open and the version: what the library answers");

static void no_library_codes(int abi)
{
	CU_ASSERT_EQUAL(ts_number(&ts_through, "open_err"), CU_FILE_DRIVER_NOT_INITIALIZED);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "open_cu_err"), 0);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "close_err"), CU_FILE_DRIVER_NOT_INITIALIZED);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "use_count"), 0);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "read"), -CU_FILE_DRIVER_NOT_INITIALIZED);
	if (abi == 12) {
		CU_ASSERT_EQUAL(ts_number(&ts_through, "version_err"),
				CU_FILE_DRIVER_NOT_INITIALIZED);
		CU_ASSERT_EQUAL(ts_number(&ts_through, "version"), 0);
	}
	CU_ASSERT_EQUAL(ts_number(&ts_through, "stub_state"), CUDASTUB_STATE_OVERRIDE_FAILED);
}

static void test_no_library(void)
{
	ts_real_fixture_no_library(&cufile, no_library_codes);
}

TS_TEST(test_no_library, "no library: CU_FILE_DRIVER_NOT_INITIALIZED, no crash");

TS_REAL_MAIN("cuFile: real libraries through the stub", calls_child)

/*
 * cuSOLVERMg through its stub, with NVIDIA's libraries and no GPU: the
 * 13.0 toolkit's libcusolverMg.so.12, and the 12.4 and 11.8 fixtures'
 * libcusolverMg.so.11 (each with its release's cuBLAS on the path, as
 * Debian's packages depend on it).
 *
 * libcusolverMg has no version query: the stub asks the cuBLAS it links
 * (stubs/cusolvermg/cusolvermg.spec), so this suite also proves
 * the contract tests/libraries proves for the others:
 *
 *   exports     the stub exports its generated list and its two entry
 *               points, and every function the real 13.0 library exports;
 *   release     the stub reports the CUDA release of the library it
 *               loaded (libcusolverMg.so.11 is 11.8's and 12.4's), and
 *               cublasGetProperty through the library's own handle is
 *               the version the stub records;
 *   calls       what works without a GPU (cusolverMgCreate,
 *               cusolverMgDeviceSelect, cusolverMgDestroy, the device
 *               grid and a matrix descriptor) answers through the stub as
 *               directly, per release;
 *   no library  an override naming nothing, and a pin the stub cannot
 *               load: every call CUSOLVER_STATUS_NOT_INITIALIZED, no
 *               output written, no crash;
 *   shim        the shim (libcusolverMg.so.12) finds the real library
 *               behind it and answers as it does;
 *   other ABIs  the stubs built against the 12.4 and 11.8 headers: the
 *               same answers on every release.
 *   sweep       every export of the stub's list, called with zero
 *               arguments and no library, returns CUSOLVER_STATUS_NOT_INITIALIZED.
 */
#define _GNU_SOURCE
#include <cusolverMg.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudastub/cudastub.h"
#include "test_support.h"
#include "ts_real.h"
#include "ts_elf.h"
#include "ts_release.h"

/* From CMake: MG_STUB (the build's stub, 13 ABI), MG_STUB_12 and
 * MG_STUB_11 ("" when those headers were not fetched when configuring),
 * MG_SYMBOLS (the build's generated export list), MG_EXPORTS_13 (the real
 * 13.0 library's), MG_SONAME (the stub ABI's SONAME). */

/* handles no cuSOLVERMg has handed out: an answer that does not write one
 * leaves it as it was */
#define UNTOUCHED ((void *)(uintptr_t)0x5eed)

/* ---- child: the calls, through MG_OPEN (the stub or a real library) ---- */

static int calls_child(void)
{
	void *lib = ts_real_open("MG_OPEN");
	cusolverStatus_t (*create)(cusolverMgHandle_t *);
	cusolverStatus_t (*select)(cusolverMgHandle_t, int, int *);
	cusolverStatus_t (*destroy)(cusolverMgHandle_t);
	cusolverStatus_t (*create_grid)(cudaLibMgGrid_t *, int32_t, int32_t, const int32_t *,
					cusolverMgGridMapping_t);
	cusolverStatus_t (*destroy_grid)(cudaLibMgGrid_t);
	cusolverStatus_t (*create_desc)(cudaLibMgMatrixDesc_t *, int64_t, int64_t, int64_t, int64_t,
					cudaDataType, const cudaLibMgGrid_t);
	cusolverMgHandle_t handle = UNTOUCHED;
	cudaLibMgGrid_t grid = UNTOUCHED;
	cudaLibMgMatrixDesc_t desc = UNTOUCHED;
	int devices[1] = {0}, rc;

	if (!lib)
		return 3;
	*(void **)&create = ts_real_symbol(lib, "cusolverMgCreate");
	*(void **)&select = ts_real_symbol(lib, "cusolverMgDeviceSelect");
	*(void **)&destroy = ts_real_symbol(lib, "cusolverMgDestroy");
	*(void **)&create_grid = ts_real_symbol(lib, "cusolverMgCreateDeviceGrid");
	*(void **)&destroy_grid = ts_real_symbol(lib, "cusolverMgDestroyGrid");
	*(void **)&create_desc = ts_real_symbol(lib, "cusolverMgCreateMatrixDesc");
	rc = (int)create(&handle);
	printf("create_rc=%d\ncreate_untouched=%d\n", rc, handle == UNTOUCHED);
	if (rc == CUSOLVER_STATUS_SUCCESS) {
		printf("select_rc=%d\n", (int)select(handle, 1, devices));
		printf("destroy_rc=%d\n", (int)destroy(handle));
	}
	rc = (int)create_grid(&grid, 1, 1, devices, CUDALIBMG_GRID_MAPPING_COL_MAJOR);
	printf("grid_rc=%d\ngrid_untouched=%d\n", rc, grid == UNTOUCHED);
	/* without a GPU, the libraries here refuse it (the grid names device
	 * 0): compared, not assumed */
	printf("desc_rc=%d\n", (int)create_desc(&desc, 64, 64, 32, 32, CUDA_R_64F, grid));
	printf("desc_untouched=%d\n", desc == UNTOUCHED);
	if (rc == CUSOLVER_STATUS_SUCCESS)
		printf("destroy_grid_rc=%d\n", (int)destroy_grid(grid));

	if (!ts_real_print_info(lib, "cudastub_cusolvermg_info")) {
		/* the real library: the cuBLAS it loaded, as the stub asks it */
		int (*property)(int, int *);
		int v[2] = {-1, -1};

		*(void **)&property = ts_real_symbol(lib, "cublasGetProperty");
		for (int k = 0; k < 2; k++)
			if (property(k, &v[k]) != 0)
				return 6;
		printf("cublas_major=%d\ncublas_minor=%d\n", v[0], v[1]);
	}
	fflush(stdout);
	return 0;
}

/* ---- parent ---- */

static const struct ts_real_release releases[] = {
	{"13.0", 13, NULL, "libcusolverMg.so.12"},
	{"12.4", 12, "cusolvermg-12.4", "libcusolverMg.so.11"},
	{"11.8", 11, "cusolvermg-11.8", "libcusolverMg.so.11"},
};
#define RELEASES (sizeof releases / sizeof *releases)

static void test_exports(void)
{
	struct ts_names exported = {0}, listed = {0}, real = {0};
	int unversioned = 0;

	CU_ASSERT_EQUAL_FATAL(ts_names_exported(&exported, MG_STUB, MG_SONAME, &unversioned), 0);
	CU_ASSERT_EQUAL_FATAL(ts_names_read_list(&listed, MG_SYMBOLS), 0);
	ts_names_add(&listed, "cudastub_cusolvermg_info");
	ts_names_add(&listed, "cudastub_cusolvermg_load");
	TS_EXPECT_SAME_NAMES(&listed, &exported, "cusolvermg stub exports");
	CU_ASSERT_EQUAL(unversioned, 0);
	CU_ASSERT_EQUAL_FATAL(ts_names_read_list(&real, MG_EXPORTS_13), 0);
	CU_ASSERT_TRUE(real.count > 0);
	for (size_t i = 0; i < real.count; i++)
		CU_ASSERT_TRUE(ts_names_has(&exported, real.names[i]));
	printf("  cusolvermg: %zu exports, the real 13.0 library's %zu all among them\n",
	       exported.count, real.count);
	ts_names_free(&exported);
	ts_names_free(&listed);
	ts_names_free(&real);
}

TS_TEST(test_exports, "exports: its list, and every real export");

/* The calls and the release of one stub on every real release. */
static void calls_through(const char *stub, int abi)
{
	static const char *const same[] = {"create_rc",	 "create_untouched", "select_rc",
					   "destroy_rc", "grid_rc",	     "grid_untouched",
					   "desc_rc",	 "desc_untouched",   "destroy_grid_rc"};

	for (size_t i = 0; i < RELEASES; i++) {
		const struct ts_real_release *r = &releases[i];
		char path[PATH_MAX], dirs[2 * PATH_MAX], libpath[2 * PATH_MAX + 32],
			override[PATH_MAX + 32], asan[1024];
		const char *real = ts_release_file(r->major, r->soname, path, sizeof path);
		/* the release on the path, as a packager puts it: its cuBLAS */
		const char *direct_env[] = {libpath, asan, NULL},
			   *env[] = {override, libpath, asan, NULL};

		if (!real)
			continue; /* reported */
		snprintf(libpath, sizeof libpath, "LD_LIBRARY_PATH=%s",
			 ts_release_path(r->major, dirs, sizeof dirs));
		ts_env_leaks_unnamed(asan, sizeof asan);
		snprintf(override, sizeof override, "CUDASTUB_CUSOLVERMG_PATH=%s", real);
		if (ts_real_run("calls", "MG_OPEN", real, direct_env, &ts_direct) ||
		    ts_real_run("calls", "MG_OPEN", stub, env, &ts_through))
			continue;
		for (size_t k = 0; k < sizeof same / sizeof *same; k++)
			TS_REAL_SAME(same[k]);
		/* without a GPU, a handle and a grid are made, a block larger than
		 * the matrix refused */
		CU_ASSERT_EQUAL(ts_number(&ts_direct, "create_rc"), CUSOLVER_STATUS_SUCCESS);
		CU_ASSERT_EQUAL(ts_number(&ts_direct, "grid_rc"), CUSOLVER_STATUS_SUCCESS);
		CU_ASSERT_EQUAL(ts_number(&ts_through, "state"), CUDASTUB_STATE_LOADED);
		CU_ASSERT_EQUAL(ts_number(&ts_through, "major"), r->major);
		CU_ASSERT_EQUAL(ts_number(&ts_direct, "cublas_major"), r->major);
		CU_ASSERT_EQUAL(ts_number(&ts_through, "minor"),
				ts_number(&ts_direct, "cublas_minor"));
		printf("  %d ABI, %s: %s, cuBLAS %ld.%ld, CUDA %ld; cusolverMgCreate %ld, "
		       "cusolverMgDeviceSelect %ld, cusolverMgCreateMatrixDesc %ld both ways\n",
		       abi, r->name, r->soname, ts_number(&ts_direct, "cublas_major"),
		       ts_number(&ts_direct, "cublas_minor"), ts_number(&ts_through, "major"),
		       ts_number(&ts_direct, "create_rc"), ts_number(&ts_direct, "select_rc"),
		       ts_number(&ts_direct, "desc_rc"));
	}
}

static void test_real(void)
{
	calls_through(MG_STUB, 13);
}

TS_TEST(test_real, "calls as directly, the release of its cuBLAS");

static void expect_no_library(int state, const char *why)
{
	static const char *const refused[] = {"create_rc", "grid_rc", "desc_rc"};

	for (size_t k = 0; k < sizeof refused / sizeof *refused; k++)
		CU_ASSERT_EQUAL(ts_number(&ts_through, refused[k]),
				CUSOLVER_STATUS_NOT_INITIALIZED);
	CU_ASSERT_STRING_EQUAL(ts_value(&ts_through, "create_untouched"), "1");
	CU_ASSERT_STRING_EQUAL(ts_value(&ts_through, "grid_untouched"), "1");
	CU_ASSERT_STRING_EQUAL(ts_value(&ts_through, "desc_untouched"), "1");
	CU_ASSERT_EQUAL(ts_number(&ts_through, "state"), state);
	CU_ASSERT_PTR_NOT_NULL(strstr(ts_value(&ts_through, "error"), why));
}

static void test_no_library(void)
{
	const char *env[] = {"CUDASTUB_CUSOLVERMG_PATH=/nonexistent/cudastub-no-cusolvermg", NULL};
	const char *pin[] = {"CUDASTUB_CUSOLVERMG_MAJOR=99", NULL};

	if (ts_real_run("calls", "MG_OPEN", MG_STUB, env, &ts_through) == 0)
		expect_no_library(CUDASTUB_STATE_OVERRIDE_FAILED, "CUDASTUB_CUSOLVERMG_PATH=");
	if (ts_real_run("calls", "MG_OPEN", MG_STUB, pin, &ts_through) == 0)
		expect_no_library(CUDASTUB_STATE_NOT_FOUND, "\"99\" is refused");
}

TS_TEST(test_no_library, "no library: CUSOLVER_STATUS_NOT_INITIALIZED, no output");

/* The stubs of the 12.4 and 11.8 headers, on every release. */
static void test_other_abis(void)
{
	ts_real_other_abis(MG_STUB_12, MG_STUB_11, calls_through, "the 12.4 and 11.8 headers");
}

TS_TEST(test_other_abis, "the 12.4- and 11.8-ABI stubs on every release");

/* The shim under NVIDIA's SONAME, opened with no override: it finds the
 * real 13.0 library behind it (never itself) and answers as it does. */
static void test_shim(void)
{
#ifndef MG_SHIM
	ts_not_applicable("no shim of the 13 ABI in this build");
#else
	char path[PATH_MAX];
	const char *real = ts_release_file(13, "libcusolverMg.so.12", path, sizeof path);
	const char *env[] = {"MG_OPEN=" MG_SHIM, NULL};

	if (!real || ts_real_run("calls", "MG_OPEN", real, NULL, &ts_direct))
		return;
	if (ts_run_child("calls", env, &ts_through) != 0 || ts_through.exit_code != 0) {
		CU_FAIL("the shim's calls child failed");
		return;
	}
	TS_REAL_SAME("create_rc");
	TS_REAL_SAME("grid_rc");
	TS_REAL_SAME("desc_rc");
	CU_ASSERT_EQUAL(ts_number(&ts_through, "state"), CUDASTUB_STATE_LOADED);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "major"), 13);
	CU_ASSERT_PTR_NOT_NULL(strstr(ts_value(&ts_through, "path"), "/libcusolverMg.so.12"));
	CU_ASSERT_PTR_NULL(strstr(ts_value(&ts_through, "path"), "/shim/"));
#endif
}

TS_TEST(test_shim, "the shim finds the real library behind it");

/* The sweep: every export, no library, the documented code, no crash. */
static void test_mg_sweep(void)
{
	ts_real_sweep(MG_STUB, MG_SYMBOLS, "CUDASTUB_CUSOLVERMG_PATH",
		      CUSOLVER_STATUS_NOT_INITIALIZED);
}

TS_TEST(test_mg_sweep, "every export, no library: the code, no crash");

TS_REAL_MAIN("cuSOLVERMg through its stub, real libraries", calls_child)

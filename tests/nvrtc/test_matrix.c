/*
 * Every cell of the NVRTC matrix: the stub built against the 11.8, 12.4 and
 * 13.0 headers, each loading the real 11.8, 12.4 and 13.0 libraries. In
 * each cell the stub reports the runtime's version, compiles a kernel to
 * the same PTX as a direct call, and forwards or refuses nvrtcGetNVVMSize
 * (gone in 13) as its gating table says; and every export is what that
 * table says (tests/support/ts_matrix.h: forwarded names exported, gated
 * ones answering 1500 or 1801 without calling NVRTC). Then a program
 * linked against NVIDIA's libnvrtc.so.12 runs through the 12-ABI shim.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cudastub/cudastub.h"
#include "matrix_kernel.h"
#include "test_support.h"
#include "ts_matrix.h"

/* The CUDA 13.0 libnvrtc of this architecture (CUDASTUB_REAL_NVRTC13), or ""
 * where this machine has none (aarch64: Debian ships no 13.0) */
#ifndef MATRIX_REAL_13
#define MATRIX_REAL_13 "/usr/local/cuda/lib64/libnvrtc.so.13"
#endif
#define REAL_13 MATRIX_REAL_13
#define NO_REAL_13                                                                                 \
	"no CUDA 13.0 libnvrtc for this architecture here (Debian ships none for arm64); "         \
	"configure with -DCUDASTUB_REAL_NVRTC13=<file>"

/* ---- child: one cell ---- */

static int cell(void)
{
	const char *stub_path = getenv("TEST_STUB"), *runtime = getenv("CUDASTUB_NVRTC_PATH");
	void *stub = dlopen(stub_path, RTLD_NOW | RTLD_LOCAL), *direct;
	struct matrix_nvrtc s, d;
	const cudastub_library_info *(*info)(void);
	int (*nvvm_size)(void *, size_t *);
	int major = -1, minor = -1;
	size_t stub_size = 0, direct_size = 0, nvvm = 0;
	char *stub_ptx, *direct_ptx;

	if (!stub || matrix_nvrtc_from(stub, &s) != 0)
		return 3;
	printf("version_rc=%d\n", s.version(&major, &minor));
	printf("version=%d.%d\n", major, minor);
	stub_ptx = matrix_compile_ptx(&s, &stub_size);
	*(void **)&info = dlsym(stub, "cudastub_nvrtc_info");
	printf("source=%s\n", cudastub_source_name(info()->source));
	printf("abi=%d\n", info()->abi_major);

	/* the library the stub loaded, called without the stub in between */
	direct = dlopen(runtime, RTLD_NOW | RTLD_LOCAL);
	if (!direct || matrix_nvrtc_from(direct, &d) != 0)
		return 4;
	direct_ptx = matrix_compile_ptx(&d, &direct_size);
	printf("ptx_size=%zu\n", stub_ptx ? stub_size : 0);
	printf("ptx_identical=%d\n", stub_ptx && direct_ptx && stub_size == direct_size &&
					     memcmp(stub_ptx, direct_ptx, stub_size) == 0);

	*(void **)&nvvm_size = dlsym(stub, "nvrtcGetNVVMSize");
	if (nvvm_size) {
		int (*real)(void *, size_t *);

		printf("nvvm_stub_rc=%d\n", nvvm_size(NULL, &nvvm));
		*(void **)&real = dlsym(direct, "nvrtcGetNVVMSize");
		printf("nvvm_direct_rc=%d\n", real ? real(NULL, &nvvm) : -1);
	}
	free(stub_ptx);
	free(direct_ptx);
	return 0;
}

static const struct ts_scenario scenarios[] = {
	{"cell", cell},
	TS_MATRIX_SCENARIO,
	{NULL, NULL},
};

static const struct ts_matrix_lib nvrtc = {"nvrtc", "nvrtcVersion", 2};

/* ---- parent ---- */

struct runtime {
	const char *fixture; /* NULL: the local toolkit */
	const char *file;
	const char *version;
};

static const struct runtime runtimes[] = {
	{"cuda-11.8", "libnvrtc.so.11.2", "11.8"},
	{"cuda-12.4", "libnvrtc.so.12", "12.4"},
	{NULL, REAL_13, "13.0"},
};

static int runtime_path(const struct runtime *r, char *path, size_t size)
{
	char dir[3800];

	if (!r->fixture && !r->file[0]) {
		ts_not_applicable(NO_REAL_13);
		return 0;
	}
	if (!r->fixture) {
		if (access(r->file, F_OK) == 0) {
			snprintf(path, size, "%s", r->file);
			return 1;
		}
		ts_unavailable(REAL_13 " missing; install the CUDA 13 toolkit");
		return 0;
	}
	if (!ts_fixture_libdir(r->fixture, dir, sizeof dir))
		return 0;
	return snprintf(path, size, "%s/%s", dir, r->file) < (int)size;
}

static void run_row(const char *stub, int abi)
{
	for (size_t i = 0; i < sizeof runtimes / sizeof *runtimes; i++) {
		const struct runtime *r = &runtimes[i];
		char path[4096], stub_env[4200], path_env[4200];
		char want[16];
		const char *env[] = {stub_env, path_env, NULL};
		struct ts_child child;
		const char *v;
		int runtime_major = atoi(r->version);

		if (!runtime_path(r, path, sizeof path))
			continue;
		snprintf(stub_env, sizeof stub_env, "TEST_STUB=%s", stub);
		snprintf(path_env, sizeof path_env, "CUDASTUB_NVRTC_PATH=%s", path);
		CU_ASSERT_EQUAL_FATAL(ts_run_child("cell", env, &child), 0);
		CU_ASSERT_EQUAL(child.exit_code, 0);
		v = ts_value(&child, "version");
		CU_ASSERT_STRING_EQUAL(v ? v : "", r->version);
		v = ts_value(&child, "abi");
		CU_ASSERT_EQUAL(v ? atoi(v) : 0, abi);
		v = ts_value(&child, "source");
		CU_ASSERT_STRING_EQUAL(v ? v : "", "override");
		v = ts_value(&child, "ptx_identical");
		CU_ASSERT_STRING_EQUAL(v ? v : "", "1");
		v = ts_value(&child, "ptx_size");
		CU_ASSERT(v && atol(v) > 100);
		if (abi < 13) {
			/* exported by the 11- and 12-ABI stubs only */
			const char *stub_rc = ts_value(&child, "nvvm_stub_rc");

			CU_ASSERT_PTR_NOT_NULL_FATAL(stub_rc);
			if (runtime_major < 13) {
				/* a copy: the ring of ts_value turns over in a loop */
				v = ts_value(&child, "nvvm_direct_rc");
				snprintf(want, sizeof want, "%.15s", v ? v : "missing");
				CU_ASSERT_STRING_EQUAL(ts_value(&child, "nvvm_stub_rc"), want);
			} else {
				CU_ASSERT_EQUAL(atoi(stub_rc), CUDASTUB_NVRTC_ERROR_NOT_FOUND);
			}
		} else {
			CU_ASSERT_PTR_NULL(ts_value(&child, "nvvm_stub_rc"));
		}
		/* every export against the gating table */
		struct ts_matrix_cell every = {
			&nvrtc,	   abi,	 abi == 11 ? "11.8" : abi == 12 ? "12.4" : "13.0",
			stub,	   path, runtime_major,
			r->version};
		char label[64];

		snprintf(label, sizeof label, "%d-ABI stub, NVRTC %s", abi, r->version);
		ts_matrix_run(label, &every, NULL);
	}
	printf("\n");
}

static void test_abi_13_against_every_runtime(void)
{
#ifdef MATRIX_HAVE_ABI_13
	run_row(MATRIX_STUB_13, 13);
#else
	ts_unavailable("no 13-ABI NVRTC stub: no CUDA 13 headers (tests/abi_stubs.cmake)");
#endif
}

TS_TEST(test_abi_13_against_every_runtime, "13-ABI stub on 11.8, 12.4, 13.0");

static void test_abi_12_against_every_runtime(void)
{
#ifdef MATRIX_HAVE_ABI_12
	run_row(MATRIX_STUB_12, 12);
#else
	ts_fixture("headers-12.4"); /* reports the missing headers */
#endif
}

TS_TEST(test_abi_12_against_every_runtime, "12-ABI stub on 11.8, 12.4, 13.0");

static void test_abi_11_against_every_runtime(void)
{
#ifdef MATRIX_HAVE_ABI_11
	run_row(MATRIX_STUB_11, 11);
#else
	ts_fixture("headers-11.8");
#endif
}

TS_TEST(test_abi_11_against_every_runtime, "11-ABI stub on 11.8, 12.4, 13.0");

/* A binary built for CUDA 12 runs on a machine with only CUDA 13. */
static void test_cuda12_program_through_the_shim(void)
{
#ifdef MATRIX_DROPIN
	char *argv[] = {MATRIX_DROPIN, NULL};
	const char *env[] = {"LD_LIBRARY_PATH=" MATRIX_SHIM_12_DIR, NULL};
	struct ts_child child;
	const char *v;

	if (!REAL_13[0]) {
		ts_not_applicable(NO_REAL_13);
		return;
	}
	if (access(REAL_13, F_OK) != 0) {
		ts_unavailable(REAL_13 " missing; install the CUDA 13 toolkit");
		return;
	}
	CU_ASSERT_EQUAL_FATAL(ts_run_program(argv, env, NULL, &child), 0);
	CU_ASSERT_EQUAL(child.exit_code, 0);
	v = ts_value(&child, "stub_marker");
	CU_ASSERT_STRING_EQUAL(v ? v : "", "1"); /* the shim, not NVIDIA's .so.12 */
	v = ts_value(&child, "version");
	CU_ASSERT_STRING_EQUAL(v ? v : "", "13.0");
	v = ts_value(&child, "ptx_size");
	CU_ASSERT(v && atol(v) > 100);
	v = ts_value(&child, "nvvm_rc");
	CU_ASSERT_EQUAL(v ? atoi(v) : 0, CUDASTUB_NVRTC_ERROR_NOT_FOUND);
#else
	/* no program was built: say why (the fixtures missing, which is
	 * reported; or fetched after this build was configured) */
	if (ts_fixture(ts_library_fixture("cuda-12.4")) && ts_fixture("headers-12.4"))
		ts_unavailable("the CUDA 12 program was not built: the fixtures came after "
			       "this build was configured; configure it again");
#endif
}

TS_TEST(test_cuda12_program_through_the_shim, "CUDA 12 program through the 12-ABI shim");

TS_MAIN_SUITE("nvrtc matrix: stub ABI x real runtime", NULL, NULL, scenarios)

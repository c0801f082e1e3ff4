/*
 * cudastub adopted by CMake projects that were never edited for it
 * (tests/e2e/adopt): each is configured with one option,
 * -DCMAKE_PROJECT_TOP_LEVEL_INCLUDES=<cudastub>/lib/cmake/cudastub/
 * CudastubAdopt.cmake, built and installed as it is:
 *   legacy   Apache TVM's style: find_package(CUDA)'s variables and
 *            find_library() paths (the driver from the toolkit's link-time
 *            stubs) linked by a shared runtime library;
 *   toolkit  PyTorch's style: a .cu program whose runtime CMake adds,
 *            a shared library on CUDA:: targets, a static one passing
 *            CUDA::nvrtc on.
 * What they install needs none of NVIDIA's libraries, holds each stub it
 * needs beside the file that needs it, and runs with no CUDA, with the
 * real 12.4 libraries and with the real 13.0 ones, each answering through
 * the stubs.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_support.h"
#include "ts_child.h"
#include "ts_driver.h"
#include "ts_elf.h"
#include "ts_files.h"

static char work[PATH_MAX];

static int suite_init(void)
{
	return ts_install_in_tmp("adopt", E2E_CMAKE, work, sizeof work);
}

static int suite_clean(void)
{
	if (work[0])
		ts_remove_tree(work);
	return 0;
}

/* Configures, builds and installs tests/e2e/adopt/<project> with the one
 * option; 1 when done. */
static int build_project(const char *project)
{
	char src[PATH_MAX], build[PATH_MAX + 32], def_prefix[PATH_MAX + 64],
		def_adopt[PATH_MAX + 128];
	char *configure[] = {E2E_CMAKE, "-S", src, "-B", build, def_prefix, def_adopt, NULL};
	char *compile[] = {E2E_CMAKE, "--build", build, "-j", "2", NULL};
	char *install[] = {E2E_CMAKE, "--install", build, NULL};

	snprintf(src, sizeof src, "%s/tests/e2e/adopt/%s", CUDASTUB_TEST_SOURCE_DIR, project);
	snprintf(build, sizeof build, "%s/build-%s", work, project);
	snprintf(def_prefix, sizeof def_prefix, "-DCMAKE_INSTALL_PREFIX=%s/%s", work, project);
	snprintf(def_adopt, sizeof def_adopt,
		 "-DCMAKE_PROJECT_TOP_LEVEL_INCLUDES=%s/cudastub/lib/cmake/cudastub/"
		 "CudastubAdopt.cmake",
		 work);
	return ts_run_ok(configure, "configure the project") && ts_run_ok(compile, "build it") &&
	       ts_run_ok(install, "install it");
}

/* The installed file needs no NVIDIA library, and every stub it needs is
 * beside it. */
static void check_needs(const char *project, const char *file)
{
	static const char *const nvidia[] = {"libcudart.so", "libcuda.so", "libnvrtc.so",
					     "libcublas.so"};
	char path[PATH_MAX + 128], dir[PATH_MAX + 128], beside[2 * PATH_MAX];
	struct ts_names needed = {0};
	int stubs = 0;

	snprintf(path, sizeof path, "%s/%s/%s", work, project, file);
	ts_folder_of(path, dir, sizeof dir);
	CU_ASSERT_EQUAL_FATAL(ts_names_dynamic(&needed, path, "NEEDED"), 0);
	for (size_t i = 0; i < needed.count; i++) {
		for (size_t k = 0; k < sizeof nvidia / sizeof *nvidia; k++)
			if (!strncmp(needed.names[i], nvidia[k], strlen(nvidia[k]))) {
				fprintf(stderr, "%s still needs %s\n", path, needed.names[i]);
				CU_FAIL("an NVIDIA library is still needed");
			}
		if (strstr(needed.names[i], "_stub_cu13-")) {
			stubs++;
			snprintf(beside, sizeof beside, "%s/%s", dir, needed.names[i]);
			CU_ASSERT_EQUAL(access(beside, F_OK), 0);
		}
	}
	CU_ASSERT_TRUE(stubs > 0);
	ts_names_free(&needed);
}

/* The installed program's output, with the variables set. */
static const char *run_program(const char *project, const char *program, const char **env)
{
	static struct ts_child c;
	char exe[PATH_MAX + 64], *argv[] = {exe, NULL};

	snprintf(exe, sizeof exe, "%s/%s/bin/%s", work, project, program);
	if (ts_run_program(argv, env, NULL, &c) != 0 || c.exit_code != 0) {
		fprintf(stderr, "%s: exit %d\n%s%s\n", exe, c.exit_code, c.out, c.err);
		return "";
	}
	return c.out;
}

/* Each line of want is in out. */
static void expect_lines(const char *label, const char *out, const char *want)
{
	char line[256];

	for (const char *p = want; *p;) {
		const char *end = strchr(p, '\n');
		size_t n = end ? (size_t)(end - p + 1) : strlen(p);

		snprintf(line, sizeof line, "%.*s", (int)n, p);
		if (!strstr(out, line))
			fprintf(stderr, "%s: no line \"%.*s\" in:\n%s\n", label, (int)n - 1, p,
				out);
		CU_assertImplementation(strstr(out, line) != NULL, __LINE__, line, __FILE__, label,
					CU_FALSE);
		p += n;
	}
}

/* Runs the program with no CUDA, with 12.4 and with 13.0. */
static void check_runs(const char *project, const char *program)
{
	char v12[4][PATH_MAX + 64], cuda12[PATH_MAX], math12[PATH_MAX], driver[PATH_MAX];
	const char *none[] = {
		"CUDASTUB_CUDART_PATH=/nonexistent", "CUDASTUB_NVRTC_PATH=/nonexistent",
		"CUDASTUB_CUBLAS_PATH=/nonexistent", "CUDASTUB_CUDA_PATH=/nonexistent", NULL};
	const char *t13[] = {"CUDASTUB_CUDART_PATH=/usr/local/cuda/lib64/libcudart.so.13",
			     "CUDASTUB_NVRTC_PATH=/usr/local/cuda/lib64/libnvrtc.so.13",
			     "CUDASTUB_CUBLAS_PATH=/usr/local/cuda/lib64/libcublas.so.13",
			     "CUDASTUB_CUDA_PATH=/nonexistent", NULL};
	const char *t12[] = {v12[0], v12[1], v12[2], v12[3], NULL};

	expect_lines("no CUDA", run_program(project, program, none),
		     "cudart 35 0\ncuda 100 0\nnvrtc 1034 0.0\ncublas 1 0\n");
	if (ts_present("/usr/local/cuda/lib64/libcublas.so.13", "the CUDA 13 toolkit"))
		expect_lines("13.0", run_program(project, program, t13),
			     "cudart 0 13000\ncuda 100 0\nnvrtc 0 13.0\ncublas 0 13\n");
	if (!ts_fixture_libdir("cuda-12.4", cuda12, sizeof cuda12) ||
	    !ts_fixture_libdir("mathlibs-12.4", math12, sizeof math12) ||
	    !ts_driver_dir(driver, sizeof driver))
		return;
	snprintf(v12[0], sizeof v12[0], "CUDASTUB_CUDART_PATH=%s/libcudart.so.12", cuda12);
	snprintf(v12[1], sizeof v12[1], "CUDASTUB_NVRTC_PATH=%s/libnvrtc.so.12", cuda12);
	snprintf(v12[2], sizeof v12[2], "CUDASTUB_CUBLAS_PATH=%s/libcublas.so.12", math12);
	snprintf(v12[3], sizeof v12[3], "CUDASTUB_CUDA_PATH=%s/libcuda.so.1", driver);
	expect_lines("12.4", run_program(project, program, t12),
		     "cudart 0 12040\ncuda 0 12040\nnvrtc 0 12.4\ncublas 0 12\n");
}

static int have_nvcc(void)
{
	if (*E2E_NVCC)
		return 1;
	ts_unavailable("nvcc not found: both projects need the CUDA toolkit to configure");
	return 0;
}

static void test_legacy(void)
{
	if (!have_nvcc() || !build_project("legacy"))
		return;
	check_needs("legacy", "lib/libruntime_cuda.so");
	check_runs("legacy", "legacy_app");
}

TS_TEST(test_legacy, "legacy find_package(CUDA) paths, TVM's style");

static void test_toolkit(void)
{
	if (!have_nvcc() || !build_project("toolkit"))
		return;
	check_needs("toolkit", "lib/libhelper.so");
	check_needs("toolkit", "bin/toolkit_app");
	check_runs("toolkit", "toolkit_app");
	/* the program's own runtime calls, through the stub too */
	CU_ASSERT_PTR_NOT_NULL(
		strstr(run_program("toolkit", "toolkit_app", NULL), "app 0 13000\n"));
}

TS_TEST(test_toolkit, "CUDA:: targets and a .cu program, PyTorch's style");

TS_MAIN_SUITE("e2e: CMake projects adopted with no edit", suite_init, suite_clean, NULL)

/*
 * cudastub as a packager adopts it with CMake (tests/e2e/consumer): from
 * the installed package (find_package), through add_subdirectory, and
 * through FetchContent. Each way builds one program a stub, linking
 * cudastub::cudart, cudastub::nvrtc or cudastub::cuda_driver, and one
 * written for CUDA::cudart and CUDA::nvrtc that cudastub_link() swaps
 * (named before the call, after it, or as a path to NVIDIA's file);
 * installs them with the stubs beside them; and runs them from the install
 * folder (found through $ORIGIN) against the real 11.8, 12.4 and 13.0
 * runtimes and NVRTCs, and Debian's 550 driver.
 */
#define _GNU_SOURCE
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_support.h"
#include "ts_child.h"
#include "ts_driver.h"
#include "ts_files.h"
#include "e2e_tools.h"

static char work[PATH_MAX];

static int suite_init(void)
{
	return ts_install_in_tmp("cmake-package", E2E_CMAKE, work, sizeof work);
}

static int suite_clean(void)
{
	if (work[0])
		ts_remove_tree(work);
	return 0;
}

/* Configures, builds and installs the consumer one way; 1 when done. */
static int build_consumer(const char *mode)
{
	char src[PATH_MAX], build[PATH_MAX + 32], prefix[PATH_MAX + 32], def_mode[64];
	char def_prefix[PATH_MAX + 64], def_where[PATH_MAX + 64], def_flags[512], flags[256];
	char *configure[] = {E2E_CMAKE,	 "-S",	    src,       "-B", build, def_mode,
			     def_prefix, def_where, def_flags, NULL, NULL};
	char *compile[] = {E2E_CMAKE, "--build", build, "-j", "2", NULL};
	char *install[] = {E2E_CMAKE, "--install", build, NULL};

	snprintf(src, sizeof src, "%s/tests/e2e/consumer", CUDASTUB_TEST_SOURCE_DIR);
	snprintf(build, sizeof build, "%s/build-%s", work, mode);
	snprintf(prefix, sizeof prefix, "%s/installed-%s", work, mode);
	snprintf(def_mode, sizeof def_mode, "-DMODE=%s", mode);
	snprintf(def_prefix, sizeof def_prefix, "-DCMAKE_INSTALL_PREFIX=%s", prefix);
	if (!strcmp(mode, "package"))
		snprintf(def_where, sizeof def_where, "-DCMAKE_PREFIX_PATH=%s/cudastub", work);
	else
		snprintf(def_where, sizeof def_where, "-DCUDASTUB_SOURCE=%s",
			 CUDASTUB_TEST_SOURCE_DIR);
	/* a sanitizer build's stubs need their runtime first in the programs
	 * (nvcc's program links none: CUDA is left out there) */
	snprintf(def_flags, sizeof def_flags, "-DCMAKE_C_FLAGS=%s",
		 ts_sanitizer_flags(E2E_SANITIZE, "", flags, sizeof flags));
	if (*E2E_SANITIZE)
		configure[9] = "-DCONSUMER_CUDA=OFF";
	return ts_run_ok(configure, "configure the consumer") && ts_run_ok(compile, "build it") &&
	       ts_run_ok(install, "install it");
}

/* Runs an installed program with one variable set; its stdout or "". */
static const char *run_installed(const char *mode, const char *program, const char *var)
{
	static struct ts_child c;
	char exe[PATH_MAX + 64], *argv[] = {exe, NULL};
	const char *env[] = {var, NULL};

	snprintf(exe, sizeof exe, "%s/installed-%s/bin/%s", work, mode, program);
	if (ts_run_program(argv, var ? env : NULL, NULL, &c) != 0 || c.exit_code != 0)
		return "";
	return c.out;
}

/* What each real library answers through the stubs, with no driver. */
static const struct {
	const char *fixture, *cudart, *nvrtc, *cudart_line, *nvrtc_line;
} libraries[] = {
	{"cuda-11.8", "libcudart.so.11.0", "libnvrtc.so.11.2", "cudart 35 0\n", "nvrtc 0 11.8\n"},
	{"cuda-12.4", "libcudart.so.12", "libnvrtc.so.12", "cudart 0 12040\n", "nvrtc 0 12.4\n"},
	{NULL, "/usr/local/cuda/lib64/libcudart.so.13", "/usr/local/cuda/lib64/libnvrtc.so.13",
	 "cudart 0 13000\n", "nvrtc 0 13.0\n"},
};

/* A file or folder under the consumer's install prefix exists (rel may
 * be a glob pattern: a stub's file name carries its tag). */
static int installed_exists(const char *mode, const char *rel)
{
	char path[PATH_MAX + 128];
	glob_t found;
	int any;

	snprintf(path, sizeof path, "%s/installed-%s/%s", work, mode, rel);
	any = glob(path, 0, NULL, &found) == 0 && found.gl_pathc > 0;
	globfree(&found);
	return any;
}

/* The CUDA program CMake links a runtime into by itself: swapped for the
 * stub, which cudastub_link(... STUB_DIR ../stubs DESTINATION bin)
 * installed where its RUNPATH points, and run from there. */
static void check_implicit_runtime(const char *mode)
{
	char var[PATH_MAX + 64];
	const char *out;

	if (*E2E_SANITIZE) {
		ts_not_applicable("the nvcc-built consumer is left out of sanitizer builds");
		return;
	}
	if (!*E2E_NVCC) {
		ts_unavailable("nvcc not found: the consumer's CUDA program was not built");
		return;
	}
	CU_ASSERT_TRUE(installed_exists(mode, "stubs/libcudart_stub_cu13-*.so"));
	snprintf(var, sizeof var, "CUDASTUB_CUDART_PATH=%s", libraries[2].cudart);
	out = run_installed(mode, "implicit_runtime", var);
	CU_ASSERT_STRING_EQUAL(out, "implicit 0 13000\nthrough cudastub: 1\n");
}

/* Added as a subproject, cudastub leaves the parent's build type alone
 * and installs nothing of its own into the parent's prefix. */
static void check_subproject_installs_nothing(const char *mode)
{
	static const char *const own[] = {"bin/cudastub", "include/cudastub", "lib/cmake/cudastub",
					  "lib/pkgconfig", "lib/cudastub"};
	char cache[PATH_MAX + 64], line[4096];
	FILE *f;
	int seen = 0;

	for (size_t i = 0; i < sizeof own / sizeof *own; i++) {
		if (installed_exists(mode, own[i]))
			fprintf(stderr, "%s: the parent's install has cudastub's %s\n", mode,
				own[i]);
		CU_ASSERT_FALSE(installed_exists(mode, own[i]));
	}
	snprintf(cache, sizeof cache, "%s/build-%s/CMakeCache.txt", work, mode);
	f = fopen(cache, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, "CMAKE_BUILD_TYPE:", 17)) {
			seen = 1;
			CU_ASSERT_STRING_EQUAL(strchr(line, '=') + 1, "\n");
		}
	fclose(f);
	CU_ASSERT_TRUE(seen);
}

static void check_mode(const char *mode)
{
	char driver[PATH_MAX], var[PATH_MAX + 64], label[128];
	const char *driver_dir = ts_driver_dir(driver, sizeof driver);

	if (!build_consumer(mode))
		return;
	for (size_t i = 0; i < sizeof libraries / sizeof *libraries; i++) {
		char dir[PATH_MAX] = "";
		const char *out;

		if (libraries[i].fixture &&
		    !ts_fixture_libdir(libraries[i].fixture, dir, sizeof dir))
			continue;
		snprintf(label, sizeof label, "%s: %s", mode,
			 libraries[i].fixture ? libraries[i].fixture : "13.0");
		snprintf(var, sizeof var, "CUDASTUB_CUDART_PATH=%s%s%s", dir, dir[0] ? "/" : "",
			 libraries[i].cudart);
		out = run_installed(mode, "use_cudart", var);
		CU_assertImplementation(!strcmp(out, libraries[i].cudart_line), __LINE__,
					libraries[i].cudart_line, __FILE__, label, CU_FALSE);
		out = run_installed(mode, "swapped", var);
		CU_assertImplementation(strstr(out, libraries[i].cudart_line) != NULL, __LINE__,
					libraries[i].cudart_line, __FILE__, label, CU_FALSE);
		CU_ASSERT_PTR_NOT_NULL(strstr(out, "through cudastub: 1 1\n"));
		/* its libraries named after cudastub_link, and the runtime by path */
		out = run_installed(mode, "linked_late", var);
		CU_assertImplementation(strstr(out, libraries[i].cudart_line) != NULL, __LINE__,
					libraries[i].cudart_line, __FILE__, label, CU_FALSE);
		CU_ASSERT_PTR_NOT_NULL(strstr(out, "through cudastub: 1 1\n"));
		out = run_installed(mode, "by_path", var);
		CU_assertImplementation(!strcmp(out, libraries[i].cudart_line), __LINE__,
					libraries[i].cudart_line, __FILE__, label, CU_FALSE);
		snprintf(var, sizeof var, "CUDASTUB_NVRTC_PATH=%s%s%s", dir, dir[0] ? "/" : "",
			 libraries[i].nvrtc);
		out = run_installed(mode, "use_nvrtc", var);
		CU_assertImplementation(!strcmp(out, libraries[i].nvrtc_line), __LINE__,
					libraries[i].nvrtc_line, __FILE__, label, CU_FALSE);
	}
	if (driver_dir) {
		snprintf(var, sizeof var, "LD_LIBRARY_PATH=%s", driver_dir);
		CU_ASSERT_STRING_EQUAL(run_installed(mode, "use_driver", var), "cuda 0 12040\n");
	}
	if (!ts_machine_has_driver())
		CU_ASSERT_STRING_EQUAL(run_installed(mode, "use_driver", NULL), "cuda 100 0\n");
	check_implicit_runtime(mode);
	if (strcmp(mode, "package"))
		check_subproject_installs_nothing(mode);
}

/* A program that reaches NVIDIA's runtime through a library no one
 * swapped: configuring stops with a sentence naming both. */
static void test_unreachable(void)
{
	static struct ts_child c;
	char src[PATH_MAX], build[PATH_MAX + 32], def_where[PATH_MAX + 64];
	char *configure[] = {E2E_CMAKE, "-S",
			     src,	"-B",
			     build,	"-DCONSUMER_UNREACHABLE=ON",
			     def_where, "-DCONSUMER_CUDA=OFF",
			     NULL};

	snprintf(src, sizeof src, "%s/tests/e2e/consumer", CUDASTUB_TEST_SOURCE_DIR);
	snprintf(build, sizeof build, "%s/build-unreachable", work);
	snprintf(def_where, sizeof def_where, "-DCMAKE_PREFIX_PATH=%s/cudastub", work);
	CU_ASSERT_EQUAL_FATAL(ts_run_program(configure, NULL, NULL, &c), 0);
	CU_ASSERT_NOT_EQUAL(c.exit_code, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.err, "cudastub_link: through_hidden still links NVIDIA's"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.err, "CUDA::cudart (through hidden)"));
}

static void test_package(void)
{
	check_mode("package");
}

static void test_subdir(void)
{
	check_mode("subdir");
}

static void test_fetch(void)
{
	check_mode("fetch");
}

/* Without CMake: the installed cudastub-cudart.pc links use_cudart.c,
 * compiled against the consumer's own CUDA 13 headers (cudastub ships
 * none of NVIDIA's). */
static void test_pkg_config(void)
{
	char cmd[6 * PATH_MAX], flags[256], var[PATH_MAX + 64];
	char *argv[] = {cmd, NULL};
	const char *env[] = {var, NULL};
	struct ts_child c;

	if (system("pkg-config --version >/dev/null 2>&1") != 0) {
		ts_unavailable("pkg-config not found: apt-get install pkg-config");
		return;
	}
	/* relocatable: no RUNPATH of the install's place; the program says
	 * where its stubs are, relative to itself */
	snprintf(cmd, sizeof cmd,
		 "PKG_CONFIG_PATH='%s/cudastub/lib/pkgconfig' pkg-config --libs cudastub-cudart | "
		 "grep -q -e rpath -e //",
		 work);
	CU_ASSERT_NOT_EQUAL(system(cmd), 0);
	snprintf(cmd, sizeof cmd,
		 "PKG_CONFIG_PATH='%s/cudastub/lib/pkgconfig' && export PKG_CONFIG_PATH && "
		 "cc%s -I'%s' '%s/tests/e2e/consumer/use_cudart.c' -o '%s/pc_use_cudart' "
		 "$(pkg-config --cflags --libs cudastub-cudart) -Wl,-rpath,'$ORIGIN/cudastub/lib'",
		 work, ts_sanitizer_flags(E2E_SANITIZE, "", flags, sizeof flags),
		 E2E_CUDA13_INCLUDE, CUDASTUB_TEST_SOURCE_DIR, work);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	snprintf(cmd, sizeof cmd, "%s/pc_use_cudart", work);
	snprintf(var, sizeof var, "CUDASTUB_CUDART_PATH=%s", libraries[2].cudart);
	CU_ASSERT_FATAL(ts_run_program(argv, env, NULL, &c) == 0);
	CU_ASSERT_STRING_EQUAL(c.out, "cudart 0 13000\n");
}

TS_TEST(test_package, "find_package(cudastub): each target, cudastub_link, installed");
TS_TEST(test_subdir, "add_subdirectory(cudastub): the same");
TS_TEST(test_fetch, "FetchContent of cudastub: the same");
TS_TEST(test_unreachable, "cudastub_link stops where it cannot swap");
TS_TEST(test_pkg_config, "pkg-config: cudastub-cudart.pc builds and links");

TS_MAIN_SUITE("e2e: the CMake package, add_subdirectory and FetchContent", suite_init, suite_clean,
	      NULL)

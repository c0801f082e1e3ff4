/*
 * cudastub built where only the runtime's and NVRTC's headers are, as a
 * wheel builder has them (pip's nvidia-cuda-runtime and nvidia-cuda-nvrtc
 * wheels, a minimal toolkit): a prefix holding the headers the three core
 * stubs include and what those include, found by the compiler (cc -M) in
 * the build's CUDA headers. The three core stubs build and install, every
 * other library is reported skipped, and a consumer that asks for
 * COMPONENTS cudart nvrtc finds, links and runs them; asking for cublas,
 * or naming it in CUDASTUB_LIBRARIES, fails with a sentence that says why.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_support.h"

#ifndef E2E_LAUNCHER
#define E2E_LAUNCHER ""
#endif

/* Under the build folder, at a fixed place: the nested builds compile the
 * same paths each run, which ccache then serves. */
static char work[PATH_MAX];
static struct ts_child child;

/* Runs argv; its exit code (-2 when it could not run), output in child. */
static int run(char **argv)
{
	if (ts_run_program(argv, NULL, NULL, &child) != 0)
		return -2;
	return child.exit_code;
}

/* Runs argv, which must exit 0; 1 when it did, else a failure naming what. */
static int run_ok(char **argv, const char *what)
{
	if (run(argv) == 0)
		return 1;
	fprintf(stderr, "%s failed (exit %d):\n%s\n%s\n", what, child.exit_code, child.out,
		child.err);
	CU_assertImplementation(CU_FALSE, __LINE__, what, __FILE__, "", CU_FALSE);
	return 0;
}

/* child.err with each run of white space made one space: CMake wraps the
 * lines of an error message where they exceed its width. */
static const char *err_squeezed(void)
{
	static char text[sizeof child.err];
	size_t n = 0;

	for (const char *p = child.err; *p; p++) {
		int space = *p == ' ' || *p == '\n';

		if (space && (n == 0 || text[n - 1] == ' '))
			continue;
		text[n++] = space ? ' ' : *p;
	}
	text[n] = '\0';
	return text;
}

/* Configures cudastub against the headers-only prefix into build-<tag>,
 * with one more definition (or none); its exit code, output in child. */
static int configure_cudastub(const char *tag, const char *extra)
{
	char build[PATH_MAX + 32], root[PATH_MAX + 64], prefix[PATH_MAX + 64];
	char launcher[PATH_MAX + 64];
	char *argv[] = {E2E_CMAKE, "-S",   CUDASTUB_TEST_SOURCE_DIR,	 "-B",	   build,
			root,	   prefix, "-DCUDASTUB_BUILD_TESTS=OFF", launcher, (char *)extra,
			NULL};

	snprintf(build, sizeof build, "%s/build-%s", work, tag);
	snprintf(root, sizeof root, "-DCUDAToolkit_ROOT=%s/cuda", work);
	snprintf(prefix, sizeof prefix, "-DCMAKE_INSTALL_PREFIX=%s/installed", work);
	snprintf(launcher, sizeof launcher, "-DCMAKE_C_COMPILER_LAUNCHER=%s", E2E_LAUNCHER);
	return run(argv);
}

/* The prefix: each header the three core stubs include (the interop ones
 * with the GL, EGL and VDPAU stand-ins the stubs use), and every header of
 * the build's CUDA folder those include, copied at its relative place. */
static int make_prefix(void)
{
	char cmd[8 * PATH_MAX];

	snprintf(cmd, sizeof cmd,
		 "set -e; mkdir -p '%1$s/cuda/include'; cd '%2$s'; "
		 "printf '#include <%%s>\\n' cuda.h cuda_runtime_api.h nvrtc.h GL/gl.h cudaGL.h "
		 "cudaEGL.h vdpau/vdpau.h cudaVDPAU.h cuda_gl_interop.h cuda_egl_interop.h "
		 "cuda_vdpau_interop.h > '%1$s/core.c'; "
		 "'%3$s' -std=c11 -M -I'%4$s/stubs/interop' -I. '%1$s/core.c' | "
		 "tr ' \\\\' '\\n\\n' | grep -v -e '^/' -e '^$' -e ':$' | sort -u > '%1$s/files'; "
		 "cp --parents $(cat '%1$s/files') '%1$s/cuda/include/'",
		 work, E2E_TOOLKIT_INCLUDE, E2E_CC, CUDASTUB_TEST_SOURCE_DIR);
	return system(cmd) == 0;
}

static int suite_init(void)
{
	snprintf(work, sizeof work, "%s/cudastub-headers-only", ts_build_dir());
	ts_remove_tree(work);
	return make_prefix() ? 0 : 1;
}

static int suite_clean(void)
{
	ts_remove_tree(work);
	return 0;
}

/* The file under the prefix cudastub was installed into exists. */
static int installed(const char *rel)
{
	char path[PATH_MAX + 128];

	snprintf(path, sizeof path, "%s/installed/%s", work, rel);
	return access(path, F_OK) == 0;
}

static void test_prefix_has_no_math_library(void)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof path, "%s/cuda/include/cuda_runtime_api.h", work);
	CU_ASSERT_EQUAL(access(path, F_OK), 0);
	snprintf(path, sizeof path, "%s/cuda/include/cublas.h", work);
	CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
}

/* Every library of cudastub but the core three, with its first header. */
static const char *const skipped[][2] = {
	{"nvJitLink", "nvJitLink.h"},
	{"cublas", "cublas.h"},
	{"cublasLt", "cublasLt.h"},
	{"cufft", "cufft.h"},
	{"curand", "curand.h"},
	{"cusparse", "cusparse.h"},
	{"cusolver", "cusolver_common.h"},
	{"cupti", "cupti.h"},
	{"cusolverMg", "cusolverMg.h"},
};

static void test_core_built_rest_skipped(void)
{
	char build[PATH_MAX + 32], line[256];
	char *compile[] = {E2E_CMAKE, "--build", build, "-j", "2", NULL};
	char *install[] = {E2E_CMAKE, "--install", build, NULL};

	CU_ASSERT_EQUAL_FATAL(configure_cudastub("core", NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(child.out, "cudastub: cudart: built\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(child.out, "cudastub: nvrtc: built\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(child.out, "cudastub: cuda_driver: built\n"));
	for (size_t i = 0; i < sizeof skipped / sizeof *skipped; i++) {
		snprintf(line, sizeof line, "cudastub: %s: skipped, its header %s is not in ",
			 skipped[i][0], skipped[i][1]);
		if (!strstr(child.out, line))
			fprintf(stderr, "no line \"%s\" in:\n%s\n", line, child.out);
		CU_ASSERT_PTR_NOT_NULL(strstr(child.out, line));
	}
	/* CUPTI's headers are a package of their own in Debian */
	CU_ASSERT_PTR_NOT_NULL(strstr(child.out, "(it comes with Debian's libcupti-dev, or pip's "
						 "nvidia-cuda-cupti"));
	snprintf(build, sizeof build, "%s/build-core", work);
	if (!run_ok(compile, "build the three stubs") || !run_ok(install, "install them"))
		return;
	CU_ASSERT_TRUE(installed("lib/libcudart_stub.so"));
	CU_ASSERT_TRUE(installed("lib/libnvrtc_stub.so"));
	CU_ASSERT_TRUE(installed("lib/libcuda_stub.so"));
	CU_ASSERT_TRUE(installed("lib/cmake/cudastub/cudastubConfig.cmake"));
	CU_ASSERT_TRUE(installed("lib/pkgconfig/cudastub-cudart.pc"));
	CU_ASSERT_FALSE(installed("lib/libcublas_stub.so"));
	CU_ASSERT_FALSE(installed("lib/pkgconfig/cudastub-cublas.pc"));
}

/* Configures tests/e2e/consumer_components asking for components; its
 * exit code, output in child. */
static int configure_consumer(const char *tag, const char *components)
{
	char src[PATH_MAX], build[PATH_MAX + 32], where[PATH_MAX + 64], asked[128];
	char *argv[] = {E2E_CMAKE, "-S", src, "-B", build, where, asked, NULL};

	snprintf(src, sizeof src, "%s/tests/e2e/consumer_components", CUDASTUB_TEST_SOURCE_DIR);
	snprintf(build, sizeof build, "%s/consumer-%s", work, tag);
	snprintf(where, sizeof where, "-DCMAKE_PREFIX_PATH=%s/installed", work);
	snprintf(asked, sizeof asked, "-DCOMPONENTS=%s", components);
	return run(argv);
}

static void test_consumer_components(void)
{
	char build[PATH_MAX + 32], exe[PATH_MAX + 64], var[PATH_MAX + 32];
	char *compile[] = {E2E_CMAKE, "--build", build, NULL};
	char *program[] = {exe, NULL};
	const char *env[] = {var, NULL};

	if (!installed("lib/cmake/cudastub/cudastubConfig.cmake")) {
		CU_FAIL("cudastub was not installed from the headers-only prefix");
		return;
	}
	if (configure_consumer("core", "cudart;nvrtc") != 0)
		fprintf(stderr, "consumer:\n%s\n%s\n", child.out, child.err);
	CU_ASSERT_EQUAL_FATAL(child.exit_code, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(child.out, "consumer: cudastub_cudart_FOUND=TRUE\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(child.out, "consumer: cudastub_nvrtc_FOUND=TRUE\n"));
	snprintf(build, sizeof build, "%s/consumer-core", work);
	if (!run_ok(compile, "build the consumer"))
		return;
	if (!*E2E_CUDART13) {
		ts_not_applicable("no CUDA 13.0 runtime on this architecture to run it with");
		return;
	}
	snprintf(exe, sizeof exe, "%s/use_cudart", build);
	snprintf(var, sizeof var, "CUDASTUB_CUDART_PATH=%s", E2E_CUDART13);
	CU_ASSERT_FATAL(ts_run_program(program, env, NULL, &child) == 0);
	CU_ASSERT_STRING_EQUAL(child.out, "cudart 0 13000\n");
}

static void test_component_not_built(void)
{
	if (!installed("lib/cmake/cudastub/cudastubConfig.cmake")) {
		CU_FAIL("cudastub was not installed from the headers-only prefix");
		return;
	}
	const char *err, *reason;

	CU_ASSERT_NOT_EQUAL(configure_consumer("cublas", "cudart;cublas"), 0);
	/* one plain sentence: the component, that it was not built, and why
	 * (no list joined with ';') */
	err = err_squeezed();
	reason = strstr(err, "The cudastub component cublas was not built: "
			     "its header cublas.h is not in ");
	CU_ASSERT_PTR_NOT_NULL(reason);
	if (reason) {
		CU_ASSERT_PTR_NULL(strchr(reason, ';'));
	} else {
		fprintf(stderr, "consumer asking for cublas:\n%s\n", child.err);
	}
}

static void test_asked_library_missing_headers(void)
{
	const char *err;

	CU_ASSERT_NOT_EQUAL(configure_cudastub("asked", "-DCUDASTUB_LIBRARIES=cudart;cublas"), 0);
	err = err_squeezed();
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "cublas is in CUDASTUB_LIBRARIES, but cannot be "
					   "built: its header cublas.h is not in"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "Debian's nvidia-cuda-dev, or pip's nvidia-cublas"));
	if (!strstr(err, "cublas is in CUDASTUB_LIBRARIES"))
		fprintf(stderr, "configure with CUDASTUB_LIBRARIES=cudart;cublas:\n%s\n",
			child.err);
}

static void register_suites(void)
{
	CU_pSuite s = CU_add_suite("e2e: built from the runtime's and NVRTC's headers only",
				   suite_init, suite_clean);

	CU_add_test(s, "the prefix holds the runtime's headers and no cuBLAS",
		    test_prefix_has_no_math_library);
	CU_add_test(s, "the three core stubs build and install, the rest are skipped",
		    test_core_built_rest_skipped);
	CU_add_test(s, "find_package(cudastub COMPONENTS cudart nvrtc) links and runs",
		    test_consumer_components);
	CU_add_test(s, "COMPONENTS cublas fails, saying it was not built and why",
		    test_component_not_built);
	CU_add_test(s, "CUDASTUB_LIBRARIES=cudart;cublas fails, naming cublas.h",
		    test_asked_library_missing_headers);
}

int main(int argc, char **argv)
{
	return ts_main(argc, argv, NULL, register_suites);
}

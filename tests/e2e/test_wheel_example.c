/*
 * The wheel pipeline end to end, as a packager runs it with Debian's pip
 * and setuptools:
 *   - cudastub's own wheel (python/) is built from this build tree
 *     (CUDASTUB_BUILD_DIR) and installed into a fresh virtual environment;
 *     it holds the stripped stubs, the command, the CMake package and the
 *     pkg-config files, answers `python -m cudastub --cmakedir`, `--stubdir`
 *     and `info`, and registers the cmake.prefix entry point;
 *   - examples/wheel is also built by Debian's own python3 (no cudastub
 *     package) from an install prefix named by CUDASTUB_PREFIX;
 *   - examples/wheel, the cudademo wheel (a C extension with a CUDA kernel
 *     and NVRTC, linked to the stubs), is built in that environment with
 *     cudastub as its only source of stubs (its pyproject.toml's build
 *     dependency), installed there, and imported:
 *       - beside pip's CUDA 13 layout (nvidia/cu13/lib, the toolkit's)
 *       - beside pip's CUDA 12 layout (nvidia/cuda_runtime/lib and
 *         nvidia/cuda_nvrtc/lib, Debian's 12.4)
 *       - with only the system's toolkit
 *       - with no CUDA at all
 * It imports every time; its report() shows the runtime's and NVRTC's own
 * answers where they are, and the stubs' documented codes where not.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_support.h"
#include "ts_child.h"
#include "ts_files.h"
#include "e2e_tools.h"

static char work[PATH_MAX], site[PATH_MAX + 128];
static int ready;

static int sh(const char *cmd)
{
	int rc = system(cmd);

	if (rc != 0)
		fprintf(stderr, "failed (%d): %s\n", rc, cmd);
	return rc == 0;
}

/* Builds and installs the cudastub wheel, then the cudademo wheel with it. */
static int suite_init(void)
{
	char cmd[8 * PATH_MAX];
	FILE *p;

	if (E2E_SANITIZE[0])
		return 0; /* the interpreter would need the sanitizer's runtime first */
	if (!sh("/usr/bin/python3 -c 'import venv, setuptools, wheel, pip' 2>/dev/null")) {
		ts_unavailable("Debian's Python packaging tools: apt-get install python3-venv "
			       "python3-setuptools python3-wheel python3-pip python3-dev");
		return 0;
	}
	if (!ts_tmpdir("wheel-example", work, sizeof work))
		return 1;
	/* the venv sees Debian's setuptools and wheel (a fresh venv of Debian's
	 * Python has no wheel package, and there is no index to fetch it
	 * from); cudastub comes only from its own wheel. Both builds run in a
	 * copy of their folder, so the source tree stays clean. */
	snprintf(
		cmd, sizeof cmd,
		"cd '%s' && cp -r '%s/python' cudastub-src && cp -r '%s/examples/wheel' src && "
		"CUDASTUB_SOURCE_DIR='%s' CUDASTUB_BUILD_DIR='%s' /usr/bin/python3 -m pip wheel -q "
		"--no-build-isolation --no-deps -w dist ./cudastub-src >build.log 2>&1 && "
		"/usr/bin/python3 -m venv --system-site-packages venv && "
		"venv/bin/pip install -q --no-index --no-deps dist/cudastub-*.whl >>build.log 2>&1 "
		"&& venv/bin/python -m pip wheel -q --no-build-isolation --no-deps -w dist ./src "
		">>build.log 2>&1 && "
		"venv/bin/pip install -q --no-index --no-deps dist/cudademo-*.whl >>build.log 2>&1",
		work, CUDASTUB_TEST_SOURCE_DIR, CUDASTUB_TEST_SOURCE_DIR, CUDASTUB_TEST_SOURCE_DIR,
		ts_build_dir());
	if (!sh(cmd)) {
		snprintf(cmd, sizeof cmd, "cat '%s/build.log' >&2", work);
		sh(cmd);
		return 0;
	}
	snprintf(cmd, sizeof cmd,
		 "%s/venv/bin/python -c \"import sysconfig; "
		 "print(sysconfig.get_paths()['purelib'])\"",
		 work);
	p = popen(cmd, "r");
	if (p && fgets(site, sizeof site, p))
		site[strcspn(site, "\n")] = '\0';
	if (p)
		pclose(p);
	ready = site[0] != '\0';
	return 0;
}

static int suite_clean(void)
{
	if (work[0])
		ts_remove_tree(work);
	return 0;
}

/* What `import cudademo; cudademo.report()` prints, as JSON, or "". */
static const char *report(const char *const *env)
{
	static struct ts_child c;
	char python[PATH_MAX + 32];
	char *argv[] = {python, (char *)"-c",
			(char *)"import cudademo, json; "
				"print(json.dumps(cudademo.report(), sort_keys=True))",
			NULL};

	snprintf(python, sizeof python, "%s/venv/bin/python", work);
	if (ts_run_program(argv, env, NULL, &c) != 0 || c.exit_code != 0) {
		fprintf(stderr, "import failed:\n%s\n%s\n", c.out, c.err);
		return "";
	}
	return c.out;
}

/* Puts files (in from) into site-packages/nvidia/<dir> as links. */
static int lay(const char *dir, const char *from, const char *const *files)
{
	char cmd[4 * PATH_MAX];

	snprintf(cmd, sizeof cmd, "mkdir -p '%s/nvidia/%s'", site, dir);
	if (!sh(cmd))
		return 0;
	for (int i = 0; files[i]; i++) {
		snprintf(cmd, sizeof cmd, "ln -s '%s/%s' '%s/nvidia/%s/'", from, files[i], site,
			 dir);
		if (!sh(cmd))
			return 0;
	}
	return 1;
}

static void no_nvidia_folder(void)
{
	char cmd[2 * PATH_MAX];

	snprintf(cmd, sizeof cmd, "rm -rf '%s/nvidia'", site);
	CU_ASSERT(sh(cmd));
}

#define EXPECT_HAS(out, part)                                                                      \
	CU_assertImplementation(strstr(out, part) != NULL, __LINE__, part, __FILE__, "", CU_FALSE)

static int usable(void)
{
	if (E2E_SANITIZE[0]) {
		printf("  skipped in a sanitizer build (Python would need its runtime first)\n");
		return 0;
	}
	if (!ready)
		CU_FAIL("the wheel was not built and installed (see above)");
	return ready;
}

static void test_cu13_layout(void)
{
	static const char *const files[] = {"libcudart.so.13", "libnvrtc.so.13",
					    "libnvrtc-builtins.so.13.0", NULL};
	const char *out;

	if (!usable())
		return;
	no_nvidia_folder();
	CU_ASSERT_FATAL(lay("cu13/lib", E2E_TOOLKIT_LIB, files));
	out = report(NULL);
	EXPECT_HAS(out, "\"runtime_version\": 13000");
	EXPECT_HAS(out, "\"nvrtc_version\": \"13.0\"");
	EXPECT_HAS(out, "\"runtime_source\": \"pip wheel\"");
	EXPECT_HAS(out, "nvidia/cu13/lib/libcudart.so.13");
	EXPECT_HAS(out, "\"ptx_has_kernel\": 1");
	no_nvidia_folder();
}

static void test_cu12_layout(void)
{
	static const char *const runtime[] = {"libcudart.so.12", NULL};
	static const char *const nvrtc[] = {"libnvrtc.so.12", "libnvrtc-builtins.so.12.4", NULL};
	char dir[PATH_MAX];
	const char *out;

	if (!usable() || !ts_fixture_libdir("cuda-12.4", dir, sizeof dir))
		return;
	no_nvidia_folder();
	CU_ASSERT_FATAL(lay("cuda_runtime/lib", dir, runtime) && lay("cuda_nvrtc/lib", dir, nvrtc));
	out = report(NULL);
	EXPECT_HAS(out, "\"runtime_version\": 12040");
	EXPECT_HAS(out, "\"nvrtc_version\": \"12.4\"");
	EXPECT_HAS(out, "\"runtime_source\": \"pip wheel\"");
	EXPECT_HAS(out, "nvidia/cuda_runtime/lib/libcudart.so.12");
	EXPECT_HAS(out, "\"ptx_has_kernel\": 1");
	no_nvidia_folder();
}

static void test_system_toolkit(void)
{
	const char *out;

	if (!usable())
		return;
	no_nvidia_folder();
	out = report(NULL);
	EXPECT_HAS(out, "\"runtime_version\": 13000");
	EXPECT_HAS(out, "\"nvrtc_version\": \"13.0\"");
	CU_ASSERT_PTR_NULL(strstr(out, "pip wheel"));
	EXPECT_HAS(out, "\"ptx_has_kernel\": 1");
}

static void test_no_cuda(void)
{
	const char *env[] = {"CUDASTUB_CUDART_PATH=/nonexistent",
			     "CUDASTUB_NVRTC_PATH=/nonexistent", NULL};
	const char *out;

	if (!usable())
		return;
	out = report(env);
	EXPECT_HAS(out, "\"runtime_rc\": 35");
	EXPECT_HAS(out, "\"device_count_error\": \"cudaErrorInsufficientDriver\"");
	EXPECT_HAS(out, "\"launch_rc\": 35");
	EXPECT_HAS(out, "\"nvrtc_rc\": 1034");
	EXPECT_HAS(out, "\"ptx_has_kernel\": 0");
}

/* What the venv's python prints for argv (after "python"), or "". */
static const char *python(char *const *args, int *exit_code)
{
	static struct ts_child c;
	char exe[PATH_MAX + 32];
	char *argv[8] = {exe};

	snprintf(exe, sizeof exe, "%s/venv/bin/python", work);
	for (int i = 0; args[i] && i < 6; i++)
		argv[i + 1] = args[i];
	if (ts_run_program(argv, NULL, NULL, &c) != 0)
		return "";
	*exit_code = c.exit_code;
	return c.out;
}

static int exists_in(const char *dir, const char *file)
{
	char path[2 * PATH_MAX];

	snprintf(path, sizeof path, "%s/%s", dir, file);
	return access(path, F_OK) == 0;
}

static void test_cudastub_wheel(void)
{
	static const char *const stubs[] = {"libcudart_stub_cu13.so", "libnvrtc_stub_cu12.so",
					    "libcuda_stub_cu11.so", NULL};
	char dir[PATH_MAX], cmd[3 * PATH_MAX], shims[PATH_MAX + 16];
	const char *out;
	int rc = -1;

	if (!usable())
		return;
	out = python((char *[]){"-m", "cudastub", "--cmakedir", NULL}, &rc);
	CU_ASSERT_EQUAL(rc, 0);
	snprintf(dir, sizeof dir, "%.*s", (int)strcspn(out, "\n"), out);
	EXPECT_HAS(dir, "site-packages/cudastub/lib/cmake/cudastub");
	CU_ASSERT(exists_in(dir, "cudastubConfig.cmake"));
	out = python((char *[]){"-m", "cudastub", "--stubdir", NULL}, &rc);
	CU_ASSERT_EQUAL(rc, 0);
	snprintf(dir, sizeof dir, "%.*s", (int)strcspn(out, "\n"), out);
	for (int i = 0; stubs[i]; i++)
		CU_ASSERT(exists_in(dir, stubs[i]));
	/* stripped: no debug information and no symbol table ship */
	snprintf(
		cmd, sizeof cmd,
		"n=0; for f in '%s'/lib*_stub_cu*-*.so; do n=$((n + 1)); "
		"readelf -S \"$f\" | grep -q '\\.debug_\\|\\.symtab' && exit 1; done; [ $n -ge 3 ]",
		dir);
	CU_ASSERT_EQUAL(system(cmd), 0);
	CU_ASSERT(exists_in(dir, "pkgconfig/cudastub-cudart.pc"));
	CU_ASSERT(exists_in(dir, "../bin/cudastub"));
	/* each stub once: no shims, and the link name a linker script that
	 * links the tagged file */
	CU_ASSERT(!exists_in(dir, "cudastub/shim"));
	snprintf(cmd, sizeof cmd, "grep -q '^INPUT(libcudart_stub_cu13-[0-9a-f]*\\.so)$' '%s/%s'",
		 dir, stubs[0]);
	CU_ASSERT_EQUAL(system(cmd), 0);
	snprintf(cmd, sizeof cmd,
		 "cd '%s' && printf 'int cudaRuntimeGetVersion(int *);\\n"
		 "int main(void) { int v; return cudaRuntimeGetVersion(&v) == 12345; }\\n' > rt.c "
		 "&& cc rt.c -o rt -L'%s' -lcudart_stub_cu13 && "
		 "readelf -d rt | grep -q 'NEEDED.*libcudart_stub_cu13-[0-9a-f]*\\.so'",
		 work, dir);
	CU_ASSERT_EQUAL(system(cmd), 0);
	/* the shims, made from the wheel's stubs */
	snprintf(shims, sizeof shims, "%s/shims", work);
	out = python((char *[]){"-m", "cudastub", "shim", shims, NULL}, &rc);
	CU_ASSERT_EQUAL(rc, 0);
	EXPECT_HAS(out, "shims made in");
	snprintf(cmd, sizeof cmd,
		 "readelf -d '%s/cu13/libcudart.so.13' | grep -q 'SONAME.*\\[libcudart.so.13\\]'",
		 shims);
	CU_ASSERT_EQUAL(system(cmd), 0);
	/* every file within glibc 2.17 (e2e_glibc_floor): a manylinux2014 wheel */
	snprintf(cmd, sizeof cmd,
		 "ls '%s'/dist/cudastub-*-py3-none-manylinux_2_17_*.manylinux2014_*.whl "
		 ">/dev/null 2>&1",
		 work);
	if (!*E2E_SANITIZE) /* a sanitizer build's files need a newer glibc */
		CU_ASSERT_EQUAL(system(cmd), 0);
	/* the file a CMake project is adopted with */
	out = python((char *[]){"-m", "cudastub", "--adopt", NULL}, &rc);
	CU_ASSERT_EQUAL(rc, 0);
	EXPECT_HAS(out, "lib/cmake/cudastub/CudastubAdopt.cmake");
	/* the command, through python -m: its own report of the stubs */
	out = python((char *[]){"-m", "cudastub", "info", "--json", NULL}, &rc);
	CU_ASSERT_EQUAL(rc, 0);
	EXPECT_HAS(out, "\"cudart\"");
	/* scikit-build-core's hook: the package folder on CMAKE_PREFIX_PATH */
	out = python((char *[]){"-c",
				"from importlib.metadata import entry_points; "
				"print([e.value for e in entry_points(group='cmake.prefix') "
				"if e.name == 'cudastub'])",
				NULL},
		     &rc);
	CU_ASSERT_EQUAL(rc, 0);
	EXPECT_HAS(out, "['cudastub']");
}

/* examples/wheel's other route: CUDASTUB_PREFIX names an install prefix
 * (cmake --install) by a path relative to the folder pip runs in, and
 * Debian's own python3, which has no cudastub package, builds the wheel;
 * it ships the stubs of that prefix. */
static void test_install_prefix_route(void)
{
	char cmd[8 * PATH_MAX];

	if (!usable())
		return;
	snprintf(cmd, sizeof cmd,
		 "cd '%s' && cmake --install '%s' --prefix prefix >prefix.log 2>&1 && "
		 "! /usr/bin/python3 -c 'import cudastub' 2>/dev/null && "
		 "CUDASTUB_PREFIX=prefix /usr/bin/python3 -m pip wheel -q "
		 "--no-build-isolation --no-deps -w dist-prefix ./src >>prefix.log 2>&1",
		 work, ts_build_dir());
	if (!sh(cmd)) {
		snprintf(cmd, sizeof cmd, "cat '%s/prefix.log' >&2", work);
		sh(cmd);
		CU_FAIL("the CUDASTUB_PREFIX build failed (see above)");
		return;
	}
	/* the prefix's stubs, and the module that needs them, are in the wheel */
	snprintf(cmd, sizeof cmd,
		 "cd '%s' && /usr/bin/python3 -m zipfile -l dist-prefix/cudademo-*.whl "
		 ">prefix.list && grep -q 'cudademo/libcudart_stub_cu13-' prefix.list && "
		 "grep -q 'cudademo/libnvrtc_stub_cu13-' prefix.list && "
		 "grep -q 'cudademo/_native' prefix.list",
		 work);
	CU_ASSERT(sh(cmd));
}

TS_TEST(test_cudastub_wheel,
	"the cudastub wheel: --cmakedir, --stubdir, info, cmake.prefix, stripped");
TS_TEST(test_install_prefix_route, "examples/wheel with CUDASTUB_PREFIX, no cudastub package");
TS_TEST(test_cu13_layout, "beside pip's CUDA 13 layout");
TS_TEST(test_cu12_layout, "beside pip's CUDA 12 layout");
TS_TEST(test_system_toolkit, "with only the system toolkit");
TS_TEST(test_no_cuda, "with no CUDA at all: imports, documented codes");

TS_MAIN_SUITE("e2e: the cudastub wheel, and examples/wheel built with it, in a venv", suite_init,
	      suite_clean, NULL)

/*
 * A packager's wheel pipeline with the real tools, scikit-build-core and
 * auditwheel (the pytools fixture), each step a test that the next ones
 * need:
 *   - cudastub's own wheel is built from this build tree into a local
 *     wheelhouse, and `auditwheel show` agrees with its manylinux tag;
 *   - tests/e2e/skbuild, a package whose extension modules call the runtime
 *     through the stubs of the 13, 12 and 11 ABIs, is built by
 *     scikit-build-core with pip from that wheelhouse alone: its CMake
 *     project finds cudastub through the cmake.prefix entry point only;
 *   - `auditwheel repair` makes it a manylinux wheel: the 13 stub, shipped
 *     beside its module, is kept; the 12 and 11 stubs, which the modules
 *     reach through their RUNPATH, are grafted under auditwheel's names;
 *   - the repaired wheel is installed into a fresh virtual environment,
 *     with no cudastub package, and each module imported with no CUDA and
 *     with a runtime of its own major (13.0: the toolkit; 12.4 and 11.8:
 *     the fixtures): the runtime's own answers, or the stub's documented
 *     codes with nothing of NVIDIA's loaded.
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
#include "ts_files.h"
#include "e2e_tools.h"

enum { CMD_MAX = 8 * PATH_MAX };

static char work[PATH_MAX], pytools[PATH_MAX];
/* how far the pipeline got: each test needs the steps before it */
static int wheelhouse_ready, built, repaired, installed;
/* the first test found something missing (a skip, or a failure in CI) */
static int unavailable;

/* Whether a test's step before it is done: a failure where it is not,
 * unless the suite is skipped. */
static int needs(int done, const char *step_before)
{
	if (!done && !unavailable)
		CU_assertImplementation(CU_FALSE, __LINE__, step_before, __FILE__, "", CU_FALSE);
	return done;
}

/* Runs cmd under sh in the work folder, as ts_run_ok does (no CUDASTUB_*,
 * no LD_LIBRARY_PATH), less anything that could name cudastub's package to
 * CMake (the build must find it through scikit-build-core alone) or add
 * wheels to pip's (the machine's pip settings: only the wheelhouse). */
static int step(const char *what, const char *cmd)
{
	static struct ts_child c;
	static const char *const env[] = {"CMAKE_PREFIX_PATH",
					  "cudastub_DIR",
					  "CMAKE_ARGS",
					  "PIP_FIND_LINKS",
					  "PIP_INDEX_URL",
					  "PIP_CONFIG_FILE=/dev/null",
					  NULL};
	char *argv[] = {(char *)"/bin/sh", (char *)"-c", NULL, NULL};
	char line[CMD_MAX + PATH_MAX];

	snprintf(line, sizeof line, "cd '%s' && %s", work, cmd);
	argv[2] = line;
	if (ts_run_program(argv, env, NULL, &c) == 0 && c.exit_code == 0)
		return 1;
	fprintf(stderr, "%s failed (exit %d): %s\n%s\n%s\n", what, c.exit_code, cmd, c.out, c.err);
	CU_assertImplementation(CU_FALSE, __LINE__, what, __FILE__, "", CU_FALSE);
	return 0;
}

/* What cmd prints (sh, in the work folder, as step), or "" after a failure. */
static const char *output(const char *cmd, const char *const *env)
{
	static struct ts_child c;
	char *argv[] = {(char *)"/bin/sh", (char *)"-c", NULL, NULL};
	char line[CMD_MAX + PATH_MAX];

	snprintf(line, sizeof line, "cd '%s' && %s", work, cmd);
	argv[2] = line;
	if (ts_run_program(argv, env, NULL, &c) != 0 || c.exit_code != 0) {
		fprintf(stderr, "failed (exit %d): %s\n%s\n%s\n", c.exit_code, cmd, c.out, c.err);
		return "";
	}
	return c.out;
}

#define EXPECT_HAS(out, part)                                                                      \
	CU_assertImplementation(strstr(out, part) != NULL, __LINE__, part, __FILE__, "", CU_FALSE)
#define EXPECT_LACKS(out, part)                                                                    \
	CU_assertImplementation(strstr(out, part) == NULL, __LINE__, part, __FILE__, "", CU_FALSE)

static int suite_init(void)
{
	return 0;
}

static int suite_clean(void)
{
	if (work[0])
		ts_remove_tree(work);
	return 0;
}

/* "<name less .so>" of a stub file name, in buf. */
static const char *stem_of(const char *name, char *buf, size_t size)
{
	size_t n = strlen(name);

	if (n > 3 && strcmp(name + n - 3, ".so") == 0)
		n -= 3;
	snprintf(buf, size, "%.*s", (int)n, name);
	return buf;
}

/*
 * cudastub's wheel, packed from this build tree (nothing built again) into
 * the wheelhouse the consumer's build takes its build dependency from.
 */
static void test_cudastub_wheel(void)
{
	char cmd[CMD_MAX], dir[PATH_MAX];
	const char *out, *fixture;

	unavailable = 1;
	if (E2E_SANITIZE[0]) {
		printf("  skipped in a sanitizer build (Python would need its runtime first)\n");
		return;
	}
	if (system("/usr/bin/python3 -c 'import venv, setuptools, wheel, pip' 2>/dev/null") != 0) {
		ts_unavailable("Debian's Python packaging tools: apt-get install python3-venv "
			       "python3-setuptools python3-wheel python3-pip python3-dev");
		return;
	}
	if (system("command -v patchelf >/dev/null") != 0) {
		ts_unavailable("patchelf, which auditwheel runs: apt-get install patchelf");
		return;
	}
	fixture = ts_fixture("pytools");
	if (!fixture)
		return;
	unavailable = 0;
	snprintf(pytools, sizeof pytools, "%s/usr/lib/python3/dist-packages", fixture);
	CU_ASSERT_FATAL(ts_tmpdir("skbuild", work, sizeof work) != NULL);
	/* copies, so that the source tree stays clean */
	snprintf(
		cmd, sizeof cmd,
		"cp -r '%s/python' cudastub-src && cp -r '%s/tests/e2e/skbuild' src && "
		"CUDASTUB_SOURCE_DIR='%s' CUDASTUB_BUILD_DIR='%s' /usr/bin/python3 -m pip wheel -q "
		"--no-build-isolation --no-deps -w wheelhouse ./cudastub-src",
		CUDASTUB_TEST_SOURCE_DIR, CUDASTUB_TEST_SOURCE_DIR, CUDASTUB_TEST_SOURCE_DIR,
		ts_build_dir());
	if (!step("the cudastub wheel", cmd))
		return;
	out = output("ls wheelhouse", NULL);
	EXPECT_HAS(out, "-py3-none-manylinux_2_17_");
	EXPECT_HAS(out, ".manylinux2014_");
	/* auditwheel reads every ELF file in it and comes to the same tag;
	 * -v: it goes on to the external libraries, which it otherwise leaves
	 * out once the glibc versions set the tag */
	snprintf(cmd, sizeof cmd,
		 "PYTHONPATH='%s' /usr/bin/python3 -m auditwheel -v show wheelhouse/cudastub-*.whl "
		 "2>/dev/null",
		 pytools);
	out = output(cmd, NULL);
	printf("\n  auditwheel show (cudastub): %s", out);
	EXPECT_HAS(out, "is consistent with the following platform tag");
	EXPECT_HAS(out, "\"manylinux_2_17_");
	EXPECT_HAS(out, "requires no external shared libraries");
	/* the build's own venv: cudastub from the wheelhouse, and nowhere else */
	if (!step("a venv with the cudastub wheel",
		  "/usr/bin/python3 -m venv build-venv && build-venv/bin/python -m pip install -q "
		  "--no-index --find-links wheelhouse cudastub"))
		return;
	out = output("build-venv/bin/python -m cudastub --stubdir", NULL);
	snprintf(dir, sizeof dir, "%.*s", (int)strcspn(out, "\n"), out);
	EXPECT_HAS(dir, "build-venv/lib/python3");
	wheelhouse_ready = 1;
}

TS_TEST(test_cudastub_wheel, "cudastub's wheel, and auditwheel show agrees with its tag");

/*
 * skbprobe built by the real scikit-build-core, through pip, offline. Not
 * in an isolated build environment: pip would have to install
 * scikit-build-core there from the wheelhouse, and it is Debian's package
 * (the fixture), not a wheel. So the build runs in the venv that holds
 * cudastub's wheel (pip-installed, as isolation would have done), with
 * scikit-build-core and what it imports on PYTHONPATH.
 */
static void test_scikit_build_core(void)
{
	char cmd[CMD_MAX];
	const char *out;

	if (!needs(wheelhouse_ready, "the cudastub wheel was not built (see above)"))
		return;
	snprintf(cmd, sizeof cmd,
		 "PYTHONPATH='%s' build-venv/bin/python -m pip wheel -v --no-index --find-links "
		 "wheelhouse --no-build-isolation --no-deps -w dist ./src >skbuild.log 2>&1 || "
		 "{ tail -n 60 skbuild.log; exit 1; }",
		 pytools);
	if (!step("skbprobe built by scikit-build-core", cmd))
		return;
	out = output("ls dist", NULL);
	EXPECT_HAS(out, "skbprobe-1.0-cp3");
	EXPECT_HAS(out, "-linux_");
	/* scikit-build-core built it (its own log lines) */
	out = output("grep -c 'scikit-build-core' skbuild.log", NULL);
	CU_ASSERT(atoi(out) > 0);
	/* the stub the 12 module links is the venv's wheel's, found through
	 * the entry point: its folder is the module's RUNPATH */
	out = output(
		"rm -rf unrepaired && mkdir unrepaired && cd unrepaired && /usr/bin/python3 -m "
		"zipfile -e ../dist/skbprobe-*.whl . && readelf -d skbprobe/_probe12.*.so",
		NULL);
	EXPECT_HAS(out, "build-venv/lib/python3");
	EXPECT_HAS(out, "site-packages/cudastub/lib]");
	EXPECT_HAS(out, "[" E2E_CUDART_STUB12_NAME "]");
	out = output("ls unrepaired/skbprobe", NULL);
	EXPECT_HAS(out, E2E_CUDART_STUB13_NAME);
	EXPECT_LACKS(out, E2E_CUDART_STUB12_NAME);
	built = out[0] != '\0';
}

TS_TEST(test_scikit_build_core, "a consumer built by scikit-build-core, no hint");

/* auditwheel repair, which finds the stubs through each module's RUNPATH. */
static void test_auditwheel_repair(void)
{
	char cmd[CMD_MAX], stem[128], want[256];
	const char *out;

	if (!needs(built, "skbprobe was not built (see above)"))
		return;
	snprintf(cmd, sizeof cmd,
		 "PYTHONPATH='%s' /usr/bin/python3 -m auditwheel repair -w repaired "
		 "dist/skbprobe-*.whl >repair.log 2>&1 || { cat repair.log; exit 1; }",
		 pytools);
	if (!step("auditwheel repair", cmd))
		return;
	out = output("ls repaired", NULL);
	printf("\n  repaired: %s", out);
	EXPECT_HAS(out, "-manylinux");
	EXPECT_HAS(out, "manylinux_2_");
	EXPECT_LACKS(out, "-linux_");
	out = output("cat repair.log", NULL);
	printf("  auditwheel repair said: %s", out);
	/* kept: the 13 stub, where the package put it, under its own name */
	out = output("/usr/bin/python3 -m zipfile -l repaired/skbprobe-*.whl", NULL);
	printf("  repaired wheel holds:\n%s", out);
	snprintf(want, sizeof want, "skbprobe/%s", E2E_CUDART_STUB13_NAME);
	EXPECT_HAS(out, want);
	/* grafted: the 12 and 11 stubs, "<name>-<8 hex digits>.so" */
	snprintf(want, sizeof want, "skbprobe.libs/%s-",
		 stem_of(E2E_CUDART_STUB12_NAME, stem, sizeof stem));
	EXPECT_HAS(out, want);
	snprintf(want, sizeof want, "skbprobe.libs/%s-",
		 stem_of(E2E_CUDART_STUB11_NAME, stem, sizeof stem));
	EXPECT_HAS(out, want);
	/* and nothing else grafted: the stubs need libc alone */
	out = output("/usr/bin/python3 -m zipfile -l repaired/skbprobe-*.whl | "
		     "grep -c 'skbprobe.libs/.*[.]so '",
		     NULL);
	CU_ASSERT_EQUAL(atoi(out), 2);
	snprintf(cmd, sizeof cmd,
		 "PYTHONPATH='%s' /usr/bin/python3 -m auditwheel -v show repaired/skbprobe-*.whl "
		 "2>/dev/null",
		 pytools);
	out = output(cmd, NULL);
	EXPECT_HAS(out, "is consistent with the following platform tag");
	EXPECT_HAS(out, "\"manylinux_");
	EXPECT_HAS(out, "requires no external shared libraries");
	repaired = out[0] != '\0';
}

TS_TEST(test_auditwheel_repair, "auditwheel repair: manylinux, the stubs kept or grafted");

/* The repaired wheel in a fresh venv, which has no cudastub package. */
static void test_fresh_venv(void)
{
	const char *out;

	if (!needs(repaired, "the wheel was not repaired (see above)"))
		return;
	if (!step("the repaired wheel in a fresh venv",
		  "/usr/bin/python3 -m venv fresh && fresh/bin/python -m pip install -q --no-index "
		  "--find-links repaired skbprobe"))
		return;
	out = output("fresh/bin/python -c 'import cudastub' 2>&1 || echo no-cudastub", NULL);
	EXPECT_HAS(out, "no-cudastub");
	/* the grafted stub's module names it by its new name, found through
	 * the RUNPATH auditwheel set */
	out = output("readelf -d fresh/lib/python3*/site-packages/skbprobe/_probe12.*.so", NULL);
	EXPECT_HAS(out, "[$ORIGIN/../skbprobe.libs]");
	EXPECT_LACKS(out, "[" E2E_CUDART_STUB12_NAME "]");
	installed = out[0] != '\0';
}

TS_TEST(test_fresh_venv, "the repaired wheel in a fresh venv");

/*
 * `import skbprobe._probe<abi>; report()` in the fresh venv, with env, and
 * the files of the process whose names start "libcud" or "libnv" (the
 * stub's, and any of NVIDIA's), as JSON; "" after a failure.
 */
static const char *import_report(int abi, const char *const *env)
{
	char cmd[CMD_MAX];

	snprintf(cmd, sizeof cmd,
		 "fresh/bin/python -c \"import json, skbprobe._probe%d as m; r = m.report(); "
		 "r['maps'] = sorted({l.split()[-1] for l in open('/proc/self/maps') "
		 "if '/libcud' in l or '/libnv' in l}); print(json.dumps(r, sort_keys=True))\"",
		 abi);
	return output(cmd, env);
}

static int usable(void)
{
	return needs(installed, "the repaired wheel is not installed (see above)");
}

static void test_no_cuda(void)
{
	static const char *const env[] = {"CUDASTUB_CUDART_PATH=/nonexistent", NULL};
	static const int abis[] = {13, 12, 11};

	if (!usable())
		return;
	for (int i = 0; i < 3; i++) {
		const char *out = import_report(abis[i], env);

		printf("\n  _probe%d, no CUDA: %s", abis[i], out);
		EXPECT_HAS(out, "\"version_rc\": 35");
		EXPECT_HAS(out, "\"version\": 0");
		EXPECT_HAS(out, "\"count_rc\": 35");
		EXPECT_HAS(out, "\"count\": 0");
		EXPECT_HAS(out, "\"count_error\": \"cudaErrorInsufficientDriver\"");
		/* the stub, and nothing of NVIDIA's */
		EXPECT_HAS(out, "cudart_stub_cu");
		EXPECT_LACKS(out, "libcudart.so");
		EXPECT_LACKS(out, "libcuda.so");
		EXPECT_LACKS(out, "/libnv");
	}
}

TS_TEST(test_no_cuda, "imported with no CUDA: documented codes, nothing of NVIDIA's");

/* _probe<abi> against one runtime: its answer (version and code) and its
 * file. */
static void runtime(int abi, const char *const *env, const char *version, const char *rc,
		    const char *where)
{
	const char *out;

	if (!usable())
		return;
	out = import_report(abi, env);
	printf("\n  _probe%d: %s", abi, out);
	EXPECT_HAS(out, version);
	EXPECT_HAS(out, rc);
	EXPECT_HAS(out, where);
	/* the stub the repaired wheel holds: kept beside the module, or
	 * grafted */
	EXPECT_HAS(out, abi == 13 ? "site-packages/skbprobe/libcudart_stub_cu13-"
				  : "site-packages/skbprobe.libs/libcudart_stub_cu");
}

static void test_cuda13(void)
{
	char where[PATH_MAX];

	snprintf(where, sizeof where, "%s/libcudart.so.13", E2E_TOOLKIT_LIB);
	if (!E2E_TOOLKIT_LIB[0] || access(where, F_OK) != 0) {
		ts_unavailable("the CUDA 13 toolkit's runtime (/usr/local/cuda)");
		return;
	}
	/* found where the system's toolkit is, with nothing set */
	runtime(13, NULL, "\"version\": 13000", "\"version_rc\": 0", "/libcudart.so.13");
}

TS_TEST(test_cuda13, "imported with CUDA 13.0 (the 13 ABI)");

static void fixture_runtime(int abi, const char *fixture, const char *version, const char *rc,
			    const char *file)
{
	char dir[PATH_MAX], var[PATH_MAX + 32], where[PATH_MAX + 32];
	const char *env[] = {var, NULL};

	if (!usable() || !ts_fixture_libdir(fixture, dir, sizeof dir))
		return;
	snprintf(var, sizeof var, "CUDASTUB_CUDART_PATH=%s", dir);
	snprintf(where, sizeof where, "%s/%s", dir, file);
	runtime(abi, env, version, rc, where);
}

static void test_cuda12(void)
{
	fixture_runtime(12, "cuda-12.4", "\"version\": 12040", "\"version_rc\": 0",
			"libcudart.so.12.");
}

TS_TEST(test_cuda12, "imported with CUDA 12.4 (the 12 ABI, grafted stub)");

static void test_cuda11(void)
{
	/* 11.8's own answer without a driver is 35, its output left as it was
	 * (-1), where the stub with no runtime sets it to 0 */
	if (ts_machine_has_driver())
		fixture_runtime(11, "cuda-11.8", "\"version\": 11080", "\"version_rc\": 0",
				"libcudart.so.11.");
	else
		fixture_runtime(11, "cuda-11.8", "\"version\": -1", "\"version_rc\": 35",
				"libcudart.so.11.");
}

TS_TEST(test_cuda11, "imported with CUDA 11.8 (the 11 ABI, grafted stub)");

/*
 * The grafted stubs asked by `cudastub info --stub` (the build venv's
 * command: the fresh venv has none): renamed and patched by auditwheel,
 * each still tells its ABI and finds a runtime of its major, or says it
 * found none.
 */
static void grafted_info(int abi, const char *fixture, const char *file)
{
	char dir[PATH_MAX], var[PATH_MAX + 32], cmd[CMD_MAX], want[PATH_MAX + 64];
	const char *env[] = {var, NULL};
	const char *out;

	if (!usable() || !ts_fixture_libdir(fixture, dir, sizeof dir))
		return;
	snprintf(cmd, sizeof cmd,
		 "build-venv/bin/cudastub info --json --stub \"$(echo "
		 "\"$PWD\"/fresh/lib/python3*/site-packages/skbprobe.libs/libcudart_stub_cu%d-*)\"",
		 abi);
	snprintf(var, sizeof var, "CUDASTUB_CUDART_PATH=%s", dir);
	out = output(cmd, env);
	printf("\n  cudastub info --stub (the %d stub, %s): %.300s", abi, fixture, out);
	EXPECT_HAS(out, "\"state\": \"loaded\"");
	snprintf(want, sizeof want, "\"abi_major\": %d,", abi);
	EXPECT_HAS(out, want);
	snprintf(want, sizeof want, "\"path\": \"%s/%s\"", dir, file);
	EXPECT_HAS(out, want);
	EXPECT_HAS(out, "site-packages/skbprobe.libs/libcudart_stub_cu");
	/* with no runtime: the override's failure, exit 1 */
	snprintf(var, sizeof var, "CUDASTUB_CUDART_PATH=/nonexistent");
	snprintf(cmd + strlen(cmd), sizeof cmd - strlen(cmd), "; echo exit=$?");
	out = output(cmd, env);
	EXPECT_HAS(out, "\"state\": \"override failed\"");
	EXPECT_HAS(out, "exit=1");
}

static void test_grafted_info(void)
{
	grafted_info(12, "cuda-12.4", "libcudart.so.12");
	grafted_info(11, "cuda-11.8", "libcudart.so.11.0");
}

TS_TEST(test_grafted_info, "cudastub info --stub on the grafted stubs");

TS_MAIN_SUITE("e2e: scikit-build-core and auditwheel, the real ones", suite_init, suite_clean, NULL)

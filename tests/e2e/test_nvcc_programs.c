/*
 * Real programs built by the local nvcc (tests/e2e/programs), each linked
 * once to NVIDIA's libcudart and once to the stub (build.sh):
 *   kernels      <<<...>>> launches, __device__ and __constant__ variables
 *   managed      a __managed__ variable read from the host
 *   rdc          -rdc=true, two files joined by a device link
 *   ptds         --default-stream per-thread (the _ptsz entry points)
 *   plugin_host  a library with kernels dlopen()ed after the first call
 *   lazy         kernels, and no runtime call unless asked
 *
 * No GPU here: both builds must print exactly the same, stderr and exit
 * status included, with no driver and with Debian's 550 driver on the
 * path, lazily bound and with LD_BIND_NOW=1. The stub build prints the
 * same on every runtime major it can run under: 11.8, 12.4 and 13.0 with
 * no driver, 11.8 and 12.4 with the 550 driver (which runs no 13.0). Through the stub, a program
 * that makes no call maps no NVIDIA library; one that calls loads the
 * runtime once and replays its registrations, which the fake runtime shows
 * (it launches only kernels it was told about, and gives managed memory).
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

#ifndef E2E_CLI
#define E2E_CLI "cudastub"
#endif
#ifndef E2E_CUDART_SHIM
#define E2E_CUDART_SHIM ""
#endif

static char programs[PATH_MAX];
static int built;

static const char *const compared[] = {"kernels", "managed", "rdc", "ptds", "plugin_host"};

/* <toolkit>/bin/nvcc -> <toolkit>/lib64, where its libcudart is. */
static int toolkit_runtime_dir(char *out)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof dir, "%s", E2E_NVCC);
	*strrchr(dir, '/') = '\0';
	strncat(dir, "/../lib64", sizeof dir - strlen(dir) - 1);
	return realpath(dir, out) != NULL;
}

static int build_programs(void)
{
	char runtime_dir[PATH_MAX], flags[512];
	char cmd[4 * PATH_MAX + 1024];

	if (!E2E_NVCC[0] || access(E2E_NVCC, X_OK) != 0) {
		ts_unavailable("nvcc not found; install the CUDA toolkit (CUDASTUB_NVCC)");
		return 0;
	}
	if (!toolkit_runtime_dir(runtime_dir) || !ts_tmpdir("e2e-nvcc", programs, sizeof programs))
		return 0;
	snprintf(cmd, sizeof cmd, "'%s/tests/e2e/programs/build.sh' '%s' '%s' '%s' '%s'%s",
		 CUDASTUB_TEST_SOURCE_DIR, E2E_NVCC, programs, E2E_CUDART_STUB, runtime_dir,
		 ts_sanitizer_flags(E2E_SANITIZE, "", flags, sizeof flags));
	if (system(cmd) != 0) {
		fprintf(stderr, "failed: %s\n", cmd);
		return 0;
	}
	return 1;
}

static int suite_init(void)
{
	built = build_programs();
	return 0;
}

static int suite_clean(void)
{
	if (programs[0])
		ts_remove_tree(programs);
	return 0;
}

/* Whether the programs are there; a failure when they are not. */
static int programs_built(void)
{
	if (!built)
		CU_FAIL("the programs were not built (see above)");
	return built;
}

/* The programs, and patchelf to patch them with. */
static int ready_to_patch(void)
{
	if (!programs_built())
		return 0;
	if (system("patchelf --version >/dev/null 2>&1") != 0) {
		ts_unavailable("patchelf not found: apt-get install patchelf");
		return 0;
	}
	return 1;
}

/* Runs <name>_<variant>, or variant itself when it is a path (plugin_host
 * gets its plugin) with env. */
static int run(const char *name, const char *variant, const struct ts_env *env, struct ts_child *c)
{
	char exe[PATH_MAX + 64], arg[PATH_MAX + 64], *argv[] = {exe, NULL, NULL};

	if (variant[0] == '/')
		snprintf(exe, sizeof exe, "%s", variant);
	else
		snprintf(exe, sizeof exe, "%s/%s_%s", programs, name, variant);
	if (!strcmp(name, "plugin_host")) {
		snprintf(arg, sizeof arg, "%s/libplugin_%s.so", programs, variant);
		argv[1] = arg;
	}
	return ts_run_program(argv, env ? env->list : NULL, NULL, c) == 0;
}

/* Two runs print the same, byte for byte: <name>_<variant_a> with env_a
 * (NVIDIA's way) and <name>_<variant_b> with env_b (through cudastub). */
static void expect_same_runs(const char *name, const char *how, const char *variant_a,
			     const struct ts_env *env_a, const char *variant_b,
			     const struct ts_env *env_b)
{
	static struct ts_child real, stub;
	char msg[512];

	CU_ASSERT_FATAL(run(name, variant_a, env_a, &real) && run(name, variant_b, env_b, &stub));
	snprintf(msg, sizeof msg, "%s (%s): exit %d through cudastub, %d with NVIDIA's", name, how,
		 stub.exit_code, real.exit_code);
	CU_assertImplementation(stub.exit_code == real.exit_code, __LINE__, msg, __FILE__, "",
				CU_FALSE);
	snprintf(msg, sizeof msg, "%s (%s): stdout differs", name, how);
	CU_assertImplementation(!strcmp(stub.out, real.out), __LINE__, msg, __FILE__, "", CU_FALSE);
	/* In a sanitizer build the programs are instrumented too (the stub's
	 * sanitizer runtime must come first), and a sanitizer's report of the
	 * managed program's fault names each binary's own addresses. */
	snprintf(msg, sizeof msg, "%s (%s): stderr differs", name, how);
	CU_assertImplementation(E2E_SANITIZE[0] || !strcmp(stub.err, real.err), __LINE__, msg,
				__FILE__, "", CU_FALSE);
	if (strcmp(stub.out, real.out) || (!E2E_SANITIZE[0] && strcmp(stub.err, real.err)))
		fprintf(stderr, "%s (%s)\nNVIDIA's:\n%s%s\ncudastub:\n%s%s\n", name, how, real.out,
			real.err, stub.out, stub.err);
}

/* The real build and the stub build print the same, byte for byte. */
static void expect_same(const char *name, const char *how, const struct ts_env *env)
{
	expect_same_runs(name, how, "real", env, "stub", env);
}

/*
 * NVIDIA's build, unchanged, through the runtime shim folder: first on
 * LD_LIBRARY_PATH, or its libcudart.so.13 in LD_PRELOAD. The folder holds
 * the runtime and NVRTC shims only (the driver shim has shim/driver/), so
 * with no driver the runtime still says 35, as NVIDIA's does alone.
 */
static void test_through_runtime_shim(void)
{
	char driver[PATH_MAX], shim_dir[PATH_MAX];
	const char *driver_dir;

	if (!built || !E2E_CUDART_SHIM[0]) {
		CU_ASSERT(built);
		return;
	}
	driver_dir = ts_driver_dir(driver, sizeof driver);
	ts_folder_of(E2E_CUDART_SHIM, shim_dir, sizeof shim_dir);
	for (size_t i = 0; i < sizeof compared / sizeof *compared; i++) {
		for (int with_driver = 0; with_driver <= (driver_dir != NULL); with_driver++) {
			/* a sanitizer build's shim cannot be preloaded before its runtime */
			for (int preload = 0; preload <= !E2E_SANITIZE[0]; preload++) {
				struct ts_env direct = {0}, shimmed = {0};
				char how[96];

				if (with_driver) {
					ts_env_add(&direct, "LD_LIBRARY_PATH=%s", driver_dir);
					ts_env_add(&shimmed, "LD_LIBRARY_PATH=%s%s%s",
						   preload ? "" : shim_dir, preload ? "" : ":",
						   driver_dir);
				} else if (!preload) {
					ts_env_add(&shimmed, "LD_LIBRARY_PATH=%s", shim_dir);
				}
				if (preload)
					ts_env_add(&shimmed, "LD_PRELOAD=%s", E2E_CUDART_SHIM);
				snprintf(how, sizeof how, "runtime shim by %s, %s",
					 preload ? "LD_PRELOAD" : "LD_LIBRARY_PATH",
					 with_driver ? "driver 550" : "no driver");
				expect_same_runs(compared[i], how, "real", &direct, "real",
						 &shimmed);
			}
		}
	}
}

static void test_same_output(void)
{
	char driver[PATH_MAX];
	const char *driver_dir;

	if (!programs_built())
		return;
	driver_dir = ts_driver_dir(driver, sizeof driver);
	for (size_t i = 0; i < sizeof compared / sizeof *compared; i++) {
		for (int with_driver = 0; with_driver <= (driver_dir != NULL); with_driver++) {
			for (int bind_now = 0; bind_now <= 1; bind_now++) {
				struct ts_env env = {0};
				char how[64];

				if (with_driver)
					ts_env_add(&env, "LD_LIBRARY_PATH=%s", driver_dir);
				if (bind_now)
					ts_env_add(&env, "LD_BIND_NOW=1");
				snprintf(how, sizeof how, "%s, %s",
					 with_driver ? "driver 550" : "no driver",
					 bind_now ? "LD_BIND_NOW=1" : "lazy binding");
				expect_same(compared[i], how, &env);
			}
		}
	}
	if (!ts_machine_has_driver()) {
		struct ts_child c;

		/* what "the same" means here: the runtime's own no-driver answer */
		CU_ASSERT_FATAL(run("kernels", "stub", NULL, &c));
		CU_ASSERT_PTR_NOT_NULL(strstr(c.out, "cudaGetDeviceCount: 35 "));
	}
}

/* The stub build on the 11.8 and 12.4 runtimes (CUDASTUB_CUDART_PATH,
 * which NVIDIA's build ignores): with no driver, every runtime major
 * answers these programs as the 13.0 build does. */
static void test_every_runtime_major(void)
{
	static const char *const fixtures[][2] = {
		{"cuda-11.8", "libcudart.so.11.0"},
		{"cuda-12.4", "libcudart.so.12"},
	};

	if (!programs_built())
		return;
	if (ts_machine_has_driver())
		return; /* a driver answers each major differently */
	for (size_t f = 0; f < sizeof fixtures / sizeof *fixtures; f++) {
		char dir[PATH_MAX];

		if (!ts_fixture_libdir(fixtures[f][0], dir, sizeof dir))
			continue;
		for (size_t i = 0; i < sizeof compared / sizeof *compared; i++) {
			struct ts_env env = {0};

			ts_env_add(&env, "CUDASTUB_CUDART_PATH=%s/%s", dir, fixtures[f][1]);
			expect_same(compared[i], fixtures[f][0], &env);
		}
	}
}

/* With Debian's 550 driver on the path (it supports CUDA 12.4), the stub
 * build runs on each runtime major the driver can run, 11.8 and 12.4, and
 * prints the same on both, byte for byte: what a machine with that driver
 * and no GPU answers (cudaErrorNoDevice), not the insufficient-driver
 * answer 13.0 gives there (which the test above compares with NVIDIA's
 * build). */
static void test_every_runtime_the_driver_runs(void)
{
	char driver[PATH_MAX], dir11[PATH_MAX], dir12[PATH_MAX];
	const char *driver_dir = ts_driver_dir(driver, sizeof driver);
	static struct ts_child c;

	if (!programs_built() || !driver_dir || ts_machine_has_driver())
		return;
	if (!ts_fixture_libdir("cuda-11.8", dir11, sizeof dir11) ||
	    !ts_fixture_libdir("cuda-12.4", dir12, sizeof dir12))
		return;
	for (size_t i = 0; i < sizeof compared / sizeof *compared; i++) {
		struct ts_env on11 = {0}, on12 = {0};

		ts_env_add(&on11, "LD_LIBRARY_PATH=%s", driver_dir);
		ts_env_add(&on11, "CUDASTUB_CUDART_PATH=%s/libcudart.so.11.0", dir11);
		ts_env_add(&on12, "LD_LIBRARY_PATH=%s", driver_dir);
		ts_env_add(&on12, "CUDASTUB_CUDART_PATH=%s/libcudart.so.12", dir12);
		expect_same_runs(compared[i], "driver 550: runtime 11.8 and runtime 12.4", "stub",
				 &on11, "stub", &on12);
		CU_ASSERT_FATAL(run(compared[i], "stub", &on12, &c));
		CU_ASSERT_PTR_NULL(strstr(c.out, "cudaErrorInsufficientDriver"));
		/* managed faults at its host access first, as with NVIDIA's build */
		if (strcmp(compared[i], "managed"))
			CU_ASSERT_PTR_NOT_NULL(strstr(c.out, "cudaErrorNoDevice"));
	}
}

static void test_lazy(void)
{
	char driver[PATH_MAX];
	const char *driver_dir = ts_driver_dir(driver, sizeof driver);
	struct ts_child c;

	if (!programs_built())
		return;
	/* NVIDIA's build maps its runtime before main: the check can tell */
	CU_ASSERT_FATAL(run("lazy", "real", NULL, &c));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.out, "libcudart.so mapped: 1"));
	for (int how = 0; how < 3; how++) {
		struct ts_env env = {0};

		if (how == 1 && driver_dir)
			ts_env_add(&env, "LD_LIBRARY_PATH=%s", driver_dir);
		if (how == 2) /* as on a machine with no CUDA at all */
			ts_env_add(&env, "CUDASTUB_CUDART_PATH=/nonexistent");
		CU_ASSERT_FATAL(run("lazy", "stub", &env, &c));
		CU_ASSERT_EQUAL(c.exit_code, 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(c.out, "libcudart.so mapped: 0"));
		CU_ASSERT_PTR_NOT_NULL(strstr(c.out, "libcuda.so mapped: 0"));
	}
}

/* Counts the lines of text that hold both a and b. */
static int lines_containing(const char *text, const char *a, const char *b)
{
	int n = 0;

	for (const char *line = text; line && *line; line = strchr(line, '\n'), line += !!line) {
		size_t len = strcspn(line, "\n");
		const char *at_a = memmem(line, len, a, strlen(a));

		n += at_a && memmem(line, len, b, strlen(b));
	}
	return n;
}

/* NVIDIA's build of name, its libcudart.so.13 replaced by the stub with
 * patchelf (one change a call: Debian 12's 0.14 corrupts files given
 * several), as <name>_patched; 1 when done. */
static int patch_by_hand(const char *name)
{
	char cmd[8 * PATH_MAX], stub_dir[PATH_MAX];

	ts_folder_of(E2E_CUDART_STUB, stub_dir, sizeof stub_dir);
	snprintf(cmd, sizeof cmd,
		 "cp '%s/%s_real' '%s/%s_patched' && "
		 "patchelf --replace-needed libcudart.so.%d '%s' '%s/%s_patched' && "
		 "patchelf --set-rpath '%s' '%s/%s_patched'",
		 programs, name, programs, name, E2E_ABI_MAJOR, strrchr(E2E_CUDART_STUB, '/') + 1,
		 programs, name, stub_dir, programs, name);
	return system(cmd) == 0;
}

/*
 * A binary nvcc linked to libcudart.so.13 and patched to the stub: its
 * references are versioned (cudaMalloc@libcudart.so.13), and the stub
 * defines that node, so it loads with no "no version information" warning
 * and, bound at once, with nothing unresolved; it prints what NVIDIA's does.
 */
static void test_patched_by_hand(void)
{
	static const char *const patched[] = {"kernels", "managed"};

	if (!ready_to_patch())
		return;
	for (size_t i = 0; i < sizeof patched / sizeof *patched; i++) {
		struct ts_env bind_now = {0};

		CU_ASSERT_FATAL(patch_by_hand(patched[i]));
		ts_env_add(&bind_now, "LD_BIND_NOW=1");
		expect_same_runs(patched[i], "patched by hand", "real", NULL, "patched", NULL);
		expect_same_runs(patched[i], "patched by hand, LD_BIND_NOW=1", "real", &bind_now,
				 "patched", &bind_now);
	}
}

/* NVIDIA's build run through the runtime shim (its folder first on
 * LD_LIBRARY_PATH) stays as lazy: the loader initialises the shim under
 * the real SONAME and no other libcudart or libcuda. */
static void test_lazy_through_shim(void)
{
	char shim_dir[PATH_MAX], init[PATH_MAX + 32];
	struct ts_env env = {0};
	struct ts_child c;

	if (!E2E_CUDART_SHIM[0] || !built) {
		CU_ASSERT(built);
		return;
	}
	ts_folder_of(E2E_CUDART_SHIM, shim_dir, sizeof shim_dir);
	ts_env_add(&env, "LD_LIBRARY_PATH=%s", shim_dir);
	ts_env_add(&env, "LD_DEBUG=files");
	CU_ASSERT_FATAL(run("lazy", "real", &env, &c));
	CU_ASSERT_EQUAL(c.exit_code, 0);
	snprintf(init, sizeof init, "calling init: %s\n", E2E_CUDART_SHIM);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.err, init));
	CU_ASSERT_EQUAL(lines_containing(c.err, "calling init: ", "libcudart"), 1);
	CU_ASSERT_EQUAL(lines_containing(c.err, "calling init: ", "libcuda.so"), 0);
}

/* With no runtime to be found, the stub's own documented answers, those of
 * a machine without a driver: the probe sets 0, a <<<...>>> launch reports
 * 35 through cudaGetLastError. */
static void test_no_cuda(void)
{
	static const char *const lines[] = {
		"cudaGetDeviceCount: 35 cudaErrorInsufficientDriver",
		"count: 0\n",
		"launch add: 35 cudaErrorInsufficientDriver",
		"cudaDeviceSynchronize: 35 cudaErrorInsufficientDriver",
	};
	struct ts_env env = {0};
	struct ts_child c;

	if (!programs_built())
		return;
	ts_env_add(&env, "CUDASTUB_CUDART_PATH=/nonexistent");
	CU_ASSERT_FATAL(run("kernels", "stub", &env, &c));
	CU_ASSERT_EQUAL(c.exit_code, 3); /* no device: the program's own verdict */
	for (size_t i = 0; i < sizeof lines / sizeof *lines; i++)
		CU_assertImplementation(strstr(c.out, lines[i]) != NULL, __LINE__, lines[i],
					__FILE__, "kernels", CU_FALSE);
}

/* Counts the lines of text that start with prefix. */
static int lines_starting(const char *text, const char *prefix)
{
	int n = 0;

	for (const char *line = text; line && *line; line = strchr(line, '\n'), line += !!line)
		n += !strncmp(line, prefix, strlen(prefix));
	return n;
}

static void test_loads_once_and_replays(void)
{
	struct ts_env env = {0};
	char *argv[] = {NULL, (char *)"call", NULL}, exe[PATH_MAX + 16];
	struct ts_child c;
	const char *replayed;

	if (!programs_built())
		return;
	snprintf(exe, sizeof exe, "%s/lazy_stub", programs);
	argv[0] = exe;
	ts_env_add(&env, "CUDASTUB_DEBUG=1");
	CU_ASSERT_FATAL(ts_run_program(argv, env.list, NULL, &c) == 0);
	CU_ASSERT_EQUAL(c.exit_code, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.out, "libcudart.so mapped: 1"));
	CU_ASSERT_EQUAL(lines_starting(c.err, "cudastub[cudart]: searching for libcudart"), 1);
	CU_ASSERT_EQUAL(lines_starting(c.err, "cudastub[cudart]: using "), 1);
	CU_ASSERT_EQUAL(lines_starting(c.err, "cudastub[cudart]: replayed "), 1);
	/* the module, its kernel and the end of it, at least */
	replayed = strstr(c.err, "cudastub[cudart]: replayed ");
	CU_ASSERT(replayed && atoi(replayed + strlen("cudastub[cudart]: replayed ")) >= 3);
}

/* The system calls strace counts in <name>_stub (whatever its exit
 * status: without a GPU the programs report errors), or -1. */
static long system_calls(const char *name)
{
	char cmd[5 * PATH_MAX], line[512];
	long calls = -1, seconds_calls;
	FILE *p;

	snprintf(cmd, sizeof cmd,
		 "strace -f -c -o '%s/%s.strace' '%s/%s_stub' >/dev/null 2>&1; "
		 "cat '%s/%s.strace'",
		 programs, name, programs, name, programs, name);
	if (!(p = popen(cmd, "r")))
		return -1;
	/* "100.00    0.002254           7       291       132 total" */
	while (fgets(line, sizeof line, p)) {
		double percent, seconds;
		long usecs;

		if (strstr(line, " total") && sscanf(line, "%lf %lf %ld %ld", &percent, &seconds,
						     &usecs, &seconds_calls) == 4)
			calls = seconds_calls;
	}
	pclose(p);
	return calls;
}

/* A kernel's registration is recorded without a system call: the program
 * with 256 kernels makes no more system calls through the stub than the
 * one with 2 (a getpid() a record would make 254 calls more). */
static void test_registration_without_system_calls(void)
{
	long few, many;

	if (!programs_built())
		return;
	if (E2E_SANITIZE[0]) {
		/* a sanitizer's allocator maps memory as the records grow: its
		 * mmap calls are not the stub's, and the plain build counts */
		ts_not_applicable("a sanitizer build: its allocator's system calls are counted");
		return;
	}
	if (system("strace -V >/dev/null 2>&1") != 0) {
		ts_unavailable("strace not found: apt-get install strace");
		return;
	}
	few = system_calls("kernels");
	many = system_calls("many_kernels");
	CU_ASSERT(few > 0 && many > 0);
	if (many > few + 16)
		fprintf(stderr, "256 kernels: %ld system calls; 2 kernels: %ld\n", many, few);
	CU_ASSERT(many <= few + 16);
}

/* Through the stub on the fake runtime: what each program's kernels need
 * from the replay, line by line, and the fake's trace (FAKE_CUDART_TRACE)
 * for what the program cannot see. */
static void test_on_fake_runtime(void)
{
	static const struct {
		const char *program, *line, *trace;
	} want[] = {
		{"kernels", "launch add: 0 cudaSuccess", "fake: launch _Z3addPii"},
		{"managed", "answer: 42 42", "fake: init m0"},
		{"rdc", "launch apply: 0 cudaSuccess", "fake: launch _Z5applyPi"},
		{"ptds", "launch fill: 0 cudaSuccess",
		 "fake: per-thread stream\nfake: launch _Z4fillPii"},
		{"plugin_host", "plugin_launch: 0 cudaSuccess", "fake: launch _Z13plugin_kernelPi"},
	};
	char fake[PATH_MAX];
	struct ts_child c;

	if (!programs_built())
		return;
	snprintf(fake, sizeof fake, "%s/tests/cudart/fakes/cudart-%d/libcudart.so.%d",
		 ts_build_dir(), E2E_ABI_MAJOR, E2E_ABI_MAJOR);
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		struct ts_env env = {0};

		ts_env_add(&env, "CUDASTUB_CUDART_PATH=%s", fake);
		ts_env_add(&env, "FAKE_CUDART_TRACE=1");
		CU_ASSERT_FATAL(run(want[i].program, "stub", &env, &c));
		CU_ASSERT_EQUAL(c.exit_code, 0);
		CU_assertImplementation(strstr(c.out, want[i].line) != NULL, __LINE__, want[i].line,
					__FILE__, want[i].program, CU_FALSE);
		CU_assertImplementation(strstr(c.err, want[i].trace) != NULL, __LINE__,
					want[i].trace, __FILE__, want[i].program, CU_FALSE);
		/* nothing reached the fake with a handle it did not hand out */
		CU_ASSERT_PTR_NULL(strstr(c.err, "bad-handle"));
		/* the registration from before main reached the fake first */
		CU_ASSERT(strstr(c.err, "fake: fatbin m0") &&
			  strstr(c.err, "fake: fatbin m0") < strstr(c.err, want[i].trace));
	}
}

/* ---- cudastub patch ---- */

/* Runs `cudastub patch <args>`; its exit status, output in c. */
static int cudastub_patch(struct ts_child *c, const char *a, const char *b, const char *d)
{
	char *argv[] = {E2E_CLI, "patch", (char *)a, (char *)b, (char *)d, NULL};

	CU_ASSERT_FATAL(ts_run_program(argv, NULL, NULL, c) == 0);
	return c->exit_code;
}

/* Whether two files hold the same bytes. */
static int same_file(const char *a, const char *b)
{
	char cmd[2 * PATH_MAX + 32];

	snprintf(cmd, sizeof cmd, "cmp -s '%.*s' '%.*s'", PATH_MAX - 8, a, PATH_MAX - 8, b);
	return system(cmd) == 0;
}

/*
 * jit (NVRTC and the runtime, linked to libcudart.so.13 and libnvrtc.so.13
 * by nvcc) in an application tree, patched by `cudastub patch --stub-dir`:
 * it prints what the unpatched program prints, stderr included, bound
 * lazily or at once; it runs on 12.4 and 11.8 and with no CUDA at all;
 * --check passes, patching again changes no byte, --dry-run changes
 * nothing, and a program built for CUDA 12 in the same tree gets the
 * 12 ABI's stub.
 */
static void test_cudastub_patch(void)
{
	char app[PATH_MAX + 16], bin[PATH_MAX + 32], lib[PATH_MAX + 32], jit[PATH_MAX + 48];
	char real[PATH_MAX + 48], old12[PATH_MAX + 48], saved[PATH_MAX], cmd[12 * PATH_MAX];
	static const char *const fixtures[][3] = {
		{"cuda-11.8", "libcudart.so.11.0", "libnvrtc.so.11.2"},
		{"cuda-12.4", "libcudart.so.12", "libnvrtc.so.12"},
	};
	struct ts_env bind_now = {0}, none = {0};
	struct ts_child c;

	if (!ready_to_patch())
		return;
	snprintf(app, sizeof app, "%s/app", programs);
	snprintf(bin, sizeof bin, "%s/bin", app);
	snprintf(lib, sizeof lib, "%s/lib", app);
	snprintf(jit, sizeof jit, "%s/jit", bin);
	snprintf(real, sizeof real, "%s/jit_real", programs);
	snprintf(old12, sizeof old12, "%s/for_cuda12", bin);
	if (!*E2E_PROGRAM_12) {
		ts_unavailable("a program of CUDA 12.4 (tests/fixtures/fetch.sh: headers-12.4, "
			       "cuda-12.4)");
		return;
	}
	snprintf(cmd, sizeof cmd, "mkdir -p '%s' && cp '%s' '%s' && cp '%s' '%s'", bin, real, jit,
		 E2E_PROGRAM_12, old12);
	CU_ASSERT_FATAL(system(cmd) == 0);

	/* --dry-run: a plan, and no byte changed */
	CU_ASSERT_EQUAL(cudastub_patch(&c, "--dry-run", jit, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.out, "would patch"));
	CU_ASSERT(same_file(jit, real));

	/* the tree: jit patched to the 13 ABI's stubs, the CUDA 12 program to
	 * the 12 ABI's, in one run */
	CU_ASSERT_EQUAL(cudastub_patch(&c, "--stub-dir", lib, app), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.out, "patched "));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.out, "libcudart.so.13 -> libcudart_stub_cu13-"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.out, "libnvrtc.so.13 -> libnvrtc_stub_cu13-"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.out, "libcudart.so.12 -> libcudart_stub_cu12-"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.out, "RUNPATH $ORIGIN/../lib"));
	CU_ASSERT_PTR_NULL(strstr(c.out, "still needs"));
	snprintf(cmd, sizeof cmd, "'%s' patch --strict --check --stub-dir '%s' '%s' >/dev/null",
		 E2E_CLI, lib, old12);
	CU_ASSERT_EQUAL(system(cmd), 0);
	CU_ASSERT(!same_file(old12, E2E_PROGRAM_12));
	snprintf(cmd, sizeof cmd, "rm '%s'", old12);
	CU_ASSERT_FATAL(system(cmd) == 0);

	/* what it prints, as the unpatched build does, on 13.0 (searched) */
	expect_same_runs("jit", "patched by cudastub patch", "real", NULL, jit, NULL);
	ts_env_add(&bind_now, "LD_BIND_NOW=1");
	expect_same_runs("jit", "patched, LD_BIND_NOW=1", "real", &bind_now, jit, &bind_now);

	/* done is done: --check passes, a second patch changes no byte */
	snprintf(cmd, sizeof cmd, "cp '%s' '%s.once'", jit, jit);
	CU_ASSERT_FATAL(system(cmd) == 0);
	/* it finds its stubs through its RUNPATH: done, whatever folder a run
	 * without --stub-dir would choose */
	CU_ASSERT_EQUAL(cudastub_patch(&c, "--check", jit, NULL), 0);
	CU_ASSERT_EQUAL(cudastub_patch(&c, "--check", "--stub-dir", lib), 2); /* no path */
	snprintf(cmd, sizeof cmd, "'%s' patch --check --stub-dir '%s' '%s' >/dev/null", E2E_CLI,
		 lib, jit);
	CU_ASSERT_EQUAL(system(cmd), 0);
	snprintf(cmd, sizeof cmd, "'%s' patch --stub-dir '%s' '%s' | grep -q 'already patched'",
		 E2E_CLI, lib, jit);
	CU_ASSERT_EQUAL(system(cmd), 0);
	snprintf(saved, sizeof saved, "%.*s.once", PATH_MAX - 16, jit);
	CU_ASSERT(same_file(jit, saved));

	/* the older runtimes and NVRTCs, and none at all */
	for (size_t f = 0; f < sizeof fixtures / sizeof *fixtures; f++) {
		char dir[PATH_MAX];
		struct ts_env env = {0};
		char *argv[] = {jit, NULL};

		if (!ts_fixture_libdir(fixtures[f][0], dir, sizeof dir))
			continue;
		ts_env_add(&env, "CUDASTUB_CUDART_PATH=%s/%s", dir, fixtures[f][1]);
		ts_env_add(&env, "CUDASTUB_NVRTC_PATH=%s/%s", dir, fixtures[f][2]);
		CU_ASSERT_FATAL(ts_run_program(argv, env.list, NULL, &c) == 0);
		CU_ASSERT_EQUAL(c.exit_code, 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(c.out, "the PTX has the kernel: 1"));
	}
	ts_env_add(&none, "CUDASTUB_CUDART_PATH=/nonexistent");
	ts_env_add(&none, "CUDASTUB_NVRTC_PATH=/nonexistent");
	{
		char *argv[] = {jit, NULL};

		CU_ASSERT_FATAL(ts_run_program(argv, none.list, NULL, &c) == 0);
		CU_ASSERT_EQUAL(c.exit_code, 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(c.out, "nvrtcCreateProgram: 1034 "));
		CU_ASSERT_PTR_NOT_NULL(
			strstr(c.out, "cudaGetDeviceCount: 35 cudaErrorInsufficientDriver"));
	}
}

static void register_suites(void)
{
	CU_pSuite s;

	/* nvcc's programs need stubs of its own CUDA major's ABI */
	if (E2E_NVCC_MAJOR && E2E_NVCC_MAJOR != E2E_ABI_MAJOR) {
		printf("N/A: nvcc builds CUDA %d programs, which need %d-ABI stubs; this build's "
		       "are %d-ABI\n",
		       E2E_NVCC_MAJOR, E2E_NVCC_MAJOR, E2E_ABI_MAJOR);
		return;
	}
	s = CU_add_suite("e2e: programs built by nvcc, NVIDIA's runtime and the stub", suite_init,
			 suite_clean);

	CU_add_test(s, "each prints the same (no driver, driver 550; lazy, LD_BIND_NOW)",
		    test_same_output);
	CU_add_test(s, "the stub build on runtimes 11.8 and 12.4 prints the same",
		    test_every_runtime_major);
	CU_add_test(s, "with driver 550, the stub build prints the same on runtimes 11.8 and 12.4",
		    test_every_runtime_the_driver_runs);
	CU_add_test(s, "no CUDA call: no NVIDIA library mapped, exit 0", test_lazy);
	CU_add_test(s, "NVIDIA's build through the runtime shim folder prints the same",
		    test_through_runtime_shim);
	CU_add_test(s, "NVIDIA's build patched to the stub: no loader warning, same output",
		    test_patched_by_hand);
	CU_add_test(s, "through the runtime shim: only the shim is initialised",
		    test_lazy_through_shim);
	CU_add_test(s, "no CUDA at all: the documented codes, no crash", test_no_cuda);
	CU_add_test(s, "a CUDA call: one search, one load, one replay",
		    test_loads_once_and_replays);
	CU_add_test(s, "256 kernels register with no system call each",
		    test_registration_without_system_calls);
	CU_add_test(s, "on the fake runtime: kernels, __managed__, rdc, ptds, plugin",
		    test_on_fake_runtime);
	CU_add_test(s, "cudastub patch: jit (runtime and NVRTC) in an application tree",
		    test_cudastub_patch);
}

int main(int argc, char **argv)
{
	return ts_main(argc, argv, NULL, register_suites);
}

/*
 * The first call races glibc's loader lock and fork(), hundreds of times,
 * one fresh process a run, each under an alarm: a hang shows as SIGALRM.
 *
 *   - One thread makes its first runtime call while another dlopen()s a
 *     library whose constructor calls the stub (a plain C one, and one
 *     built by nvcc, which registers its kernels), on the real runtime
 *     with Debian's 550 driver and on a fake that is slow to load.
 *   - Eight copies of an nvcc-built library loaded by eight threads while
 *     eight more make first calls: each module reaches the runtime once.
 *   - fork() before the first call (the child loads and replays on its
 *     own), after it, and during a 16-thread first-call storm, also with
 *     every pthread_atfork slowed down (the window where a stub installs
 *     its fork guard), and with every walk of the loaded libraries slowed
 *     down (dl_iterate_phdr holds a lock a child does not get back).
 *   - 64 threads each making the first call of a different function, 1000
 *     processes: the runtime initialised once, every result right.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cudart_test.h"
#include "race.h"
#include "ts_files.h"

#ifndef RACE_NVCC
#define RACE_NVCC ""
#endif
#ifndef RACE_SANITIZE
#define RACE_SANITIZE ""
#endif

/* Runs of each race: as asked in the plain build (CUDASTUB_RACE_RUNS may
 * ask for more). A twentieth of that under a sanitizer or an emulator,
 * where every process starts many times slower and the plain build has
 * made the count: a sanitizer checks each path a run takes, which a few
 * runs take as well as many. Under qemu-user on an x86-64 host the host's
 * stronger memory order holds, so runs there prove that aarch64 takes the
 * same paths, not its weaker ordering. Three runs of each race at least. */
static int runs(int plain)
{
	const char *s = getenv("CUDASTUB_RACE_RUNS");
	int n = s && atoi(s) > plain ? atoi(s) : plain;

	if (ts_emulator()[0] || RACE_SANITIZE[0])
		n = n / 20 > 3 ? n / 20 : 3;
	return n;
}

static char nvcc_plugin_dir[PATH_MAX];

/* plugin.cu of the end-to-end programs, built by nvcc against the stub. */
static const char *nvcc_plugin(void)
{
	static char path[PATH_MAX + 32];
	char cmd[4 * PATH_MAX], stub_dir[PATH_MAX], flags[256];

	if (path[0])
		return path;
#ifdef RACE_NVCC_NOT_FOR_TARGET
	ts_not_applicable("this machine's nvcc builds no library for the cross build's "
			  "architecture (x86-64 toolkit, no cross host compiler)");
	return NULL;
#endif
	if (!RACE_NVCC[0] || access(RACE_NVCC, X_OK) != 0) {
		ts_unavailable("nvcc not found; install the CUDA toolkit (CUDASTUB_NVCC)");
		return NULL;
	}
	if (!ts_tmpdir("race-plugin", nvcc_plugin_dir, sizeof nvcc_plugin_dir))
		return NULL;
	ts_folder_of(ct_stub(), stub_dir, sizeof stub_dir);
	snprintf(path, sizeof path, "%s/libplugin.so", nvcc_plugin_dir);
	snprintf(cmd, sizeof cmd,
		 "'%s' -shared -Xcompiler -fPIC -I'%s/tests/e2e/programs' "
		 "'%s/tests/e2e/programs/plugin.cu' -o '%s' -cudart none '%s' "
		 "-Xlinker -rpath='%s'%s",
		 RACE_NVCC, CUDASTUB_TEST_SOURCE_DIR, CUDASTUB_TEST_SOURCE_DIR, path, ct_stub(),
		 stub_dir, ts_sanitizer_flags(RACE_SANITIZE, "-Xcompiler ", flags, sizeof flags));
	if (system(cmd) != 0) {
		CU_FAIL("nvcc could not build the plugin");
		path[0] = '\0';
		return NULL;
	}
	return path;
}

static int suite_clean(void)
{
	if (nvcc_plugin_dir[0])
		ts_remove_tree(nvcc_plugin_dir);
	return 0;
}

static const char *fake13(void)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof path, "%s/tests/cudart/fakes/cudart-%d/libcudart.so.%d",
		 ts_build_dir(), ct_build_abi(), ct_build_abi());
	return ts_present(path, "build the fakes (cudastub_fakes)");
}

/* The fake runtime by override, each of its loads slowed by ms. */
static void slow_fake(struct ts_env *env, const char *fake, int ms)
{
	ts_env_add(env, "CUDASTUB_CUDART_PATH=%s", fake);
	ts_env_add(env, "FAKE_CUDART_SLOW_MS=%d", ms);
}

/* Runs scenario n times with env; counts hangs and other failures. */
static void repeat(const char *label, const char *scenario, const struct ts_env *env, int n,
		   const char *const *want_keys, const char *const *want_values)
{
	static struct ts_child c;
	int hangs = 0, failures = 0;
	char msg[512];

	for (int run = 0; run < n; run++) {
		int ok = ts_run_child(scenario, env->list, &c) == 0 && c.exit_code == 0;

		for (int k = 0; ok && want_keys[k]; k++) {
			const char *got = ts_value(&c, want_keys[k]);

			ok = got && !strcmp(got, want_values[k]);
		}
		if (!ok && !failures && !hangs)
			fprintf(stderr, "[%s] run %d: exit %d\n%s%s\n", label, run, c.exit_code,
				c.out, c.err);
		hangs += c.exit_code == -1 && !ok;
		failures += !ok;
	}
	printf("  %s: %d runs, %d failed (%d by a signal: hang or crash)\n", label, n, failures,
	       hangs);
	snprintf(msg, sizeof msg, "[%s] %d of %d runs failed, %d by a signal", label, failures, n,
		 hangs);
	CU_assertImplementation(failures == 0, __LINE__, msg, __FILE__, "", CU_FALSE);
}

static void loader_lock(const char *what, const char *plugin)
{
	static const char *const keys[] = {"plugin", "state", NULL};
	static const char *const loaded[] = {"1", "1"};
	char driver[PATH_MAX], label[128], toolkit[PATH_MAX];
	const char *driver_dir = ts_driver_dir(driver, sizeof driver);
	const char *fake = fake13();
	const struct ct_runtime *newest = ct_newest_runtime();

	if (!plugin)
		return;
	if (driver_dir && ct_runtime_file(newest, toolkit, sizeof toolkit)) {
		struct ts_env env = {0};

		ts_env_add(&env, "RACE_PLUGIN=%s", plugin);
		ts_env_add(&env, "CUDASTUB_CUDART_PATH=%s", toolkit);
		ts_env_add(&env, "LD_LIBRARY_PATH=%s", driver_dir);
		snprintf(label, sizeof label, "%s, real %s runtime, driver 550", what,
			 newest->version);
		repeat(label, "loader_lock", &env, runs(300), keys, loaded);
	}
	if (fake) {
		struct ts_env env = {0};

		ts_env_add(&env, "RACE_PLUGIN=%s", plugin);
		slow_fake(&env, fake, 5);
		snprintf(label, sizeof label, "%s, fake runtime slow to load", what);
		repeat(label, "loader_lock", &env, runs(300), keys, loaded);
	}
}

static void test_c_constructor(void)
{
	loader_lock("C constructor", RACE_C_PLUGIN);
}

static void test_nvcc_constructor(void)
{
	loader_lock("nvcc-built library", nvcc_plugin());
}

static void test_fork_before_and_after(void)
{
	static const char *const before_keys[] = {"child", "parent_loaded_before",
						  "parent_replayed", NULL};
	static const char *const before_values[] = {"0", "0", "1"};
	static const char *const after_keys[] = {"child", NULL};
	static const char *const after_values[] = {"0"};
	const char *fake = fake13();
	struct ts_env env = {0};

	if (!fake)
		return;
	ts_env_add(&env, "CUDASTUB_CUDART_PATH=%s", fake);
	repeat("fork before the first call", "fork_before", &env, runs(20), before_keys,
	       before_values);
	repeat("fork after the first call", "fork_after", &env, runs(20), after_keys, after_values);
}

/* The storm with every walk of the loaded libraries slowed, through the
 * default search (an override is loaded without asking what is loaded):
 * the fake stands in a CUDA_HOME of its own. */
static void fork_storm_walks_slowed(const char *fake, const char *const *keys,
				    const char *const *values)
{
	char home[PATH_MAX], lib64[PATH_MAX + 8], fake_dir[PATH_MAX];
	struct ts_env env = {0};

	if (!ts_tmpdir("race-home", home, sizeof home))
		return;
	snprintf(lib64, sizeof lib64, "%s/lib64", home);
	CU_ASSERT_EQUAL_FATAL(symlink(ts_folder_of(fake, fake_dir, sizeof fake_dir), lib64), 0);
	ts_env_add(&env, "CUDA_HOME=%s", home);
	ts_env_add(&env, "RACE_SLOW_WALK_MS=2");
	repeat("fork during a storm, walks of the loaded libraries slowed", "fork_storm", &env,
	       runs(50), keys, values);
	ts_remove_tree(home);
}

static void test_fork_storm(void)
{
	static const char *const keys[] = {"threads_ok", "children_ok", "fatbins", "bad_handles",
					   NULL};
	static const char *const values[] = {"16", "8", "16", "0"};
	const char *fake = fake13();
	struct ts_env env = {0}, widened = {0};

	if (!fake)
		return;
	/* Neither sanitizer of GCC 12 survives fork() in a process whose
	 * other threads are busy, stub or not: AddressSanitizer does not lock
	 * its allocator around it (a child waits for ever in its first
	 * malloc), and ThreadSanitizer replaces pthread_once with one that
	 * does not restart in the child (glibc's does) and reports the
	 * parent's threads as leaked. The plain build runs these. */
	if (RACE_SANITIZE[0]) {
		printf("  fork during a storm: skipped under a sanitizer (see race_main.c)\n");
		return;
	}
	/* Nor does qemu-user: a storm process that forked beside its 16
	 * threads was once found, at its own exit, waiting for ever on a lock
	 * inside the emulator (both its host threads in a futex of qemu's
	 * data, the alarm never delivered), as loader_fork_plugins' children
	 * did. The native build runs these. */
	if (ts_emulator()[0]) {
		printf("  fork during a storm: not run under qemu-user (see race_main.c)\n");
		return;
	}
	slow_fake(&env, fake, 2);
	repeat("fork during a 16-thread storm", "fork_storm", &env, runs(100), keys, values);
	ts_env_add(&widened, "CUDASTUB_CUDART_PATH=%s", fake);
	ts_env_add(&widened, "RACE_SLOW_ATFORK_MS=20");
	repeat("fork during a storm, pthread_atfork slowed", "fork_storm", &widened, runs(50), keys,
	       values);
	fork_storm_walks_slowed(fake, keys, values);
}

static void test_plugin_storm(void)
{
	static const char *const keys[] = {
		"plugins", "fatbins", "launched", "unregistered_launches", "bad_handles", NULL};
	static const char *const values[] = {"8", "8", "8", "0", "0"};
	const char *plugin = nvcc_plugin(), *fake = fake13();
	char dir[PATH_MAX], copy[PATH_MAX + 32];
	struct ts_env env = {0};

	if (!plugin || !fake || !ts_tmpdir("race-plugins", dir, sizeof dir))
		return;
	for (int i = 0; i < 8; i++) {
		snprintf(copy, sizeof copy, "%s/libplugin%d.so", dir, i);
		CU_ASSERT_EQUAL_FATAL(ts_copy_file(plugin, copy), 0);
	}
	ts_env_add(&env, "RACE_PLUGIN_DIR=%s", dir);
	slow_fake(&env, fake, 2);
	repeat("8 nvcc-built libraries loaded during 8 first calls", "plugin_storm", &env,
	       runs(100), keys, values);
	ts_remove_tree(dir);
}

static void test_function_storm(void)
{
	static const char *const keys[] = {"results_ok", "state", "fake_loads", NULL};
	static const char *const values[] = {"64", "1", "1"};
	const char *fake = fake13();
	struct ts_env env = {0};

	if (!fake)
		return;
	slow_fake(&env, fake, 2);
	repeat("64 threads, 64 different first calls", "function_storm", &env, runs(1000), keys,
	       values);
}

TS_TEST(test_c_constructor, "first call while a C constructor calls the stub");
TS_TEST(test_nvcc_constructor, "first call while an nvcc-built library registers");
TS_TEST(test_plugin_storm, "libraries with kernels loaded by 8 threads during first calls");
TS_TEST(test_fork_before_and_after, "fork before and after the first call");
TS_TEST(test_fork_storm, "fork during a first-call storm, and in the widened window");
TS_TEST(test_function_storm, "64 threads each making a different first call, 1000 processes");

static const struct ts_scenario scenarios[] = {
	{"loader_lock", race_scenario_loader_lock},
	{"fork_before", race_scenario_fork_before},
	{"fork_after", race_scenario_fork_after},
	{"fork_storm", race_scenario_fork_storm},
	{"plugin_storm", race_scenario_plugin_storm},
	{"function_storm", race_scenario_function_storm},
	{NULL, NULL},
};

TS_MAIN_SUITE("cudart: first call against the loader lock and fork", NULL, suite_clean, scenarios)

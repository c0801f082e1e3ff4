/*
 * A Debian program nobody here wrote that links NVML: hwloc's NVML plugin
 * (bookworm's libhwloc-contrib-plugins, hwloc_nvml.so, which needs
 * libnvidia-ml.so.1), loaded by bookworm's lstopo-no-graphics through
 * HWLOC_PLUGINS_PATH (fixtures hwloc-contrib-2.9 and hwloc-2.9).
 *
 *   as shipped   with no NVML the plugin cannot load ("Failed to load
 *                plugin: libnvidia-ml.so.1"), so hwloc runs without it;
 *   patched      `cudastub patch --stub-dir` points it at the NVML stub:
 *                with no NVML and no driver it loads, registers its
 *                component, is told NVML is missing by nvmlInit, and
 *                lstopo prints the topology it prints without the plugin;
 *   real NVML    with the 535 or 550 driver's library on the loader's path,
 *                the patched plugin prints exactly what the one as shipped
 *                prints (stdout and hwloc's verbose log alike: nvmlInit's
 *                "Driver Not Loaded" through nvmlErrorString);
 *   shim         the plugin as shipped, with NVML's shim (shim/nvml/
 *                libnvidia-ml.so.1) first on the loader's path: the same,
 *                with a real library after it and with none.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hwloc_fixture.h"
#include "test_support.h"

/* From CMake: E2E_CLI (the cudastub command), E2E_NVML_STUB ("" when NVML
 * is not built: nvml.h not found when configuring), E2E_NVML_SHIM_DIR (the
 * folder of its shim, libnvidia-ml.so.1). */

#define PLUGIN "hwloc_nvml.so"

static struct hw_fixture hw;
static char stubs[96];
static struct ts_child shipped[2], patched;

/* lstopo with the plugin folder, hwloc's verbose log on stderr, and the
 * loader's path: hwloc's own library, then extra (or nothing) */
static int run_lstopo(const char *extra, struct ts_child *out)
{
	char path[2 * PATH_MAX + 32], plugin_path[128];
	const char *env[] = {path, plugin_path, "HWLOC_PLUGINS_VERBOSE=1",
			     "HWLOC_COMPONENTS_VERBOSE=1", NULL};
	char *argv[] = {hw.lstopo, NULL};

	snprintf(path, sizeof path, "LD_LIBRARY_PATH=%s%s%s", hw.lib, extra ? ":" : "",
		 extra ? extra : "");
	snprintf(plugin_path, sizeof plugin_path, "HWLOC_PLUGINS_PATH=%s", hw.plugins);
	if (ts_run_program(argv, env, NULL, out) != 0 || out->exit_code != 0) {
		CU_FAIL("lstopo-no-graphics failed");
		fprintf(stderr, "exit %d\n%s%s\n", out->exit_code, out->out, out->err);
		return -1;
	}
	return 0;
}

/* The fixtures and a work folder with the plugin as shipped; 0 when ready. */
static int prepare(void)
{
	if (hw_prepare(&hw, PLUGIN, "/tmp/cudastub-hwloc-XXXXXX", *E2E_SANITIZE,
		       !*E2E_NVML_STUB ? "no NVML stub in this build: configure with "
					 "CUDASTUB_EXTRA_INCLUDE_DIRS naming nvml.h's folder"
				       : NULL))
		return -1;
	snprintf(stubs, sizeof stubs, "%s/stubs", hw.work);
	return 0;
}

static int patch_plugin(void)
{
	char file[128], stub_dir[128];
	char *argv[] = {E2E_CLI, "patch", stub_dir, file, NULL};
	struct ts_child c;

	snprintf(file, sizeof file, "%s/" PLUGIN, hw.plugins);
	snprintf(stub_dir, sizeof stub_dir, "--stub-dir=%s", stubs);
	if (ts_run_program(argv, NULL, NULL, &c) != 0 || c.exit_code != 0) {
		CU_FAIL("cudastub patch failed");
		fprintf(stderr, "exit %d\n%s%s\n", c.exit_code, c.out, c.err);
		return -1;
	}
	return 0;
}

static const char *nvml_dir(const char *fixture, char *buf, size_t size)
{
	char dir[PATH_MAX / 2];

	if (!ts_fixture_libdir(fixture, dir, sizeof dir))
		return NULL;
	snprintf(buf, size, "%s/nvidia/current", dir);
	return buf;
}

static void test_hwloc(void)
{
	static const char *const drivers[] = {"nvml-535", "nvml-550"};
	struct ts_child bare;
	char dir[2][PATH_MAX];
	int have[2];
	/* a machine with a driver has an NVML of its own */
	void *system_nvml = dlopen("libnvidia-ml.so.1", RTLD_LAZY);

	if (prepare() != 0)
		goto out;
	for (int d = 0; d < 2; d++)
		have[d] = nvml_dir(drivers[d], dir[d], sizeof dir[d]) != NULL;
	/* as shipped: with no NVML the plugin does not load; with one it does */
	if (run_lstopo(NULL, &bare) != 0)
		goto out;
	if (!system_nvml)
		CU_ASSERT_PTR_NOT_NULL(
			strstr(bare.err, "Failed to load plugin: libnvidia-ml.so.1"));
	for (int d = 0; d < 2; d++) {
		if (have[d] && run_lstopo(dir[d], &shipped[d]) != 0)
			have[d] = 0;
		if (have[d])
			CU_ASSERT_PTR_NOT_NULL(
				strstr(shipped[d].err, "Registered discovery component `nvml'"));
	}

	if (patch_plugin() != 0)
		goto out;
	/* patched, with the real libraries: what the plugin as shipped printed */
	for (int d = 0; d < 2; d++) {
		if (!have[d] || run_lstopo(dir[d], &patched) != 0)
			continue;
		CU_ASSERT_PTR_NOT_NULL(
			strstr(patched.err, "Registered discovery component `nvml'"));
		CU_ASSERT_PTR_NOT_NULL(strstr(
			patched.err, "Failed to initialize with nvmlInit(): Driver Not Loaded"));
		CU_ASSERT_STRING_EQUAL(patched.out, shipped[d].out);
		CU_ASSERT_STRING_EQUAL(patched.err, shipped[d].err);
		printf("  %s: lstopo through the patched plugin prints what it prints as shipped "
		       "(%zu bytes, and %zu of hwloc's log)\n",
		       drivers[d], strlen(patched.out), strlen(patched.err));
	}
	/* patched, with no NVML anywhere (and no driver): it starts */
	if (system_nvml) {
		ts_not_applicable("this machine has an NVML: the patched plugin without one is not "
				  "run here");
		goto out;
	}
	if (run_lstopo(NULL, &patched) != 0)
		goto out;
	CU_ASSERT_PTR_NULL(strstr(patched.err, "Failed to load plugin"));
	CU_ASSERT_PTR_NOT_NULL(strstr(patched.err, "Registered discovery component `nvml'"));
	CU_ASSERT_PTR_NOT_NULL(
		strstr(patched.err, "Failed to initialize with nvmlInit(): cudastub"));
	/* the topology hwloc prints without the plugin */
	CU_ASSERT_STRING_EQUAL(patched.out, bare.out);
	printf("  no NVML: the patched plugin loads, nvmlInit says why, lstopo prints the same "
	       "topology as without the plugin\n");
out:
	if (*hw.work)
		ts_remove_tree(hw.work);
}

TS_TEST(test_hwloc, "starts without NVML, prints what it prints with it");

/* The plugin as shipped, with the NVML shim first on the loader's path:
 * the shim skips itself and finds the real library after it, or none. */
static void test_shim(void)
{
	static const char *const drivers[] = {"nvml-535", "nvml-550"};
	char dir[PATH_MAX], path[2 * PATH_MAX];
	void *system_nvml = dlopen("libnvidia-ml.so.1", RTLD_LAZY);

	if (prepare() != 0)
		goto out;
	for (int d = 0; d < 2; d++) {
		if (!nvml_dir(drivers[d], dir, sizeof dir))
			continue;
		snprintf(path, sizeof path, "%s:%s", E2E_NVML_SHIM_DIR, dir);
		if (run_lstopo(path, &patched) != 0)
			continue;
		CU_ASSERT_PTR_NOT_NULL(
			strstr(patched.err, "Registered discovery component `nvml'"));
		CU_ASSERT_PTR_NOT_NULL(strstr(
			patched.err, "Failed to initialize with nvmlInit(): Driver Not Loaded"));
		if (*shipped[d].out)
			CU_ASSERT_STRING_EQUAL(patched.out, shipped[d].out);
		printf("  %s behind the shim: the plugin as shipped prints what it prints "
		       "without the shim\n",
		       drivers[d]);
	}
	if (system_nvml)
		goto out; /* reported by the test before */
	if (run_lstopo(E2E_NVML_SHIM_DIR, &patched) != 0)
		goto out;
	CU_ASSERT_PTR_NOT_NULL(strstr(patched.err, "Registered discovery component `nvml'"));
	CU_ASSERT_PTR_NOT_NULL(
		strstr(patched.err, "Failed to initialize with nvmlInit(): cudastub"));
	printf("  the shim alone: the plugin as shipped loads, nvmlInit says why\n");
out:
	if (*hw.work)
		ts_remove_tree(hw.work);
}

TS_TEST(test_shim, "as shipped, through the NVML shim");

TS_MAIN_SUITE("hwloc's NVML plugin, patched", NULL, NULL, NULL)

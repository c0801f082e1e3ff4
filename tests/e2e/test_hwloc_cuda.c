/*
 * A Debian program nobody here wrote that links the CUDA 11 runtime:
 * hwloc's CUDA plugin (bookworm's libhwloc-contrib-plugins, hwloc_cuda.so,
 * built with nvcc 11.8: it needs libcudart.so.11.0 and asks
 * cudaGetDeviceCount, cudaGetDeviceProperties, cudaGetErrorString), loaded
 * by bookworm's lstopo-no-graphics through HWLOC_PLUGINS_PATH.
 *
 * Five configurations of the machine, by what the loader can find:
 *   11.8         Debian's real 11.8 runtime, no driver;
 *   11.8+550     the same and the 550 driver's libcuda (no device);
 *   no CUDA      nothing (the toolkit under /usr/local hidden in a
 *                private mount namespace);
 *   12.4 only    Debian's 12.4 runtime, the toolkit hidden;
 *   13.0 only    the toolkit's 13.0 runtime, where the system finds it.
 * The stub's log (CUDASTUB_DEBUG=1) says which runtime it loaded: 11.8,
 * none, 12.4, 13.0, as the machine has.
 * Three variants of the program: as shipped; through the 11-ABI runtime
 * shim (libcudart.so.11.0) first on the loader's path; with the shim
 * preloaded. Each run also under LD_BIND_NOW=1.
 *
 * Asserted for every run: lstopo ends (bounded by an alarm), exit 0, no
 * loader error and no unresolved symbol. Where the 11.8 runtime is there,
 * every variant prints what the program as shipped prints: the topology,
 * and hwloc's log of the plugin. Where it is not, the program as shipped
 * cannot load the plugin ("Failed to load plugin: libcudart.so.11.0"),
 * and through the shim the plugin loads, registers its component, is told
 * there is no GPU, and lstopo prints the topology it prints without it.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hwloc_fixture.h"
#include "test_support.h"
#include "ts_namespace.h"

/* From CMake: E2E_ABI11_SHIM_DIR (the 11-ABI runtime shim's folder, or
 * "" where the build has none), E2E_TOOLKIT_CUDART13 (the toolkit's
 * libcudart.so.13, or ""). */

#define PLUGIN	    "hwloc_cuda.so"
#define CHILD_ALARM 120
#define NOT_LOADED  "Failed to load plugin: libcudart.so.11.0"
#define REGISTERED  "Registered discovery component `cuda'"
#define VARIANTS    3
#define CONFIGS	    5

static const char *const variant_names[VARIANTS] = {"as shipped", "shim", "preloaded shim"};

struct config {
	const char *name;
	const char *fixtures[2]; /* libdirs put on the loader's path */
	int hide_toolkit;	 /* /usr/local hidden */
	int has_11;		 /* the 11.8 runtime is there */
	const char *uses;	 /* what the stub's log says it loaded, or NULL */
};

/* clang-format off */
static const struct config configs[CONFIGS] = {
	{"11.8",      {"cuda-11.8", NULL},         1, 1, "/libcudart.so.11.0 (11.8, "},
	{"11.8+550",  {"cuda-11.8", "driver-550"}, 1, 1, "/libcudart.so.11.0 (11.8, "},
	{"no CUDA",   {NULL, NULL},                1, 0, NULL},
	{"12.4 only", {"cuda-12.4", NULL},         1, 0, "/libcudart.so.12 (12.4, "},
	{"13.0 only", {NULL, NULL},                0, 0, "/libcudart.so.13 (13.0, "},
};
/* clang-format on */

static struct hw_fixture hw;
static char empty[96];

/* ---- child: the namespace, then lstopo ---- */

/* With HW_HIDE set, an empty folder over /usr/local in a mount namespace
 * of its own (ts_namespace.h: exit 4 when it cannot); then lstopo,
 * under an alarm that survives execve. */
static int lstopo_child(void)
{
	const char *hide = getenv("HW_HIDE"), *program = getenv("HW_LSTOPO");
	char *argv[] = {(char *)program, NULL};

	alarm(CHILD_ALARM);
	if (!program)
		return 3;
	if (hide && ts_bind_usr_local(hide) != 0)
		return TS_NAMESPACE_REFUSED;
	fflush(stdout);
	execv(program, argv);
	return 5;
}

/* ---- parent ---- */

static int prepare(void)
{
	if (hw_prepare(&hw, PLUGIN, "/tmp/cudastub-hwloc-cuda-XXXXXX", *E2E_SANITIZE,
		       !*E2E_ABI11_SHIM_DIR ? "no 11-ABI runtime shim in this build "
					      "(tests/abi_stubs.cmake: the 11.8 headers' fixture)"
					    : NULL))
		return -1;
	snprintf(empty, sizeof empty, "%s/empty", hw.work);
	mkdir(empty, 0755);
	return 0;
}

/* The loader's path of a configuration, after hwloc's own library and
 * (first) extra; 0 when its fixtures are here. */
static int config_path(const struct config *cfg, const char *extra, char *buf, size_t size)
{
	snprintf(buf, size, "LD_LIBRARY_PATH=%s%s%s", extra ? extra : "", extra ? ":" : "", hw.lib);
	for (int i = 0; i < 2 && cfg->fixtures[i]; i++) {
		char dir[PATH_MAX];

		if (!ts_fixture_libdir(cfg->fixtures[i], dir, sizeof dir))
			return -1;
		if (!strcmp(cfg->fixtures[i], "driver-550"))
			strcat(dir, "/nvidia/current");
		snprintf(buf + strlen(buf), size - strlen(buf), ":%s", dir);
	}
	return 0;
}

/* Runs lstopo in one configuration and variant; 0 when it ran (its
 * outcome then asserted by the caller), -1 after reporting why not. */
static int run(const struct config *cfg, int variant, int bind_now, struct ts_child *c)
{
	char path[4 * PATH_MAX], program[PATH_MAX + 16], hide[128], preload[PATH_MAX + 64];
	char plugin_path[128];
	const char *env[10] = {path, program, plugin_path, "HWLOC_PLUGINS_VERBOSE=1",
			       "HWLOC_COMPONENTS_VERBOSE=1"};
	size_t n = 5;

	if (config_path(cfg, variant ? E2E_ABI11_SHIM_DIR : NULL, path, sizeof path) != 0)
		return -1;
	snprintf(program, sizeof program, "HW_LSTOPO=%s", hw.lstopo);
	snprintf(plugin_path, sizeof plugin_path, "HWLOC_PLUGINS_PATH=%s", hw.plugins);
	if (cfg->hide_toolkit) {
		snprintf(hide, sizeof hide, "HW_HIDE=%s", empty);
		env[n++] = hide;
	}
	if (variant == 2) {
		snprintf(preload, sizeof preload, "LD_PRELOAD=%s/libcudart.so.11.0",
			 E2E_ABI11_SHIM_DIR);
		env[n++] = preload;
	}
	if (bind_now)
		env[n++] = "LD_BIND_NOW=1";
	if (variant)
		env[n++] = "CUDASTUB_DEBUG=1"; /* which runtime the stub chose */
	env[n] = NULL;
	if (ts_run_child("lstopo", env, c) != 0) {
		CU_FAIL("the child could not be run");
		return -1;
	}
	return ts_namespace_refused(c) ? -1 : 0;
}

/* hwloc's log lines about the CUDA plugin, in order: what the variants
 * must print alike (the plugin's path is the same file name in each); the
 * stub's own log lines are left out. */
static void plugin_log(const char *err, char *out, size_t size)
{
	*out = '\0';
	for (const char *line = err; line && *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);

		if (memmem(line, len, "cuda", 4) && strncmp(line, "cudastub[", 9) &&
		    strlen(out) + len + 2 < size) {
			strncat(out, line, len);
			strcat(out, "\n");
		}
		line = end ? end + 1 : NULL;
	}
}

/* What no run may show: a crash or hang (the alarm), a loader error, an
 * unresolved symbol. */
static void assert_clean(const char *what, const struct ts_child *c)
{
	if (c->exit_code == 0 && !strstr(c->err, "symbol lookup error") &&
	    !strstr(c->err, "undefined symbol") &&
	    !strstr(c->err, "error while loading shared libraries"))
		return;
	fprintf(stderr, "%s: exit %d\n%s%s\n", what, c->exit_code, c->out, c->err);
	CU_FAIL("lstopo did not end cleanly");
}

static void test_configurations(void)
{
	static struct ts_child shipped, c;
	static char shipped_log[8192], log[8192];
	int runs = 0, without_runtime = 0;

	if (prepare() != 0)
		goto out;
	for (int k = 0; k < CONFIGS; k++) {
		const struct config *cfg = &configs[k];

		if (!cfg->hide_toolkit && !*E2E_TOOLKIT_CUDART13) {
			printf("  %s: no 13.0 toolkit runtime here, not run\n", cfg->name);
			continue;
		}
		for (int bind_now = 0; bind_now <= 1; bind_now++) {
			if (run(cfg, 0, bind_now, &shipped) != 0)
				goto out;
			assert_clean(cfg->name, &shipped);
			plugin_log(shipped.err, shipped_log, sizeof shipped_log);
			if (cfg->has_11) {
				CU_ASSERT_PTR_NOT_NULL(strstr(shipped.err, REGISTERED));
			} else {
				CU_ASSERT_PTR_NOT_NULL(strstr(shipped.err, NOT_LOADED));
				without_runtime++;
			}
			for (int v = 1; v < VARIANTS; v++) {
				char what[128];

				snprintf(what, sizeof what, "%s, %s%s", cfg->name, variant_names[v],
					 bind_now ? ", LD_BIND_NOW=1" : "");
				if (run(cfg, v, bind_now, &c) != 0)
					goto out;
				runs++;
				assert_clean(what, &c);
				CU_ASSERT_PTR_NOT_NULL(strstr(c.err, REGISTERED));
				CU_ASSERT_PTR_NULL(strstr(c.err, "Failed to load plugin"));
				/* the runtime the stub loaded: the machine's, any major */
				if (cfg->uses) {
					CU_ASSERT_PTR_NOT_NULL(strstr(c.err, cfg->uses));
				} else {
					CU_ASSERT_PTR_NULL(
						strstr(c.err, "cudastub[cudart]: using "));
				}
				/* the topology: as shipped prints it, or as it is
				 * without the plugin where that could not load */
				CU_ASSERT_STRING_EQUAL(c.out, shipped.out);
				if (cfg->has_11) {
					plugin_log(c.err, log, sizeof log);
					CU_ASSERT_STRING_EQUAL(log, shipped_log);
				}
			}
		}
		printf("  %s: %s; through the shim and preloaded, the plugin loads and lstopo "
		       "prints the same (%zu bytes)\n",
		       cfg->name,
		       cfg->has_11 ? "the plugin as shipped loads" : "as shipped, it cannot load",
		       strlen(shipped.out));
	}
	/* the machines without the 11.8 runtime ran: the point of the stub */
	CU_ASSERT(without_runtime > 0);
	printf("  %d runs through the stub, none crashed, hung or left a symbol unresolved\n",
	       runs);
out:
	if (*hw.work)
		ts_remove_tree(hw.work);
}

TS_TEST(test_configurations, "as shipped, through the shim, preloaded: the same, or it starts");

static const struct ts_scenario scenarios[] = {{"lstopo", lstopo_child}, {NULL, NULL}};

TS_MAIN_SUITE("hwloc's CUDA plugin (CUDA 11.8), five machines", NULL, NULL, scenarios)

/*
 * Deferred registration, replayed: every stub ABI (11, 12, 13) and its
 * shim, on the fake runtime of every major. The fake logs each call it
 * receives, so a run shows what reached it and in which order:
 *   - nothing is loaded while modules register (registry_child.c);
 *   - the first call that needs the runtime (an API call, __cudaInitModule,
 *     a launch) replays every record first, in the original order,
 *     interleaved modules included, with the stub's handles mapped to the
 *     runtime's ("bad-handle" would show a handle that was not);
 *   - a module unregistered before that is never seen by the runtime;
 *   - registrations after the load are forwarded at once;
 *   - with no runtime, every call returns its documented value.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cudart_test.h"
#include "registry.h"

/* What the fake sees of register_abc() once it is replayed. */
#define REPLAYED_ABC                                                                               \
	"fatbin m0 | function m0 kA1 | "                                                           \
	"function m0 kA3 limit=128 tid=3 bid=4 bdim=5 gdim=6 wsize=7 | "                           \
	"function m0 kA4 limit=-1 tid=-1 bid=4 bdim=-1 gdim=-1 wsize=-1 | "                        \
	"function m0 kA5 limit=-1 tid=-1 bid=-1 bdim=-1 gdim=6 wsize=-1 | "                        \
	"function m0 kA6 limit=-1 tid=-1 bid=-1 bdim=-1 gdim=-1 wsize=7 | var m0 vA 4 | "          \
	"var m0 cA 4 ext=1 constant=1 global=1 | fatbin m1 | function m1 kB1 | "                   \
	"managed m0 mA 8 | end m0 | end m1"
/* The loader's version probe, when it opens the fake. */
#define PROBE "call cudaRuntimeGetVersion"

const char *rg_fake_path(int major)
{
	static char paths[16][4096];
	char *path = paths[major % 16];
	char why[4300];

	snprintf(path, sizeof paths[0], "%s/tests/cudart/fakes/cudart-%d/libcudart.so.%s",
		 ts_build_dir(), major,
		 major == 11   ? "11.0"
		 : major == 12 ? "12"
			       : "13");
	if (access(path, R_OK) == 0)
		return path;
	snprintf(why, sizeof why, "%s was not built (fetch the headers, then re-run cmake)", path);
	ts_unavailable(why);
	return NULL;
}

/* The stub (shim = 0) or shim (1) of an ABI, or NULL after a skip. */
static const char *stub_of(int abi, int shim)
{
	const char *path = shim ? ct_abi_shim(abi) : ct_abi_stub(abi);
	char why[128];

	if (path)
		return path;
	snprintf(why, sizeof why, "the %d-ABI %s was not built (fetch the headers first)", abi,
		 shim ? "shim" : "stub");
	ts_unavailable(why);
	return NULL;
}

static int run(const char *label, const char *scenario, const char *stub, const char *runtime,
	       struct ts_child *child)
{
	struct ts_env env = {0};

	ts_env_add(&env, "RG_STUB=%s", stub);
	ts_env_add(&env, "CUDASTUB_CUDART_PATH=%s", runtime);
	return ts_run_scenario(label, scenario, &env, child);
}

static void test_replay(void)
{
	static const char want[] =
		PROBE " | " REPLAYED_ABC " | call cudaGetDeviceCount | fatbin m2 | "
		      "function m2 kD1 | end m2 | function m0 kA2 | init m0 | "
		      "call __cudaPushCallConfiguration | launch kB1 | launch unregistered | "
		      "unregister m0 | unregister m1 | unregister m2";
	struct ts_child c;
	char label[64];

	for (int abi = 11; abi <= 13; abi++) {
		for (int shim = 0; shim <= 1; shim++) {
			const char *stub = stub_of(abi, shim);

			for (int major = 11; stub && major <= 13; major++) {
				const char *fake = rg_fake_path(major);

				snprintf(label, sizeof label, "%d-ABI %s on fake %d", abi,
					 shim ? "shim" : "stub", major);
				if (!fake || !run(label, "replay", stub, fake, &c))
					continue;
				TS_EXPECT_INT(label, &c, "loaded_before_first_call", 0);
				TS_EXPECT_INT(label, &c, "stub_handles", 1);
				TS_EXPECT_INT(label, &c, "count_rc", cudaSuccess);
				TS_EXPECT_INT(label, &c, "loaded_after_first_call", 1);
				TS_EXPECT_INT(label, &c, "runtime_handle", 1);
				TS_EXPECT_INT(label, &c, "init", 1);
				TS_EXPECT_INT(label, &c, "managed_value", 42);
				TS_EXPECT_INT(label, &c, "launch_b_rc", cudaSuccess);
				TS_EXPECT_INT(label, &c, "launch_c_rc",
					      cudaErrorInvalidDeviceFunction);
				TS_EXPECT(label, &c, "events", want);
			}
		}
	}
}

static void test_init_module_first(void)
{
	static const char want[] = PROBE " | " REPLAYED_ABC " | init m0";
	struct ts_child c;
	char label[64];

	for (int major = 11; major <= 13; major++) {
		const char *fake = rg_fake_path(major);

		snprintf(label, sizeof label, "stub on fake %d", major);
		if (!fake || !run(label, "init_first", ct_stub(), fake, &c))
			continue;
		TS_EXPECT_INT(label, &c, "init", 1);
		TS_EXPECT_INT(label, &c, "managed_value", 42);
		TS_EXPECT(label, &c, "events", want);
	}
}

static void test_launch_first(void)
{
	static const char want[] =
		PROBE " | " REPLAYED_ABC " | call __cudaPushCallConfiguration | launch kA1";
	struct ts_child c;
	char label[64];

	for (int major = 11; major <= 13; major++) {
		const char *fake = rg_fake_path(major);

		snprintf(label, sizeof label, "stub on fake %d", major);
		if (!fake || !run(label, "launch_first", ct_stub(), fake, &c))
			continue;
		TS_EXPECT_INT(label, &c, "launch_a_rc", cudaSuccess);
		TS_EXPECT(label, &c, "events", want);
	}
}

static void test_no_runtime(void)
{
	struct ts_child c;
	char label[64];

	for (int abi = 11; abi <= 13; abi++) {
		for (int shim = 0; shim <= 1; shim++) {
			const char *stub = stub_of(abi, shim);

			snprintf(label, sizeof label, "%d-ABI %s, no runtime", abi,
				 shim ? "shim" : "stub");
			if (!stub || !run(label, "no_runtime", stub, "/nonexistent", &c))
				continue;
			TS_EXPECT_INT(label, &c, "count_rc", CT_NO_RUNTIME);
			TS_EXPECT_INT(label, &c, "init", 0);
			TS_EXPECT_INT(label, &c, "push", 0);
			TS_EXPECT_INT(label, &c, "launch_rc", CT_NO_RUNTIME);
			TS_EXPECT_INT(label, &c, "last_rc", CT_NO_RUNTIME);
			TS_EXPECT_INT(label, &c, "managed", 0);
		}
	}
}

static void register_suites(void)
{
	CU_pSuite s = CU_add_suite("cudart: deferred registration, replayed", NULL, NULL);

	CU_add_test(s, "every ABI and shim on every fake: order, handles, after the load",
		    test_replay);
	CU_add_test(s, "__cudaInitModule (a __managed__ access) first: replays, then inits",
		    test_init_module_first);
	CU_add_test(s, "a launch first: replays, then launches a registered kernel",
		    test_launch_first);
	CU_add_test(s, "no runtime: documented values, nothing loaded, no crash", test_no_runtime);
	rg_register_fork_suite();
}

int main(int argc, char **argv)
{
	static const struct ts_scenario scenarios[] = {
		{"replay", rg_scenario_replay},
		{"init_first", rg_scenario_init_first},
		{"launch_first", rg_scenario_launch_first},
		{"no_runtime", rg_scenario_no_runtime},
		{"cancel_in_fork", rg_scenario_cancel_in_fork},
		{"cancel_in_first_call", rg_scenario_cancel_in_first_call},
		{"fork_during_replay", rg_scenario_fork_during_replay},
		{NULL, NULL},
	};

	return ts_main(argc, argv, scenarios, register_suites);
}

/*
 * The search steps, in order: each test offers a fake in the step under
 * test and different fakes in later steps, and checks which one answered
 * (its version, its nvrtcGetPTX tag) and which step the stub says found it.
 *
 * The temporary tree, made once for the suite:
 *   T/home12/lib64/libnvrtc.so.12     CUDA_HOME-style root with fake 12
 *   T/home13/lib64/libnvrtc.so.13     ... with fake 13
 *   T/path11/lib/libnvrtc.so.11.2     CUDA_PATH-style root with fake 11
 *   T/empty/                          a root with nothing in it
 *   T/wheel13/site-packages/pkg/lib/libnvrtc_stub.so     a copy of the stub
 *   T/wheel13/site-packages/nvidia/cu13/lib/libnvrtc.so.13
 *   T/wheel12/site-packages/pkg/lib/libnvrtc_stub.so
 *   T/wheel12/site-packages/nvidia/cuda_nvrtc/lib/libnvrtc.so.12
 *   T/renamed/libnvrtc-renamed.so     a copy of fake 12 (SONAME libnvrtc.so.12)
 */
#define _GNU_SOURCE
#include "loader_test.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

static char tree[1024];

static const char *in_tree(const char *rel)
{
	return ld_fmt("%s/%s", tree, rel);
}

static int place(const char *rel_dir, const char *variant)
{
	char dir[4096];

	snprintf(dir, sizeof dir, "%s/%s", tree, rel_dir);
	if (ld_mkdirs(dir) != 0)
		return -1;
	return ld_link(ld_fake(variant), ld_fmt("%s/%s", dir, ld_fake_file_name(variant)));
}

static int place_stub(const char *rel_dir)
{
	char dir[4096];

	snprintf(dir, sizeof dir, "%s/%s", tree, rel_dir);
	if (ld_mkdirs(dir) != 0)
		return -1;
	return ts_copy_file(ld_stub(), ld_fmt("%s/libnvrtc_stub.so", dir));
}

static int suite_init(void)
{
	if (!ld_tmpdir(tree, sizeof tree))
		return -1;
	if (ld_mkdirs(in_tree("empty")) != 0)
		return -1;
	return place("home12/lib64", "nvrtc-12") || place("home13/lib64", "nvrtc-13") ||
	       place("path11/lib", "nvrtc-11") || place_stub("wheel13/site-packages/pkg/lib") ||
	       place("wheel13/site-packages/nvidia/cu13/lib", "nvrtc-13") ||
	       place_stub("wheel12/site-packages/pkg/lib") ||
	       place("wheel12/site-packages/nvidia/cuda_nvrtc/lib", "nvrtc-12") ||
	       ld_mkdirs(in_tree("renamed")) ||
	       ts_copy_file(ld_fake("nvrtc-12"), in_tree("renamed/libnvrtc-renamed.so"));
}

static int suite_clean(void)
{
	ts_remove_tree(tree);
	return 0;
}

#define STUB13 "TEST_STUB={tree}/wheel13/site-packages/pkg/lib/libnvrtc_stub.so"
#define STUB12 "TEST_STUB={tree}/wheel12/site-packages/pkg/lib/libnvrtc_stub.so"

/* Each case offers a fake in the step under test and others in later
 * steps; the one that answers shows which step the stub took. */
static const struct ld_probe_case cases[] = {
	/* An override file beats an already-loaded copy, CUDA_HOME and the
	 * loader. */
	{.name = "override file beats everything",
	 .env = {"CUDASTUB_NVRTC_PATH={fake nvrtc-12}", "TEST_PRELOAD={fake nvrtc-11}",
		 "CUDA_HOME={tree}/home13", "LD_LIBRARY_PATH={fakedir nvrtc-13}"},
	 .outcome = LD_LOADS(12, 4, CUDASTUB_SOURCE_OVERRIDE),
	 .checks = {{LD_IS, "preload", "ok"},
		    {LD_IS, "path", "{fake nvrtc-12}"},
		    {LD_IS, "attempts", "1"},
		    {LD_IS, "dlopen_calls", "1"}}},
	/* An override folder is searched newest major first, and nothing else
	 * is. */
	{.name = "override folder beats everything",
	 .env = {"CUDASTUB_NVRTC_PATH={fakedir nvrtc-11}", "TEST_PRELOAD={fake nvrtc-12}",
		 "CUDA_HOME={tree}/home13", "LD_LIBRARY_PATH={fakedir nvrtc-13}"},
	 .outcome = LD_LOADS(11, 8, CUDASTUB_SOURCE_OVERRIDE),
	 .checks = {{LD_HAS, "path", "nvrtc-11/libnvrtc.so.11.2"},
		    {LD_ATTEMPT, "nvrtc-11/libnvrtc.so.13", "absent"},
		    {LD_ATTEMPT, "nvrtc-11/libnvrtc.so.12", "absent"},
		    {LD_IS, "attempts", "3"}}},
	/* A copy the process already loaded beats pip wheels, CUDA_HOME, the
	 * loader; the fake's constructor ran once: the stub reused it, did not
	 * reload. */
	{.name = "already loaded",
	 .env = {STUB13, "TEST_PRELOAD={fake nvrtc-12}", "CUDA_HOME={tree}/home13",
		 "LD_LIBRARY_PATH={fakedir nvrtc-13}"},
	 .outcome = LD_LOADS(12, 4, CUDASTUB_SOURCE_ALREADY_LOADED),
	 .checks = {{LD_IS, "preload", "ok"},
		    {LD_IS, "path", "{fake nvrtc-12}"},
		    {LD_IS, "fake_loads", "1"}}},
	/* Already loaded is by SONAME too: a copy loaded under a file name of
	 * its own (a packager's renamed library) is the one the stub takes, not
	 * the 13 on LD_LIBRARY_PATH. */
	{.name = "already loaded under another file name",
	 .env = {"TEST_PRELOAD={tree}/renamed/libnvrtc-renamed.so",
		 "LD_LIBRARY_PATH={fakedir nvrtc-13}"},
	 .outcome = LD_LOADS(12, 4, CUDASTUB_SOURCE_ALREADY_LOADED),
	 .checks = {{LD_IS, "preload", "ok"},
		    {LD_HAS, "path", "renamed/libnvrtc-renamed.so"},
		    {LD_IS, "fake_loads", "1"}}},
	/* pip's CUDA 13 layout: site-packages/nvidia/cu13/lib beside the stub. */
	{.name = "pip wheel nvidia/cu13",
	 .env = {STUB13, "CUDA_HOME={tree}/home12", "LD_LIBRARY_PATH={fakedir nvrtc-12}"},
	 .outcome = LD_LOADS(13, 0, CUDASTUB_SOURCE_PIP_WHEEL),
	 .checks = {{LD_IS, "path",
		     "{tree}/wheel13/site-packages/nvidia/cu13/lib/libnvrtc.so.13"}}},
	/* pip's CUDA 12 layout wins over a newer major in a later step. */
	{.name = "pip wheel nvidia/cuda_nvrtc (12)",
	 .env = {STUB12, "CUDA_HOME={tree}/home13", "LD_LIBRARY_PATH={fakedir nvrtc-13}"},
	 .outcome = LD_LOADS(12, 4, CUDASTUB_SOURCE_PIP_WHEEL),
	 .checks = {{LD_IS, "path",
		     "{tree}/wheel12/site-packages/nvidia/cuda_nvrtc/lib/libnvrtc.so.12"}}},
	{.name = "CUDA_HOME beats LD_LIBRARY_PATH",
	 .env = {"CUDA_HOME={tree}/home12", "LD_LIBRARY_PATH={fakedir nvrtc-13}"},
	 .outcome = LD_LOADS(12, 4, CUDASTUB_SOURCE_CUDA_HOME),
	 .checks = {{LD_IS, "path", "{tree}/home12/lib64/libnvrtc.so.12"}}},
	{.name = "CUDA_PATH when CUDA_HOME unset",
	 .env = {"CUDA_PATH={tree}/path11", "LD_LIBRARY_PATH={fakedir nvrtc-13}"},
	 .outcome = LD_LOADS(11, 8, CUDASTUB_SOURCE_CUDA_HOME),
	 .checks = {{LD_IS, "path", "{tree}/path11/lib/libnvrtc.so.11.2"}}},
	{.name = "CUDA_HOME before CUDA_PATH",
	 .env = {"CUDA_HOME={tree}/home12", "CUDA_PATH={tree}/home13"},
	 .outcome = LD_LOADS(12, 4, CUDASTUB_SOURCE_CUDA_HOME)},
	/* A CUDA_HOME with nothing in it falls through to CUDA_PATH. */
	{.name = "empty CUDA_HOME falls through",
	 .env = {"CUDA_HOME={tree}/empty", "CUDA_PATH={tree}/path11"},
	 .outcome = LD_LOADS(11, 8, CUDASTUB_SOURCE_CUDA_HOME),
	 .checks = {{LD_ATTEMPT, "{tree}/empty/lib64/libnvrtc.so.13", "absent"}}},
	/* Nothing earlier: the loader's search finds the fake in
	 * LD_LIBRARY_PATH (before ld.so.cache, which holds this machine's real
	 * libnvrtc.so.13). */
	{.name = "LD_LIBRARY_PATH",
	 .env = {"LD_LIBRARY_PATH={fakedir nvrtc-13}"},
	 .outcome = LD_LOADS(13, 0, CUDASTUB_SOURCE_LOADER_SEARCH),
	 .checks = {{LD_IS, "path", "{fake nvrtc-13}"}}},
	{.name = "LD_LIBRARY_PATH, pinned to 12",
	 .env = {"LD_LIBRARY_PATH={fakedir nvrtc-12}", "CUDASTUB_NVRTC_MAJOR=12"},
	 .outcome = LD_LOADS(12, 4, CUDASTUB_SOURCE_LOADER_SEARCH)},
	{.name = NULL},
};

static void run_case(const void *row)
{
	ld_run_probe_case(row, tree);
}

static const struct ts_suite suite = {"search_order", suite_init, suite_clean, NULL};

int main(int argc, char **argv)
{
	static const struct ts_scenario scenarios[] = {LD_PROBE_SCENARIO, {NULL, NULL}};

	return ld_main_rows(argc, argv, scenarios, &suite, cases, sizeof *cases, run_case);
}

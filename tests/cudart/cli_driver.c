/*
 * cudastub info shows the driver the runtime stub's choice rested on, and
 * why: "driver_version" and "choice" in each JSON entry, a "driver:" line
 * in the text. With Debian's 550 driver (CUDA 12.4) and the 12.4 runtime on
 * LD_LIBRARY_PATH, and the 13.0 runtime under CUDA_HOME, the report says
 * 12040 and why 12.4 was taken; with no driver, 0, null, and 13.0.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cli_run.h"
#include "cudart_test.h"

static const char *const text_args[] = {"info", NULL};

/* LD_LIBRARY_PATH (the driver's folder first, when with_driver) and
 * CUDA_HOME; 0 after reporting a missing fixture. */
static int environment(struct ts_env *env, int with_driver)
{
	char driver[PATH_MAX], rt12[PATH_MAX], rt13[PATH_MAX], *cut;

	if (!ts_driver_dir(driver, sizeof driver) ||
	    !ct_runtime_dir(&ct_runtimes[1], rt12, sizeof rt12) ||
	    !ct_runtime_dir(&ct_runtimes[2], rt13, sizeof rt13))
		return 0;
	cut = strrchr(rt13, '/'); /* <toolkit>/lib64 -> <toolkit> */
	if (cut)
		*cut = '\0';
	if (with_driver)
		ts_env_add(env, "LD_LIBRARY_PATH=%s:%s", driver, rt12);
	else
		ts_env_add(env, "LD_LIBRARY_PATH=%s", rt12);
	ts_env_add(env, "CUDA_HOME=%s", rt13);
	return 1;
}

/* Every entry has both keys, of the right type. */
static void check_shape(const struct jv *doc)
{
	const struct jv *libs = jv_get(doc, "libraries");

	CU_ASSERT_FATAL(libs && libs->type == JV_ARRAY && libs->count > 0);
	for (size_t i = 0; i < libs->count; i++) {
		const struct jv *l = libs->items[i];
		const struct jv *v = jv_get(l, "driver_version");

		CU_ASSERT(v && v->type == JV_NUMBER);
		CU_ASSERT(jv_str(l, "choice") || jv_is_null(l, "choice"));
	}
}

/* cudastub info --json in the environment, its every entry checked; the
 * document, and its runtime's entry in *cudart, or NULL after reporting a
 * missing fixture. */
static struct jv *info_json(int with_driver, const struct jv **cudart)
{
	struct ts_env env = {0};
	struct ts_child out;
	struct jv *doc;

	if (!environment(&env, with_driver))
		return NULL;
	doc = cli_info_json_at(CT_CLI, env.list, &out);
	check_shape(doc);
	*cudart = jv_library(doc, "cudart");
	CU_ASSERT_PTR_NOT_NULL_FATAL(*cudart);
	return doc;
}

static void test_json_with_driver(void)
{
	const struct jv *l;
	struct jv *doc = info_json(1, &l);

	if (!doc)
		return;
	CU_ASSERT_STRING_EQUAL(jv_str(l, "state"), "loaded");
	CU_ASSERT_EQUAL(jv_num(l, "major", -1), 12);
	CU_ASSERT_EQUAL(jv_num(l, "minor", -1), 4);
	CU_ASSERT_EQUAL(jv_num(l, "driver_version", -1), 12040);
	CU_ASSERT_PTR_NOT_NULL(jv_str(l, "choice") ? strstr(jv_str(l, "choice"), "12.4") : NULL);
	CU_ASSERT_STRING_EQUAL(jv_str(l, "reason"), "driver");
	CU_ASSERT(jv_is_null(l, "driver_missing"));
	/* NVRTC keeps to the release the runtime (searched first) loaded */
	l = jv_library(doc, "nvrtc");
	if (l) {
		CU_ASSERT_EQUAL(jv_num(l, "driver_version", -1), 0);
		CU_ASSERT_PTR_NOT_NULL(jv_str(l, "choice") ? strstr(jv_str(l, "choice"),
								    "libcudart.so.12 is loaded")
							   : NULL);
		CU_ASSERT_STRING_EQUAL(jv_str(l, "reason"), "in process");
	}
	jv_free(doc);
}

TS_TEST(test_json_with_driver, "JSON with a 12.4 driver: 12040 and why 12.4");

static void test_json_without_driver(void)
{
	const struct jv *l;
	struct jv *doc;

	if (ts_machine_has_driver()) {
		ts_unavailable("this machine has a driver (libcuda.so.1); the no-driver report "
			       "needs a machine without one");
		return;
	}
	doc = info_json(0, &l);
	if (!doc)
		return;
	CU_ASSERT_EQUAL(jv_num(l, "major", -1), 13);
	CU_ASSERT_EQUAL(jv_num(l, "driver_version", -1), 0);
	CU_ASSERT(jv_is_null(l, "choice"));
	CU_ASSERT_STRING_EQUAL(jv_str(l, "reason"), "nothing answered");
	CU_ASSERT_PTR_NOT_NULL(jv_str(l, "driver_missing"));
	jv_free(doc);
}

TS_TEST(test_json_without_driver, "JSON without a driver: 0, null, 13.0");

static void test_text(void)
{
	struct ts_env with = {0}, without = {0};
	struct ts_child out;

	if (!environment(&with, 1) || !environment(&without, 0))
		return;
	CU_ASSERT_EQUAL_FATAL(cli_run(CT_CLI, text_args, with.list, &out), 0);
	CU_ASSERT_EQUAL(out.exit_code, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "driver: CUDA 12.4 (cuDriverGetVersion 12040)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "up to CUDA 12 searched first"));
	CU_ASSERT_PTR_NOT_NULL(strstr(
		out.out,
		"release: libcudart.so.12 is loaded in this process: CUDA 12 searched first"));
	if (ts_machine_has_driver())
		return;
	CU_ASSERT_EQUAL_FATAL(cli_run(CT_CLI, text_args, without.list, &out), 0);
	CU_ASSERT_EQUAL(out.exit_code, 0);
	/* the runtime, searched first, had no driver to ask; NVRTC then keeps
	 * to the runtime's release */
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "release: no preference: no CUDA library in the "
					       "process and no driver answered"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "  driver: none: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(
		out.out,
		"release: libcudart.so.13 is loaded in this process: CUDA 13 searched first"));
	CU_ASSERT_PTR_NULL(strstr(out.out, "driver: CUDA"));
}

TS_TEST(test_text, "text: a driver line for the runtime");

TS_MAIN_SUITE("cudastub info: driver and choice", NULL, NULL, NULL)

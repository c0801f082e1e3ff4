/*
 * The installed cudastub finds the installed stub through its RUNPATH
 * ($ORIGIN/../lib), with no LD_LIBRARY_PATH and no build tree.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_run.h"
#include "cli_suites.h"

static struct ts_child out;

static void test_installed_binary(void)
{
	char prefix[] = "/tmp/cudastub-install-XXXXXX", cli[4200];
	char *argv[] = {E2E_CMAKE, "--install", (char *)ts_build_dir(), "--prefix", prefix, NULL};
	const char *const *env = cli_real_nvrtc_env();
	struct jv *doc;

	if (!env)
		return;
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(prefix));
	CU_ASSERT_EQUAL_FATAL(ts_run_program(argv, NULL, NULL, &out), 0);
	if (out.exit_code != 0)
		fprintf(stderr, "cmake --install failed:\n%s\n%s\n", out.out, out.err);
	CU_ASSERT_EQUAL(out.exit_code, 0);
	snprintf(cli, sizeof cli, "%s/bin/cudastub", prefix);
	CU_ASSERT_EQUAL(access(cli, X_OK), 0);
	doc = cli_info_json_at(cli, env, &out);
	if (doc) {
		CU_ASSERT_STRING_EQUAL(jv_str(jv_library(doc, "nvrtc"), "state"), "loaded");
		CU_ASSERT_STRING_EQUAL(jv_str(jv_library(doc, "nvrtc"), "path"), E2E_REAL_NVRTC);
	}
	jv_free(doc);
	ts_remove_tree(prefix);
}

void register_cli_install(void)
{
	CU_pSuite s = CU_add_suite("cli_install", NULL, NULL);

	CU_add_test(s, "the installed command finds the installed stub", test_installed_binary);
}

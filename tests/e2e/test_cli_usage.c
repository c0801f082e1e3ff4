/* cudastub --help, --version, and what a usage error does. */
#include <string.h>

#include "cli_run.h"
#include "cli_suites.h"

static struct ts_child out;

static void test_help(void)
{
	static const char *const args[] = {"--help", NULL};

	CU_ASSERT_EQUAL_FATAL(cli_run(E2E_CLI, args, NULL, &out), 0);
	CU_ASSERT_EQUAL(out.exit_code, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "Usage: cudastub <command>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "  info "));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "CUDASTUB_<LIB>_PATH"));
	CU_ASSERT_STRING_EQUAL(out.err, "");
	/* LIB's words come from the generated list: one a library */
	{
		const char *words = strstr(out.out, "(LIB is "), *end = strstr(out.out, "):\n");
		int commas = 0;

		CU_ASSERT_PTR_NOT_NULL_FATAL(words);
		CU_ASSERT_PTR_NOT_NULL_FATAL(end);
		for (const char *c = words; c < end; c++)
			commas += *c == ',';
		CU_ASSERT_EQUAL(commas + 1, E2E_LIBRARY_COUNT);
		CU_ASSERT_PTR_NOT_NULL(strstr(words, " CUDART,"));
		CU_ASSERT_PTR_NOT_NULL(strstr(words, " NVJITLINK,"));
	}
}

static void test_info_help(void)
{
	static const char *const args[] = {"info", "--help", NULL};

	CU_ASSERT_EQUAL_FATAL(cli_run(E2E_CLI, args, NULL, &out), 0);
	CU_ASSERT_EQUAL(out.exit_code, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(
		out.out, "Usage: cudastub info [LIB...] [--abi MAJOR] [--stub PATH] [--json]"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "--stub PATH"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "--abi MAJOR"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "cuda_driver is cuda"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "Exit status: 0 when every LIB named"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "1 when one was not found"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "2 on a usage error"));
}

static void test_version(void)
{
	static const char *const args[] = {"--version", NULL};
	static const char first_line[] = "cudastub " E2E_PROJECT_VERSION "\n";
	/* every ABI the records hold, newest first, and where the stubs are */
	static const char abis[] = "stubs for the CUDA ABIs 13, 12, 11 in ";

	CU_ASSERT_EQUAL_FATAL(cli_run(E2E_CLI, args, NULL, &out), 0);
	CU_ASSERT_EQUAL(out.exit_code, 0);
	CU_ASSERT_EQUAL(strncmp(out.out, first_line, strlen(first_line)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, abis));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, E2E_BUILD_DIR "/lib\n"));
}

/* Each is a usage error: exit 2, the usage on stderr, nothing on stdout. */
static void expect_usage_error(const char *const *args, const char *message)
{
	CU_ASSERT_EQUAL_FATAL(cli_run(E2E_CLI, args, NULL, &out), 0);
	CU_ASSERT_EQUAL(out.exit_code, 2);
	CU_ASSERT_STRING_EQUAL(out.out, "");
	CU_ASSERT_PTR_NOT_NULL(strstr(out.err, message));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.err, "Usage: cudastub"));
}

static void test_usage_errors(void)
{
	static const char *const none[] = {NULL};
	static const char *const command[] = {"frobnicate", NULL};
	static const char *const option[] = {"--frobnicate", NULL};
	static const char *const info_option[] = {"info", "--yaml", NULL};
	static const char *const info_library[] = {"info", "nosuchlib", NULL};
	static const char *const stub_no_path[] = {"info", "--stub", NULL};
	static const char *const stub_empty[] = {"info", "--stub=", NULL};
	static const char *const stub_and_lib[] = {"info", "--stub=x.so", "nvrtc", NULL};

	expect_usage_error(none, "no command given");
	expect_usage_error(command, "unknown command 'frobnicate'");
	expect_usage_error(option, "unknown option '--frobnicate'");
	expect_usage_error(info_option, "cudastub info: unknown argument '--yaml'");
	expect_usage_error(info_library, "cudastub info: unknown library 'nosuchlib'");
	expect_usage_error(stub_no_path, "cudastub info: --stub needs a PATH");
	expect_usage_error(stub_empty, "cudastub info: --stub needs a PATH");
	expect_usage_error(stub_and_lib, "--stub reports the file's own library");
}

void register_cli_usage(void)
{
	CU_pSuite s = CU_add_suite("cli_usage", NULL, NULL);

	CU_add_test(s, "--help prints the usage, exit 0", test_help);
	CU_add_test(s, "info --help prints the info usage", test_info_help);
	CU_add_test(s, "--version names the version and the stub ABIs", test_version);
	CU_add_test(s, "usage errors exit 2 with the usage on stderr", test_usage_errors);
}

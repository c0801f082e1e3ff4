/*
 * cudastub built where there is nothing of NVIDIA's, by README.md's first
 * command: a child in a mount namespace of its own, with an empty folder
 * over /usr/local (the toolkit: its headers, libraries and nvcc) and over
 * the fixtures (the 11.8 and 12.4 headers and libraries), runs the block
 * after README's <!-- main-command --> in a copy of the source tree, as a
 * reader runs it in a fresh checkout, then installs that build. Its
 * compiler finds no cuda.h, and the build makes the stubs of every library
 * for every CUDA ABI all the same: each file the plain build made, under
 * the same name (the tag hashes the exports), with the same dynamic
 * symbols and versions. The command it installed runs there and finds no
 * CUDA. (e2e_doc_blocks leaves that block to this test.)
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "test_support.h"
#include "ts_child.h"
#include "ts_namespace.h"

#ifndef E2E_LAUNCHER
#define E2E_LAUNCHER ""
#endif

/* Under the build folder, at a fixed place: the nested build compiles the
 * same paths each run, which a compiler cache then serves. */
static char work[PATH_MAX];
static struct ts_child built;

/* ---- the child: hides NVIDIA's files, then builds ---- */

static int scenario_build(void)
{
	const char *fixtures = getenv("NC_FIXTURES");
	char empty[PATH_MAX + 16], cmd[8 * PATH_MAX];
	int rc;

	snprintf(empty, sizeof empty, "%s/empty", getenv("NC_WORK"));
	rc = ts_bind_usr_local(empty);
	if (rc != 0)
		return rc;
	if (fixtures && *fixtures && access(fixtures, F_OK) == 0 &&
	    mount("none", fixtures, "tmpfs", 0, NULL) != 0) {
		printf("namespace=tmpfs over the fixtures\n");
		return TS_NAMESPACE_REFUSED;
	}
	fflush(stdout);
	/* whether the compiler still finds a CUDA header anywhere */
	rc = system("printf '#include <cuda.h>\\n#include <cuda_runtime_api.h>\\n' | "
		    "cc -E -x c - >/dev/null 2>&1");
	printf("cuda_h_found=%d\n", rc == 0);
	fflush(stdout);
	/* the copy holds what a checkout holds: no version control, no build;
	 * the compiler launcher, where the suite has one, through CMake's
	 * variable of the environment, so the command runs as written */
	snprintf(cmd, sizeof cmd,
		 "set -e; cd '%1$s'; mkdir checkout; "
		 "tar -C '%2$s' --exclude=./.git --exclude='./build*' --exclude=./python/build "
		 "-cf - . | tar -C checkout -xf -; "
		 "awk '/<!-- main-command -->/ { found = 1; next } "
		 "found && /^```sh/ { inside = 1; next } inside && /^```/ { exit } "
		 "inside { print }' checkout/README.md >main-command.sh; "
		 "test -s main-command.sh; "
		 "if [ -n '%3$s' ]; then export CMAKE_C_COMPILER_LAUNCHER='%3$s'; fi; "
		 "(cd checkout && bash -e -o pipefail ../main-command.sh) >main-command.log 2>&1; "
		 "cmake --install checkout/build --prefix '%1$s/installed' >install.log 2>&1; "
		 "installed/bin/cudastub info >info.txt 2>&1",
		 getenv("NC_WORK"), CUDASTUB_TEST_SOURCE_DIR, E2E_LAUNCHER);
	rc = system(cmd);
	printf("build_rc=%d\n", rc);
	return 0;
}

/* ---- the parent ---- */

/* Runs cmd with bash; its exit code. */
static int bash(const char *cmd)
{
	char *argv[] = {"/bin/bash", "-c", (char *)cmd, NULL};
	struct ts_child c;

	if (ts_run_program(argv, NULL, NULL, &c) != 0)
		return -1;
	return c.exit_code;
}

static char *read_text(const char *path)
{
	static char text[65536];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(text, 1, sizeof text - 1, f);
	text[n] = '\0';
	fclose(f);
	return text;
}

static int suite_init(void)
{
	char cmd[PATH_MAX + 64];
	struct ts_env env = {0};

	snprintf(work, sizeof work, "%s/cudastub-no-cuda", ts_build_dir());
	ts_remove_tree(work);
	snprintf(cmd, sizeof cmd, "mkdir -p '%s/empty'", work);
	if (system(cmd) != 0)
		return 1;
	ts_env_add(&env, "NC_WORK=%s", work);
	ts_env_add(&env, "NC_FIXTURES=%s",
		   getenv("CUDASTUB_FIXTURES") ? getenv("CUDASTUB_FIXTURES") : "");
	if (ts_run_child("build", env.list, &built) != 0)
		built.exit_code = -1;
	return 0;
}

static int suite_clean(void)
{
	ts_remove_tree(work);
	return 0;
}

/* Whether the child made its namespace and ran the build; reports why not. */
static int ran(void)
{
	if (ts_namespace_refused(&built))
		return 0;
	if (built.exit_code != 0) {
		CU_FAIL("the child did not run the build");
		return 0;
	}
	return 1;
}

static void print_log(const char *name)
{
	char cmd[PATH_MAX + 64];

	snprintf(cmd, sizeof cmd, "tail -40 '%s/%s' >&2", work, name);
	if (system(cmd) != 0)
		fprintf(stderr, "(no %s)\n", name);
}

static void test_builds_without_cuda(void)
{
	if (!ran())
		return;
	/* the namespace hid every CUDA header */
	CU_ASSERT_EQUAL(ts_number(&built, "cuda_h_found"), 0);
	if (ts_number(&built, "build_rc") != 0) {
		print_log("main-command.sh");
		print_log("main-command.log");
		print_log("install.log");
	}
	CU_ASSERT_EQUAL(ts_number(&built, "build_rc"), 0);
}

TS_TEST(test_builds_without_cuda,
	"README's first command builds with no CUDA header, and installs");

/* Every stub file the plain build made (what its links lib<lib>_stub_cu<N>.so
 * and libcudastub_cu<N>.so name) is in the nested build's lib/, with the
 * same dynamic symbols and versions. */
static void test_same_stubs(void)
{
	char mine[PATH_MAX + 16];
	struct dirent *e;
	DIR *d;
	int files = 0, same = 0;

	if (!ran())
		return;
	snprintf(mine, sizeof mine, "%s/lib", ts_build_dir());
	d = opendir(mine);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	while ((e = readdir(d)) != NULL) {
		char cmd[4 * PATH_MAX], link[PATH_MAX + 300], file[256];
		ssize_t n;

		if (e->d_type != DT_LNK || !strstr(e->d_name, "_cu") || strchr(e->d_name, '-'))
			continue;
		snprintf(link, sizeof link, "%s/%s", mine, e->d_name);
		n = readlink(link, file, sizeof file - 1);
		if (n <= 0)
			continue;
		file[n] = '\0';
		files++;
		snprintf(
			cmd, sizeof cmd,
			"cmp -s <(nm -D --defined-only --with-symbol-versions '%s/%s' | cut -c18-) "
			"<(nm -D --defined-only --with-symbol-versions '%s/checkout/build/lib/%s' "
			"| "
			"cut -c18-)",
			mine, file, work, file);
		if (bash(cmd) == 0)
			same++;
		else
			fprintf(stderr,
				"%s: missing, or other symbols, in the build without CUDA\n", file);
	}
	closedir(d);
	/* at least the runtime's, NVRTC's and the driver's stubs of 3 ABIs */
	CU_ASSERT(files >= 9);
	CU_ASSERT_EQUAL(same, files);
}

TS_TEST(test_same_stubs, "every stub of every ABI, the same exports as the plain build's");

static void test_command_runs(void)
{
	char path[PATH_MAX + 32];
	char *text;

	if (!ran() || ts_number(&built, "build_rc") != 0)
		return;
	snprintf(path, sizeof path, "%s/info.txt", work);
	text = read_text(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	/* nothing to load: each library's search ran and found nothing */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\ncudart      not found"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\nnvrtc       not found"));
	CU_ASSERT_PTR_NULL(strstr(text, "  loaded  "));
	if (strstr(text, "  loaded  "))
		fprintf(stderr, "%s", text);
}

TS_TEST(test_command_runs, "the command it installed runs, and finds no CUDA");

static const struct ts_scenario scenarios[] = {{"build", scenario_build}, {NULL, NULL}};

TS_MAIN_SUITE("e2e: built with nothing of NVIDIA's on the machine", suite_init, suite_clean,
	      scenarios)

/*
 * The installed stubs, shims and command hold to manylinux2014's rules,
 * the ones a wheel's repair step checks (auditwheel is not a Debian 12
 * package, so the rules are checked here):
 *   - every glibc symbol version they import is at most GLIBC_2.17
 *     (stubs/loader/platform/glibc_floor.h, tools/cli/floor/cli_glibc_floor.h),
 *     whichever glibc built them;
 *   - they need no library outside the policy's list (libc, libdl,
 *     libpthread, libm, librt, libgcc_s, ..., and the dynamic loader); a
 *     stub needs libc.so.6 alone, and finds the dl functions at run time,
 *     in libc or, before glibc 2.34, in libdl.so.2
 *     (stubs/loader/platform/loader_dl.c); the command names libdl.so.2 as well;
 *   - installed, they carry no debug information (cudastub_install_stripped).
 * The build is installed into a temporary prefix, and each ELF file under
 * its lib/, and bin/cudastub, is read with objdump -T and readelf; the
 * stubs and the command run under glibc 2.31.
 */
#define _GNU_SOURCE
#include <CUnit/CUnit.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_support.h"

enum { MAX_FILES = 1024 };

static char prefix[] = "/tmp/cudastub-floor-XXXXXX";
static char *files[MAX_FILES];
static int file_count;
static char command[sizeof prefix + 16];

static int collect(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type == FTW_F && strstr(path, ".so") && file_count < MAX_FILES)
		files[file_count++] = strdup(path);
	return 0;
}

static int suite_init(void)
{
	char *argv[] = {E2E_CMAKE, "--install", (char *)ts_build_dir(), "--prefix", prefix, NULL};
	static struct ts_child out;
	char lib[sizeof prefix + 8];

	if (!mkdtemp(prefix) || ts_run_program(argv, NULL, NULL, &out) != 0 || out.exit_code != 0) {
		fprintf(stderr, "cmake --install failed:\n%s\n%s\n", out.out, out.err);
		return -1;
	}
	snprintf(lib, sizeof lib, "%s/lib", prefix);
	if (nftw(lib, collect, 16, FTW_PHYS) != 0)
		return -1;
	/* the command, last: what a manylinux2014 wheel holds beside them */
	snprintf(command, sizeof command, "%s/bin/cudastub", prefix);
	if (access(command, X_OK) == 0 && file_count < MAX_FILES)
		files[file_count++] = strdup(command);
	return 0;
}

static int suite_clean(void)
{
	for (int i = 0; i < file_count; i++)
		free(files[i]);
	ts_remove_tree(prefix);
	return 0;
}

/* Runs a tool on path; its output in out. */
static int run_tool(const char *tool, const char *option, const char *path, struct ts_child *out)
{
	char *argv[] = {(char *)tool, (char *)option, (char *)path, NULL};

	return ts_run_program(argv, NULL, NULL, out) == 0 && out->exit_code == 0 ? 0 : -1;
}

/* GLIBC_a.b[.c] as a*10000 + b*100 + c. */
static long glibc_version(const char *text)
{
	long a = 0, b = 0, c = 0;

	if (sscanf(text, "GLIBC_%ld.%ld.%ld", &a, &b, &c) < 2)
		return -1;
	return a * 10000 + b * 100 + c;
}

static void test_every_file_is_found(void)
{
	/* the stubs and the shims of at least the three core libraries, for
	 * each ABI, and no more files than the test holds */
	CU_ASSERT(file_count >= 18);
	CU_ASSERT(file_count < MAX_FILES);
}

TS_TEST(test_every_file_is_found, "the installed stubs and shims are found");

static void test_no_glibc_version_above_2_17(void)
{
	static struct ts_child out;

	if (*E2E_SANITIZE) {
		ts_not_applicable("a sanitizer build leaves the glibc floor out (its runtime "
				  "intercepts the newest versions)");
		return;
	}

	for (int i = 0; i < file_count; i++) {
		long newest = 0;
		char newest_name[64] = "";

		CU_ASSERT_EQUAL_FATAL(run_tool(E2E_OBJDUMP, "-T", files[i], &out), 0);
		for (const char *p = out.out; (p = strstr(p, "GLIBC_")) != NULL; p++) {
			long v = glibc_version(p);

			CU_ASSERT(v > 0); /* GLIBC_PRIVATE, or anything unparsable */
			if (v > newest) {
				newest = v;
				snprintf(newest_name, sizeof newest_name, "%.*s",
					 (int)strcspn(p, " )\n"), p);
			}
		}
		if (newest > 21700)
			fprintf(stderr, "%s imports %s\n", files[i], newest_name);
		CU_ASSERT(newest > 0 && newest <= 21700);
	}
}

TS_TEST(test_no_glibc_version_above_2_17, "no glibc symbol version above 2.17");

static int allowed_library(const char *name)
{
	static const char *const policy[] = {
		"libc.so.6",   "libdl.so.2",	 "libpthread.so.0",	 "libm.so.6",
		"librt.so.1",  "libgcc_s.so.1",	 "libstdc++.so.6",	 "libutil.so.1",
		"libnsl.so.1", "libresolv.so.2", "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1",
		NULL};

	for (int i = 0; policy[i]; i++)
		if (!strcmp(name, policy[i]))
			return 1;
	return 0;
}

static void test_needs_only_the_policys_libraries(void)
{
	static struct ts_child out;

	if (*E2E_SANITIZE) {
		ts_not_applicable("a sanitizer build's stubs need the sanitizer's runtime");
		return;
	}

	for (int i = 0; i < file_count; i++) {
		int needed = 0;

		CU_ASSERT_EQUAL_FATAL(run_tool(E2E_READELF, "-d", files[i], &out), 0);
		for (const char *p = out.out; (p = strstr(p, "Shared library: [")) != NULL; p++) {
			char name[256];

			if (sscanf(p, "Shared library: [%255[^]]", name) != 1)
				continue;
			needed++;
			if (!allowed_library(name))
				fprintf(stderr, "%s needs %s\n", files[i], name);
			CU_ASSERT(allowed_library(name));
		}
		/* a stub's one: every other library is one more file for the
		 * dynamic loader to map, or one more name to match, at every
		 * start (the dl functions come from libc or libdl at run time);
		 * the command names libdl.so.2 too, where glibc before 2.34
		 * keeps the dl functions it binds */
		if (!strcmp(files[i], command)) {
			CU_ASSERT_EQUAL(needed, 2);
			CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "[libdl.so.2]"));
		} else {
			if (needed != 1)
				fprintf(stderr, "%s needs %d libraries:\n%s\n", files[i], needed,
					out.out);
			CU_ASSERT_EQUAL(needed, 1);
		}
		CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "[libc.so.6]"));
	}
}

TS_TEST(test_needs_only_the_policys_libraries, "only manylinux2014's libraries");

static void test_installed_without_debug_information(void)
{
	static struct ts_child out;

	for (int i = 0; i < file_count; i++) {
		CU_ASSERT_EQUAL_FATAL(run_tool(E2E_READELF, "-S", files[i], &out), 0);
		if (strstr(out.out, ".debug_"))
			fprintf(stderr, "%s has debug sections\n", files[i]);
		CU_ASSERT_PTR_NULL(strstr(out.out, ".debug_"));
		CU_ASSERT_PTR_NOT_NULL(strstr(out.out, ".dynsym"));
	}
}

TS_TEST(test_installed_without_debug_information, "installed without debug information");

#ifdef E2E_OLD_GLIBC_PROBE
/* The installed 13-ABI stub `name` (lib<name>_stub_cu13-<tag>.so), or
 * NULL. */
static const char *installed(const char *name)
{
	char want[64];

	snprintf(want, sizeof want, "/lib%s_stub_cu13-", name);
	for (int i = 0; i < file_count; i++) {
		const char *tail = strrchr(files[i], '/');

		if (tail && !strncmp(tail, want, strlen(want)))
			return files[i];
	}
	return NULL;
}
#endif

/*
 * Runs the probe under bullseye's glibc 2.31 (its own dynamic loader and
 * libraries only), on the installed stub `name` calling `function`, with
 * one environment entry (or NULL). Returns 0 when it ran and exited 0.
 */
static int run_under_glibc_2_31(const char *name, const char *function, const char *env_entry,
				struct ts_child *out)
{
#ifdef E2E_OLD_GLIBC_PROBE
	const char *fixture = ts_fixture("glibc-2.31");
	char loader[4096], libs[4096], stub[4200], fn[128];
	const char *env[] = {stub, fn, env_entry, NULL};

	if (!fixture)
		return -1;
	snprintf(loader, sizeof loader, "%s/lib/x86_64-linux-gnu/ld-2.31.so", fixture);
	snprintf(libs, sizeof libs, "%s/lib/x86_64-linux-gnu", fixture);
	CU_ASSERT_PTR_NOT_NULL_FATAL(installed(name));
	snprintf(stub, sizeof stub, "PROBE_STUB=%s", installed(name));
	snprintf(fn, sizeof fn, "PROBE_FUNCTION=%s", function);
	{
		char *argv[] = {loader, "--library-path", libs, E2E_OLD_GLIBC_PROBE, NULL};

		CU_ASSERT_EQUAL_FATAL(ts_run_program(argv, env, NULL, out), 0);
	}
	if (out->exit_code != 0)
		fprintf(stderr, "%s under glibc 2.31:\n%s\n%s\n", name, out->out, out->err);
	return out->exit_code == 0 ? 0 : 1;
#else
	(void)name, (void)function, (void)env_entry, (void)out;
	ts_not_applicable("the older-glibc probe is built for x86-64 without sanitizers only");
	return -1;
#endif
}

/* NVRTC 13 and the runtime 13 of the toolkit, each through its stub,
 * under glibc 2.31: the stubs' own imports resolve there, the dl
 * functions are found in libdl.so.2, and the real libraries answer. */
static void test_stubs_run_under_glibc_2_31(void)
{
	static struct ts_child out;
	char nvrtc[4096], cudart[4096], override[4200];
	int r;

	if (!ts_toolkit_file("libnvrtc.so.13", nvrtc, sizeof nvrtc) ||
	    !ts_toolkit_file("libcudart.so.13", cudart, sizeof cudart))
		return;
	snprintf(override, sizeof override, "CUDASTUB_NVRTC_PATH=%s", nvrtc);
	r = run_under_glibc_2_31("nvrtc", "nvrtcVersion", override, &out);
	if (r < 0)
		return;
	CU_ASSERT_EQUAL(r, 0);
	CU_ASSERT_EQUAL(ts_number(&out, "rc"), 0);
	CU_ASSERT_EQUAL(ts_number(&out, "first"), 13);
	snprintf(override, sizeof override, "CUDASTUB_CUDART_PATH=%s", cudart);
	CU_ASSERT_EQUAL(run_under_glibc_2_31("cudart", "cudaRuntimeGetVersion", override, &out), 0);
	CU_ASSERT_EQUAL(ts_number(&out, "rc"), 0);
	CU_ASSERT(ts_number(&out, "first") >= 13000 && ts_number(&out, "first") < 14000);
	/* no driver anywhere on glibc 2.31's path: the stub's own answer */
	CU_ASSERT_EQUAL(run_under_glibc_2_31("cuda", "cuDriverGetVersion", NULL, &out), 0);
	CU_ASSERT_NOT_EQUAL(ts_number(&out, "rc"), TS_NO_NUMBER);
	CU_ASSERT_EQUAL(ts_number(&out, "first"), 0);
}

TS_TEST(test_stubs_run_under_glibc_2_31, "the stubs run under glibc 2.31");

/* The installed command under glibc 2.31 (its own dynamic loader and
 * libraries only): it starts, and reads a stub and its search. */
static void test_command_runs_under_glibc_2_31(void)
{
#ifdef E2E_OLD_GLIBC_PROBE
	static struct ts_child out;
	const char *fixture = ts_fixture("glibc-2.31");
	char loader[4096], libs[4096];
	char *argv[] = {loader, "--library-path", libs, command, "info", "--stub", NULL, NULL};

	if (!fixture)
		return;
	CU_ASSERT_PTR_NOT_NULL_FATAL(installed("nvrtc"));
	argv[6] = (char *)installed("nvrtc");
	snprintf(loader, sizeof loader, "%s/lib/x86_64-linux-gnu/ld-2.31.so", fixture);
	snprintf(libs, sizeof libs, "%s/lib/x86_64-linux-gnu", fixture);
	CU_ASSERT_EQUAL_FATAL(ts_run_program(argv, NULL, NULL, &out), 0);
	if (out.exit_code != 0)
		fprintf(stderr, "cudastub under glibc 2.31:\n%s\n%s\n", out.out, out.err);
	CU_ASSERT_EQUAL(out.exit_code, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "nvrtc"));
#else
	ts_not_applicable("the older glibc is run for x86-64 without sanitizers only");
#endif
}

TS_TEST(test_command_runs_under_glibc_2_31, "the command runs under glibc 2.31");

TS_MAIN_SUITE("glibc_floor", suite_init, suite_clean, NULL)

/*
 * A real nvcc-built program through the stub, no GPU needed.
 *
 * nvcc_program.cu is compiled once (nvcc -c) and linked twice: against
 * NVIDIA's libcudart (-cudart shared) and against the stub instead
 * (-cudart none -lcudart_stub). readelf shows which each needs. Both run;
 * the stub's prints what the runtime's prints (cudaGetDeviceCount: 35
 * without a driver, the launch, the sync). The stub's run is traced with
 * LD_DEBUG=bindings: every __cuda* entry point the program called bound to
 * the stub, and the stub then looked the same name up in the real
 * libcudart, so nvcc's registration and launch calls were forwarded.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cudart_test.h"
#include "ts_elf.h"
#include "ts_files.h"

#ifndef CT_NVCC
#define CT_NVCC ""
#endif
#ifndef CT_SANITIZE
#define CT_SANITIZE ""
#endif

static const char label[] = "nvcc program";

static int sh(const char *cmd)
{
	int rc = system(cmd);

	if (rc != 0)
		fprintf(stderr, "failed (%d): %s\n", rc, cmd);
	return rc == 0;
}

/* NEEDED entries of an ELF file, as readelf -d lists them. */
static void needed(const char *file, struct ts_names *out)
{
	CU_ASSERT_EQUAL(ts_names_dynamic(out, file, "NEEDED"), 0);
}

/* " -Xcompiler -fsanitize=<each>" for a sanitizer build's stub, whose
 * runtime must come first in the program that loads it. */
static void sanitizer_flags(char *out, size_t size)
{
	char list[256], *item, *save = NULL;

	out[0] = '\0';
	snprintf(list, sizeof list, "%s", CT_SANITIZE);
	for (item = strtok_r(list, ",", &save); item; item = strtok_r(NULL, ",", &save))
		snprintf(out + strlen(out), size - strlen(out), " -Xcompiler -fsanitize=%s", item);
}

/* Builds prog_real and prog_stub in dir; 1 on success. */
static int build(const char *dir, const char *runtime_dir)
{
	char cmd[6 * PATH_MAX], stub_dir[PATH_MAX], sanitize[512];

	snprintf(stub_dir, sizeof stub_dir, "%s", ct_stub());
	*strrchr(stub_dir, '/') = '\0';
	sanitizer_flags(sanitize, sizeof sanitize);
	snprintf(cmd, sizeof cmd,
		 "'%s' -c -I'%s/include' '%s/tests/cudart/nvcc_program.cu' -o '%s/p.o'", CT_NVCC,
		 CUDASTUB_TEST_SOURCE_DIR, CUDASTUB_TEST_SOURCE_DIR, dir);
	if (!sh(cmd))
		return 0;
	snprintf(cmd, sizeof cmd,
		 "'%s' '%s/p.o' -o '%s/prog_real' -cudart shared -L'%s' -Xlinker -rpath='%s'",
		 CT_NVCC, dir, dir, runtime_dir, runtime_dir);
	if (!sh(cmd))
		return 0;
	snprintf(cmd, sizeof cmd,
		 "'%s' '%s/p.o' -o '%s/prog_stub' -cudart none -L'%s' -lcudart_stub "
		 "-Xlinker -rpath='%s'%s",
		 CT_NVCC, dir, dir, stub_dir, stub_dir, sanitize);
	return sh(cmd);
}

/* The binding trace LD_DEBUG_OUTPUT wrote (<prefix>.<pid>), read into buf. */
static size_t read_trace(const char *dir, char *buf, size_t size)
{
	struct dirent *e;
	size_t used = 0;
	DIR *d = opendir(dir);

	while (d && (e = readdir(d)))
		if (!strncmp(e->d_name, "ld.", 3)) {
			char path[PATH_MAX + 300];
			FILE *f;

			snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
			f = fopen(path, "r");
			if (f) {
				used += fread(buf + used, 1, size - 1 - used, f);
				fclose(f);
			}
		}
	if (d)
		closedir(d);
	buf[used] = '\0';
	return used;
}

/* Whether the trace binds name from a file into one matching to. */
static int bound(const char *trace, const char *to, const char *name)
{
	char sym[160];
	const char *line = trace;

	snprintf(sym, sizeof sym, "normal symbol `%s'", name);
	while ((line = strstr(line, sym))) {
		const char *start = line;

		while (start > trace && start[-1] != '\n')
			start--;
		if (memmem(start, (size_t)(line - start), to, strlen(to)))
			return 1;
		line += strlen(sym);
	}
	return 0;
}

static void check_forwarding(const char *trace, const char *real)
{
	static const char *const must[] = {"__cudaRegisterFatBinary", "__cudaRegisterFunction",
					   "__cudaPushCallConfiguration",
					   "__cudaPopCallConfiguration", "cudaGetDeviceCount"};
	char to_stub[] = "/libcudart_stub.so [", to_real[PATH_MAX + 32];
	struct ts_names called = {0};
	const char *line = trace;

	snprintf(to_real, sizeof to_real, "to %s [", real);
	for (size_t i = 0; i < sizeof must / sizeof *must; i++) {
		CU_assertImplementation(bound(trace, to_stub, must[i]), __LINE__, must[i], __FILE__,
					"bound to the stub", CU_FALSE);
		CU_assertImplementation(bound(trace, to_real, must[i]), __LINE__, must[i], __FILE__,
					"looked up in the real runtime", CU_FALSE);
	}
	/* and every __cuda* entry point the program called */
	while ((line = strstr(line, "normal symbol `__cuda"))) {
		char name[128];

		line += strlen("normal symbol `");
		snprintf(name, sizeof name, "%.*s", (int)strcspn(line, "'"), line);
		if (bound(trace, to_stub, name))
			ts_names_add(&called, name);
	}
	for (size_t i = 0; i < called.count; i++)
		CU_assertImplementation(bound(trace, to_real, called.names[i]), __LINE__,
					called.names[i], __FILE__, "forwarded", CU_FALSE);
	printf("  %zu __cuda* entry points called through the stub, each forwarded\n",
	       called.count);
	CU_ASSERT(called.count >= 4);
	ts_names_free(&called);
}

static void run_both(const char *dir, const char *runtime_dir)
{
	static char trace[1 << 22];
	char prog_real[PATH_MAX + 16], prog_stub[PATH_MAX + 16], real[PATH_MAX];
	char *argv_real[] = {prog_real, NULL}, *argv_stub[] = {prog_stub, NULL};
	static const char *const keys[] = {"count_rc", "count", "launch_rc", "sync_rc"};
	struct ts_child r, s;
	struct ts_env env = {0};

	snprintf(prog_real, sizeof prog_real, "%s/prog_real", dir);
	snprintf(prog_stub, sizeof prog_stub, "%s/prog_stub", dir);
	ts_env_add(&env, "CUDASTUB_CUDART_PATH=%s", runtime_dir);
	ts_env_add(&env, "LD_DEBUG=bindings");
	ts_env_add(&env, "LD_DEBUG_OUTPUT=%s/ld", dir);
	CU_ASSERT_EQUAL_FATAL(ts_run_program(argv_real, NULL, NULL, &r), 0);
	CU_ASSERT_EQUAL_FATAL(ts_run_program(argv_stub, env.list, NULL, &s), 0);
	TS_EXPECT_INT(label, &r, "stub_linked", 0);
	TS_EXPECT_INT(label, &s, "stub_linked", 1);
	TS_EXPECT_INT(label, &s, "state_at_main", CUDASTUB_STATE_LOADED);
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
		char want[64];

		snprintf(want, sizeof want, "%s",
			 ts_value(&r, keys[i]) ? ts_value(&r, keys[i]) : "?");
		TS_EXPECT(label, &s, keys[i], want);
	}
	if (!ts_machine_has_driver())
		TS_EXPECT_INT(label, &s, "count_rc", cudaErrorInsufficientDriver);
	CU_ASSERT(read_trace(dir, trace, sizeof trace) > 0);
	snprintf(real, sizeof real, "%s/libcudart.so.13", runtime_dir);
	check_forwarding(trace, real);
}

static void test_nvcc_program(void)
{
	char dir[PATH_MAX], runtime_dir[PATH_MAX], exe[PATH_MAX + 16];
	struct ts_names need = {0};

	if (!CT_NVCC[0] || access(CT_NVCC, X_OK) != 0) {
		ts_unavailable("nvcc not found; install the CUDA toolkit (CUDASTUB_NVCC)");
		return;
	}
	/* <toolkit>/bin/nvcc -> <toolkit>/lib64, where its libcudart is */
	snprintf(exe, sizeof exe, "%s", CT_NVCC);
	snprintf(strrchr(exe, '/'), sizeof exe - (size_t)(strrchr(exe, '/') - exe), "/../lib64");
	CU_ASSERT_PTR_NOT_NULL_FATAL(realpath(exe, runtime_dir));
	CU_ASSERT_PTR_NOT_NULL_FATAL(ts_tmpdir("cudart-nvcc", dir, sizeof dir));
	if (build(dir, runtime_dir)) {
		snprintf(exe, sizeof exe, "%s/prog_stub", dir);
		needed(exe, &need);
		CU_ASSERT_TRUE(ts_names_has(&need, "libcudart_stub.so"));
		for (size_t i = 0; i < need.count; i++)
			CU_ASSERT_PTR_NULL(strstr(need.names[i], "libcudart.so"));
		ts_names_free(&need);
		snprintf(exe, sizeof exe, "%s/prog_real", dir);
		needed(exe, &need);
		CU_ASSERT_TRUE(ts_names_has(&need, "libcudart.so.13"));
		ts_names_free(&need);
		run_both(dir, runtime_dir);
	} else {
		CU_FAIL("nvcc could not build the program");
	}
	ts_remove_tree(dir);
}

static void register_suites(void)
{
	CU_pSuite s = CU_add_suite("cudart: an nvcc program through the stub", NULL, NULL);

	CU_add_test(s, "links the stub, prints what NVIDIA's runtime prints, forwards __cuda*",
		    test_nvcc_program);
}

int main(int argc, char **argv)
{
	return ts_main(argc, argv, NULL, register_suites);
}

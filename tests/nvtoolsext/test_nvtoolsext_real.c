/*
 * NVTX (libnvToolsExt.so.1) through its stub, against NVIDIA's real 11.8
 * and 12.4 libraries with no tool attached (NVTX_INJECTION64_PATH unset),
 * and with no library at all.
 *
 *   exports      the stub exports its generated list, each under the
 *                library's version node, and every name the real 11.8 and
 *                12.4 libraries export;
 *   real         every export, called with zero arguments through the stub
 *                (the build's, and the stubs of the 12.4 and 11.8 headers)
 *                with each real library loaded, answers what the library
 *                called directly answers; nvtxInitialize, which the library
 *                lacks, does nothing. nvtxGetExportTable(1) hands out the
 *                library's table through the stub too;
 *   no library   an override naming nothing, and a search finding nothing:
 *                the same answers as the real library with no tool (the push
 *                and pop -2, range ids 0, handles NULL), no crash, and no
 *                export table (NULL);
 *   program      (native builds) a program linked against the real
 *                libnvToolsExt.so.1 does not start without it; `cudastub
 *                patch`ed, it starts and
 *                prints what it printed with the real library, with no NVTX
 *                library at all; with the real one on the path, the stub
 *                loads it (the export table is there again); the shim in
 *                NVIDIA's place does the same for the unpatched program.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cudastub/cudastub.h"
#include "test_support.h"
#include "ts_real.h"
#include "ts_elf.h"
#include "ts_files.h"

/* From CMake: NT_STUB (the build's stub), NT_STUB_12 and NT_STUB_11 (the
 * stubs of the 12.4 and 11.8 headers, "" where those were not fetched),
 * NT_SYMBOLS (the build's generated export list), NT_RECORD (an ABI
 * record: the return types), and where the fixture was there when
 * configuring, NT_PROGRAM, NT_CLI and NT_SHIM_DIR. */

#define SONAME	 "libnvToolsExt.so.1"
#define ENV_PATH "CUDASTUB_NVTOOLSEXT_PATH"
/* the value the push and pop functions answer with no tool attached */
#define NO_PUSH_POP_TRACKING (-2)

enum { MAX_EXPORTS = 128 };

/* An export and what it returns, from the ABI record: 'i' int, 'u' a
 * 64-bit range id, 'p' a pointer (a handle), 'v' nothing. The names no
 * header declares: nvtxGetExportTable a pointer, the OpenCL names
 * (nvtxNameCl*) nothing. */
struct export
{
	char name[64];
	char kind;
};

/* The kind of a canonical return type ("int", "struct X *"). */
static char kind_of(const char *ret)
{
	if (strchr(ret, '*'))
		return 'p';
	if (!strcmp(ret, "void"))
		return 'v';
	if (!strcmp(ret, "int"))
		return 'i';
	if (!strcmp(ret, "unsigned long") || !strcmp(ret, "unsigned long long"))
		return 'u';
	return '?';
}

/* Every export of the stub's list with its kind; the count, or -1. */
static int read_exports(struct export *out, int max)
{
	FILE *list = fopen(NT_SYMBOLS, "r"), *record = fopen(NT_RECORD, "r");
	char line[1024];
	int n = 0;

	if (!list || !record) {
		if (list)
			fclose(list);
		if (record)
			fclose(record);
		return -1;
	}
	while (n < max && fgets(line, sizeof line, list)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		snprintf(out[n].name, sizeof out[n].name, "%.63s", line);
		out[n].kind = !strcmp(line, "nvtxGetExportTable") ? 'p'
			      : !strncmp(line, "nvtxNameCl", 10)  ? 'v'
								  : '?';
		n++;
	}
	/* fn<TAB>NAME<TAB>RET<TAB>CANONICAL RET */
	while (fgets(line, sizeof line, record)) {
		char *name, *abi;

		line[strcspn(line, "\r\n")] = '\0';

		if (strncmp(line, "fn\t", 3))
			continue;
		name = line + 3;
		abi = strchr(name, '\t');
		if (!abi)
			continue;
		*abi++ = '\0';
		abi = strchr(abi, '\t');
		if (!abi)
			continue;
		abi++;
		for (int i = 0; i < n; i++)
			if (!strcmp(out[i].name, name))
				out[i].kind = kind_of(abi);
	}
	fclose(list);
	fclose(record);
	return n;
}

/* What a kind answers with no tool attached. */
static const char *no_tool_answer(char kind)
{
	return kind == 'i' ? "-2" : kind == 'u' ? "0" : kind == 'p' ? "null" : "void";
}

/* ---- child: every export once with zero arguments, through NT_OPEN ---- */

typedef uint64_t (*any_fn)(void *, void *, void *);

static void answer(const struct export *e, uint64_t raw, char *out, size_t size)
{
	switch (e->kind) {
	case 'i': snprintf(out, size, "%d", (int)(uint32_t)raw); break;
	case 'u': snprintf(out, size, "%llu", (unsigned long long)raw); break;
	case 'p': snprintf(out, size, "%s", raw ? "ptr" : "null"); break;
	default: snprintf(out, size, "void");
	}
}

static int sweep_child(void)
{
	static struct export exports[MAX_EXPORTS];
	const char *path = getenv("NT_OPEN");
	void *lib = path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
	const void *(*table)(uint32_t);
	int n = read_exports(exports, MAX_EXPORTS), called = 0, unstable = 0;

	if (!lib) {
		printf("open_error=%s\n", dlerror());
		return 3;
	}
	if (n <= 0)
		return 4;
	for (int i = 0; i < n; i++) {
		any_fn fn = (any_fn)dlsym(lib, exports[i].name);
		char first[32], second[32];

		if (!fn) {
			printf("r.%s=missing\n", exports[i].name);
			continue;
		}
		/* twice: once to bind, once through the bound slot */
		answer(&exports[i], fn(NULL, NULL, NULL), first, sizeof first);
		answer(&exports[i], fn(NULL, NULL, NULL), second, sizeof second);
		unstable += strcmp(first, second) != 0;
		printf("r.%s=%s\nkind.%s=%c\n", exports[i].name, first, exports[i].name,
		       exports[i].kind);
		called++;
	}
	*(void **)&table = dlsym(lib, "nvtxGetExportTable");
	printf("table1=%s\n", table && table(1) ? "yes" : "no");
	printf("called=%d\nunstable=%d\n", called, unstable);
	const cudastub_library_info *(*info)(void) =
		(const cudastub_library_info *(*)(void))dlsym(lib, "cudastub_nvtoolsext_info");
	if (info) {
		const cudastub_library_info *i = info();

		printf("state=%d\npath=%s\nmajor=%d\n", (int)i->state, i->path ? i->path : "",
		       i->major);
	}
	fflush(stdout);
	return 0;
}

/* ---- parent ---- */

static struct export exports[MAX_EXPORTS];
static int export_count;

/* Runs the sweep on path with env (NULL-ended, may be NULL) into *child;
 * no tool is ever attached. 0 when it ran. */
static int sweep(const char *path, const char *const *env, struct ts_child *child)
{
	const char *full[TS_REAL_EXTRA + 1] = {"NVTX_INJECTION64_PATH", "NVTX_INJECTION32_PATH"};
	int n = 2;

	for (; env && *env && n < TS_REAL_EXTRA; env++)
		full[n++] = *env;
	full[n] = NULL;
	if (ts_real_run("sweep", "NT_OPEN", path, full, child))
		return -1;
	CU_ASSERT_EQUAL(ts_number(child, "called"),
			export_count - (ts_value(child, "r.nvtxInitialize") &&
					!strcmp(ts_value(child, "r.nvtxInitialize"), "missing")));
	CU_ASSERT_EQUAL(ts_number(child, "unstable"), 0);
	return 0;
}

/* The real library of a release's fixture, or NULL (reported). */
static const char *nvtx_library(const char *fixture, char *buf, size_t size)
{
	char dir[PATH_MAX / 2];

	if (!ts_fixture_libdir(fixture, dir, sizeof dir))
		return NULL;
	snprintf(buf, size, "%s/" SONAME, dir);
	if (access(buf, F_OK) != 0) {
		char why[PATH_MAX];

		snprintf(why, sizeof why, "%s has no " SONAME "; run tests/fixtures/fetch.sh",
			 fixture);
		ts_unavailable(why);
		return NULL;
	}
	return buf;
}

static void test_exports(void)
{
	struct ts_names exported = {0}, listed = {0}, real = {0};
	static const char *const fixtures[] = {"cuda-11.8", "cuda-12.4"};
	int unversioned = 0, real_unversioned = 0;

	CU_ASSERT_EQUAL_FATAL(ts_names_exported(&exported, NT_STUB, SONAME, &unversioned), 0);
	CU_ASSERT_EQUAL_FATAL(ts_names_read_list(&listed, NT_SYMBOLS), 0);
	ts_names_add(&listed, "cudastub_nvtoolsext_info");
	ts_names_add(&listed, "cudastub_nvtoolsext_load");
	TS_EXPECT_SAME_NAMES(&listed, &exported, "nvtoolsext stub exports");
	CU_ASSERT_EQUAL(unversioned, 0);
	/* the sweep knows what each export returns */
	CU_ASSERT_EQUAL(export_count, (int)listed.count - 2);
	for (int i = 0; i < export_count; i++)
		CU_ASSERT_NOT_EQUAL(exports[i].kind, '?');
	for (size_t f = 0; f < sizeof fixtures / sizeof *fixtures; f++) {
		char path[PATH_MAX];

		if (!nvtx_library(fixtures[f], path, sizeof path))
			continue;
		CU_ASSERT_EQUAL_FATAL(ts_names_exported(&real, path, SONAME, &real_unversioned), 0);
		for (size_t i = 0; i < real.count; i++) {
			char msg[256];

			snprintf(msg, sizeof msg, "%s exports %s, the stub does not", fixtures[f],
				 real.names[i]);
			CU_assertImplementation(ts_names_has(&exported, real.names[i]), __LINE__,
						msg, __FILE__, "", CU_FALSE);
		}
		printf("  %s: %zu exports, all among the stub's %zu\n", fixtures[f], real.count,
		       exported.count);
		ts_names_free(&real);
	}
	ts_names_free(&exported);
	ts_names_free(&listed);
}

/* Every export of got answers as in want; nvtxInitialize, missing from
 * the real library, does nothing. Returns the differences. */
static int same_answers(const struct ts_child *want, const struct ts_child *got, const char *label)
{
	int differ = 0;

	for (int i = 0; i < export_count; i++) {
		char key[96], w[64];
		const char *g;

		snprintf(key, sizeof key, "r.%.63s", exports[i].name);
		snprintf(w, sizeof w, "%s", ts_text(want, key));
		if (!strcmp(w, "missing"))
			snprintf(w, sizeof w, "%s", no_tool_answer(exports[i].kind));
		g = ts_text(got, key);
		if (strcmp(w, g)) {
			fprintf(stderr, "%s: %s answered %s, not %s\n", label, exports[i].name, g,
				w);
			differ++;
		}
	}
	return differ;
}

static void test_real(void)
{
	static const char *const fixtures[] = {"cuda-11.8", "cuda-12.4"};
	const char *stubs[] = {NT_STUB, NT_STUB_12, NT_STUB_11};
	static struct ts_child direct, through;
	int cells = 0;

	if (!*NT_STUB_12 || !*NT_STUB_11)
		ts_unavailable("no stub of the 12.4 or 11.8 headers: run tests/fixtures/fetch.sh "
			       "before configuring");
	for (size_t f = 0; f < sizeof fixtures / sizeof *fixtures; f++) {
		char path[PATH_MAX], override[PATH_MAX + 32];
		const char *env[] = {override, NULL};

		if (!nvtx_library(fixtures[f], path, sizeof path))
			continue;
		if (sweep(path, NULL, &direct))
			continue;
		/* the library's own answers, no tool attached */
		CU_ASSERT_STRING_EQUAL(ts_text(&direct, "r.nvtxRangePushA"), "-2");
		CU_ASSERT_STRING_EQUAL(ts_text(&direct, "r.nvtxInitialize"), "missing");
		CU_ASSERT_STRING_EQUAL(ts_text(&direct, "table1"), "yes");
		snprintf(override, sizeof override, ENV_PATH "=%s", path);
		for (size_t s = 0; s < sizeof stubs / sizeof *stubs; s++) {
			char label[PATH_MAX + 64];

			if (!*stubs[s] || sweep(stubs[s], env, &through))
				continue;
			snprintf(label, sizeof label, "%s through %s", fixtures[f], stubs[s]);
			CU_ASSERT_EQUAL(ts_number(&through, "state"), CUDASTUB_STATE_LOADED);
			CU_ASSERT_STRING_EQUAL(ts_text(&through, "path"), path);
			CU_ASSERT_EQUAL(same_answers(&direct, &through, label), 0);
			CU_ASSERT_STRING_EQUAL(ts_text(&through, "table1"), "yes");
			cells++;
		}
	}
	printf("  %d stub and library pairs, %d exports each, as the library answers\n", cells,
	       export_count);
}

static void expect_no_tool_answers(const struct ts_child *child, const char *label)
{
	int differ = 0;

	for (int i = 0; i < export_count; i++) {
		char key[96];
		const char *got;

		snprintf(key, sizeof key, "r.%.63s", exports[i].name);
		got = ts_text(child, key);
		if (strcmp(got, no_tool_answer(exports[i].kind))) {
			fprintf(stderr, "%s: %s answered %s, not %s\n", label, exports[i].name, got,
				no_tool_answer(exports[i].kind));
			differ++;
		}
	}
	CU_ASSERT_EQUAL(differ, 0);
	CU_ASSERT_STRING_EQUAL(ts_text(child, "table1"), "no");
}

static void test_no_library(void)
{
	const char *none[] = {ENV_PATH "=/nonexistent/cudastub-no-nvtx", NULL};
	static struct ts_child by_override, by_search, direct;
	char path[PATH_MAX];

	/* an override naming nothing */
	if (sweep(NT_STUB, none, &by_override))
		return;
	CU_ASSERT_EQUAL(ts_number(&by_override, "state"), CUDASTUB_STATE_OVERRIDE_FAILED);
	expect_no_tool_answers(&by_override, "override naming nothing");
	/* a search that finds none (this machine has no libnvToolsExt.so.1:
	 * CUDA 13 ships none) */
	if (sweep(NT_STUB, NULL, &by_search))
		return;
	CU_ASSERT_EQUAL(ts_number(&by_search, "state"), CUDASTUB_STATE_NOT_FOUND);
	expect_no_tool_answers(&by_search, "nothing found");
	/* and those are the real library's answers with no tool attached */
	if (nvtx_library("cuda-12.4", path, sizeof path) && sweep(path, NULL, &direct) == 0)
		CU_ASSERT_EQUAL(same_answers(&direct, &by_search, "no library"), 0);
	printf("  %d exports answer as NVTX with no tool, with no library\n", export_count);
}

/* ---- a program linked against the real library ---- */

#ifdef NT_PROGRAM
static struct ts_child run_out;

/* Runs program with env; its exit code (-1 when it could not run). */
static int run_program(const char *program, const char *const *env)
{
	char *argv[] = {(char *)program, NULL};

	if (ts_run_program(argv, env, NULL, &run_out) != 0)
		return -1;
	return run_out.exit_code;
}

/* The program's line starting with what ("calls", "table"), or "". */
static const char *line_of(const char *what, char *buf, size_t size)
{
	const char *at = strstr(run_out.out, what);

	buf[0] = '\0';
	if (at)
		snprintf(buf, size, "%.*s", (int)strcspn(at, "\n"), at);
	return buf;
}

static void test_program(void)
{
	char dir[PATH_MAX / 2], copy[PATH_MAX], real[PATH_MAX], libdir[PATH_MAX + 32],
		shim_path[2 * PATH_MAX + 32], calls[256], got[256];
	char *patch_argv[] = {NT_CLI, "patch", copy, NULL};
	const char *with_real[] = {libdir, "NVTX_INJECTION64_PATH", NULL},
		   *with_nothing[] = {"NVTX_INJECTION64_PATH", NULL},
		   *with_shim[] = {shim_path, "NVTX_INJECTION64_PATH", NULL};
	struct ts_names needed = {0};

	if (!nvtx_library("cuda-12.4", real, sizeof real))
		return;
	if (!ts_tmpdir("nvtoolsext-program", dir, sizeof dir)) {
		CU_FAIL("no temporary folder");
		return;
	}
	snprintf(copy, sizeof copy, "%s/program", dir);
	CU_ASSERT_EQUAL_FATAL(ts_copy_file(NT_PROGRAM, copy), 0);
	snprintf(libdir, sizeof libdir, "LD_LIBRARY_PATH=%.*s", (int)(strrchr(real, '/') - real),
		 real);

	/* as built: it needs NVIDIA's library to start */
	CU_ASSERT_NOT_EQUAL(run_program(copy, with_nothing), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(run_out.err, SONAME));
	CU_ASSERT_EQUAL_FATAL(run_program(copy, with_real), 0);
	line_of("calls", calls, sizeof calls);
	CU_ASSERT_STRING_EQUAL(calls, "calls push=-2 push_ex=-2 pop_ex=-2 pop=-2 range=0 "
				      "domain=null string=null sync=null");
	CU_ASSERT_STRING_EQUAL(line_of("table", got, sizeof got), "table yes");

	/* the shim in NVIDIA's place, unpatched: no library behind it, then
	 * the real one */
	snprintf(shim_path, sizeof shim_path, "LD_LIBRARY_PATH=%s", NT_SHIM_DIR);
	CU_ASSERT_EQUAL(run_program(copy, with_shim), 0);
	CU_ASSERT_STRING_EQUAL(line_of("calls", got, sizeof got), calls);
	CU_ASSERT_STRING_EQUAL(line_of("table", got, sizeof got), "table no");
	snprintf(shim_path, sizeof shim_path, "LD_LIBRARY_PATH=%s:%s", NT_SHIM_DIR,
		 libdir + strlen("LD_LIBRARY_PATH="));
	CU_ASSERT_EQUAL(run_program(copy, with_shim), 0);
	CU_ASSERT_STRING_EQUAL(line_of("calls", got, sizeof got), calls);
	CU_ASSERT_STRING_EQUAL(line_of("table", got, sizeof got), "table yes");

	/* patched: the stub in the library's place */
	CU_ASSERT_EQUAL_FATAL(ts_run_program(patch_argv, NULL, NULL, &run_out), 0);
	CU_ASSERT_EQUAL(run_out.exit_code, 0);
	CU_ASSERT_EQUAL(ts_names_dynamic(&needed, copy, "NEEDED"), 0);
	/* libnvToolsExt.so.1 names no CUDA major: the newest ABI's stub,
	 * whose exports cover the program's imports */
	CU_ASSERT_TRUE(ts_names_has(&needed, strrchr(NT_STUB, '/') + 1));
	CU_ASSERT_FALSE(ts_names_has(&needed, SONAME));
	/* no NVTX library at all: it starts, and every call answers as before */
	CU_ASSERT_EQUAL(run_program(copy, with_nothing), 0);
	CU_ASSERT_STRING_EQUAL(line_of("calls", got, sizeof got), calls);
	CU_ASSERT_STRING_EQUAL(line_of("table", got, sizeof got), "table no");
	/* the real library on the path: the stub loads it */
	CU_ASSERT_EQUAL(run_program(copy, with_real), 0);
	CU_ASSERT_STRING_EQUAL(line_of("calls", got, sizeof got), calls);
	CU_ASSERT_STRING_EQUAL(line_of("table", got, sizeof got), "table yes");
	ts_names_free(&needed);
	ts_remove_tree(dir);
}
#elif !defined(NT_CROSS)
static void program_unavailable(void)
{
	ts_unavailable("no program linked against the real " SONAME ": run "
		       "tests/fixtures/fetch.sh before configuring (a native build)");
}
#endif

static void register_suites(void)
{
	CU_pSuite s = CU_add_suite("nvtoolsext: real libraries and none", NULL, NULL);

	export_count = read_exports(exports, MAX_EXPORTS);
	if (export_count <= 0) {
		fprintf(stderr, "cannot read %s or %s\n", NT_SYMBOLS, NT_RECORD);
		export_count = 0;
	}
	for (int i = 0; i < export_count; i++)
		if (exports[i].kind == '?')
			fprintf(stderr, "%s: a return type this suite does not know\n",
				exports[i].name);
	CU_add_test(s, "exports: its list, every real export, one version node", test_exports);
	CU_add_test(s, "real 11.8 and 12.4: every export answers as the library", test_real);
	CU_add_test(s, "no library: the no-tool answers, no crash", test_no_library);
#ifdef NT_PROGRAM
	CU_add_test(s,
		    "a program linked against the library: patched and shimmed, runs "
		    "without it",
		    test_program);
#elif !defined(NT_CROSS)
	CU_add_test(s, "a program linked against the library (needs the 12.4 fixture)",
		    program_unavailable);
#endif
}

int main(int argc, char **argv)
{
	static const struct ts_scenario scenarios[] = {{"sweep", sweep_child}, {NULL, NULL}};

	return ts_main(argc, argv, scenarios, register_suites);
}

/* One cell of a stub's ABI matrix (see ts_matrix.h). */
#define _GNU_SOURCE
#include "ts_matrix.h"

#include <dlfcn.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudastub/cudastub.h"
#include "ts_abi.h"
#include "ts_child.h"
#include "ts_elf.h"

/* The child's environment. */
#define VAR_STUB    "TSM_STUB"
#define VAR_LIBRARY "TSM_LIBRARY"
#define VAR_SPEC    "TSM_SPEC"
#define VAR_GATING  "TSM_GATING"
#define VAR_SYMBOLS "TSM_SYMBOLS"
#define VAR_RECORD  "TSM_RECORD"
#define VAR_MAJOR   "TSM_MAJOR"
#define VAR_ABI	    "TSM_ABI"
#define VAR_VERSION "TSM_VERSION_FN"
#define VAR_OUTPUTS "TSM_VERSION_OUTPUTS"

/* ---- the spec's lines the matrix reads ---- */

struct spec {
	char library[32];	      /* library <name> */
	char path_var[64];	      /* env <path variable> <major variable> */
	char result[64];	      /* result <type> */
	int code_function;	      /* unavailable function <code> ... */
	int code_abi;		      /* unavailable abi <code> ... */
	int code_removed;	      /* unavailable removed <code> ... */
	struct ts_names own_fallback; /* custom_fallback <name>... */
};

/* The code of `unavailable <reason> <code> <NAME>` in sp, or NULL. */
static int *code_of(struct spec *sp, const char *reason)
{
	return !strcmp(reason, "function")  ? &sp->code_function
	       : !strcmp(reason, "abi")	    ? &sp->code_abi
	       : !strcmp(reason, "removed") ? &sp->code_removed
					    : NULL;
}

static int read_spec(const char *path, struct spec *sp)
{
	FILE *f = fopen(path, "r");
	char line[1024];

	memset(sp, 0, sizeof *sp);
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		char *save, *key = strtok_r(line, " \t\r\n", &save);
		char *a = key ? strtok_r(NULL, " \t\r\n", &save) : NULL;
		char *b = a ? strtok_r(NULL, " \t\r\n", &save) : NULL;
		int *code;

		if (!a || key[0] == '#')
			continue;
		if (!strcmp(key, "library"))
			snprintf(sp->library, sizeof sp->library, "%s", a);
		else if (!strcmp(key, "env"))
			snprintf(sp->path_var, sizeof sp->path_var, "%s", a);
		else if (!strcmp(key, "result"))
			snprintf(sp->result, sizeof sp->result, "%s", a);
		else if (!strcmp(key, "unavailable") && b && (code = code_of(sp, a)) != NULL)
			*code = atoi(b);
		else if (!strcmp(key, "custom_fallback"))
			for (char *w = a; w; w = b, b = b ? strtok_r(NULL, " \t\r\n", &save) : NULL)
				ts_names_add(&sp->own_fallback, w);
	}
	fclose(f);
	return sp->library[0] && sp->path_var[0] && sp->result[0] ? 0 : -1;
}

/* ---- the parent ---- */

static const char *source_file(const char *fmt, const char *a, const char *b)
{
	static char paths[8][PATH_MAX];
	static int next;
	char *out = paths[next++ % 8], rel[512];

	snprintf(rel, sizeof rel, fmt, a, b);
	snprintf(out, PATH_MAX, "%s/%s", CUDASTUB_TEST_SOURCE_DIR, rel);
	return out;
}

int ts_matrix_run(const char *label, const struct ts_matrix_cell *cell,
		  struct ts_matrix_counts *counts)
{
	const char *spec_path = source_file("specs/%s.spec", cell->lib->spec, "");
	struct ts_matrix_counts got = {0};
	struct ts_child *c = malloc(sizeof *c);
	struct ts_env env = {0};
	char abi[8], generated[256];
	struct spec sp;
	int ok = 0;

	if (!c || read_spec(spec_path, &sp) != 0) {
		CU_FAIL("cannot read the spec");
		free(c);
		return 0;
	}
	snprintf(abi, sizeof abi, "%d", cell->abi);
	snprintf(generated, sizeof generated, "%s/%s/cu%s", CUDASTUB_TEST_GENERATED_DIR,
		 cell->lib->spec, abi);
	ts_env_add(&env, "%s=%s", sp.path_var, cell->library);
	ts_env_add(&env, VAR_STUB "=%s", cell->stub);
	ts_env_add(&env, VAR_LIBRARY "=%s", cell->library);
	ts_env_add(&env, VAR_SPEC "=%s", spec_path);
	ts_env_add(&env, VAR_GATING "=%s/%s_gating.tsv", generated, cell->lib->spec);
	ts_env_add(&env, VAR_SYMBOLS "=%s/%s.symbols", generated, cell->lib->spec);
	ts_env_add(&env, VAR_RECORD "=%s",
		   source_file("data/abi/%s-%s.abi", cell->lib->spec, cell->abi_version));
	ts_env_add(&env, VAR_MAJOR "=%d", cell->major);
	ts_env_add(&env, VAR_ABI "=%d", cell->abi);
	ts_env_add(&env, VAR_VERSION "=%s", cell->lib->version_fn);
	ts_env_add(&env, VAR_OUTPUTS "=%d", cell->lib->version_outputs);
	ts_names_free(&sp.own_fallback);
	if (ts_run_scenario(label, "matrix_cell", &env, c)) {
		TS_EXPECT_INT(label, c, "load", CUDASTUB_STATE_LOADED);
		TS_EXPECT(label, c, "version", cell->version);
		TS_EXPECT_INT(label, c, "abi", cell->abi);
		TS_EXPECT_INT(label, c, "same_file", 1);
		TS_EXPECT_SAME(label, c, "version_call_stub", "version_call_direct");
		got.exports = (int)ts_long(c, "exports");
		got.forward = (int)ts_long(c, "forward");
		got.if_present = (int)ts_long(c, "if_present");
		got.routed = (int)ts_long(c, "routed");
		got.adapter = (int)ts_long(c, "adapter");
		got.gated = (int)ts_long(c, "gated");
		got.later_minor = (int)ts_long(c, "later_minor");
		got.called = (int)ts_long(c, "called");
		got.problems = (int)ts_long(c, "problems");
		TS_EXPECT_INT(label, c, "problems", 0);
		if (got.problems)
			fprintf(stderr, "[%s]\n%s", label, c->out);
		CU_ASSERT(got.exports > 0);
		CU_ASSERT_EQUAL(got.forward + got.if_present + got.routed + got.adapter + got.gated,
				got.exports);
		printf("\n  [%s] %d exports: %d forward, %d forward as present, %d by another "
		       "name or translated, %d adapted, %d gated (%d of a later minor; %d called, "
		       "each answering its documented code)",
		       label, got.exports, got.forward, got.if_present, got.routed, got.adapter,
		       got.gated, got.later_minor, got.called);
		ok = 1;
	}
	if (counts)
		*counts = got;
	free(c);
	return ok;
}

/* ---- the child ---- */

struct cell_state {
	struct spec sp;
	int major, abi; /* the loaded library's, the stub's */
	int minor;	/* the loaded library's */
	void *stub, *library;
	struct ts_abi_fn *fns;
	int nfns;
	struct ts_matrix_counts n;
};

/* The gating table's cell for name in column col ("forward" when the table
 * has no line for it: every major takes it as it is). */
static const char *gating_cell(FILE *tsv, const char *name, int col, char *out, size_t size)
{
	char line[4096];

	snprintf(out, size, "forward");
	rewind(tsv);
	while (fgets(line, sizeof line, tsv)) {
		char *save, *field = strtok_r(line, "\t\r\n", &save);

		if (!field || field[0] == '#' || strcmp(field, name))
			continue;
		for (int i = 1; (field = strtok_r(NULL, "\t\r\n", &save)) != NULL; i++)
			if (i == col) {
				snprintf(out, size, "%s", field);
				break;
			}
		break;
	}
	return out;
}

/* The column of "cuda-<major>" in the table's heading, or -1. */
static int gating_column(FILE *tsv, int major)
{
	char line[4096], want[16];

	snprintf(want, sizeof want, "cuda-%d", major);
	while (fgets(line, sizeof line, tsv)) {
		char *save, *field;

		if (strncmp(line, "# function\t", 11))
			continue;
		field = strtok_r(line + 2, "\t\r\n", &save);
		for (int i = 1; (field = strtok_r(NULL, "\t\r\n", &save)) != NULL; i++)
			if (!strcmp(field, want))
				return i;
	}
	return -1;
}

static void problem(struct cell_state *s, const char *name, const char *why)
{
	printf("problem=%s: %s\n", name, why);
	s->n.problems++;
}

/* A gated export, called through the stub with zero arguments. */
typedef int (*zero_args_fn)(long, long, long, long, long, long, long, long);

static void call_gated(struct cell_state *s, const char *name, int want)
{
	const char *ret = ts_abi_return_type(s->fns, s->nfns, name);
	void *fn = dlsym(s->stub, name);
	zero_args_fn call;
	char why[128];
	int got;

	/* Only a result-code function can be called blind: a struct result
	 * needs its hidden pointer, and a fallback of its own (probes, error
	 * strings) writes through its arguments. */
	if (!ret || strcmp(ret, s->sp.result) || ts_names_has(&s->sp.own_fallback, name))
		return;
	if (!fn) {
		problem(s, name, "not exported by the stub");
		return;
	}
	*(void **)&call = fn;
	got = call(0, 0, 0, 0, 0, 0, 0, 0);
	s->n.called++;
	if (got != want) {
		snprintf(why, sizeof why, "gated: returned %d, documented %d", got, want);
		problem(s, name, why);
	}
}

/* Whether a record of a later minor of the loaded major than the loaded
 * one declares name, and the loaded version's own record does not: a
 * function the stub forwards from that minor on. */
static int from_later_minor(struct cell_state *s, const char *name)
{
	static struct ts_abi_fn fns[TS_ABI_MAX];
	char pattern[PATH_MAX];
	int later = 0, own = 0;
	glob_t g;

	snprintf(pattern, sizeof pattern, "%s/data/abi/%s-%d.*.abi", CUDASTUB_TEST_SOURCE_DIR,
		 s->sp.library, s->major);
	if (glob(pattern, 0, NULL, &g) != 0)
		return 0;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		const char *dot = strrchr(g.gl_pathv[i], '-');
		int major, minor, n = ts_abi_functions(g.gl_pathv[i], fns, TS_ABI_MAX);

		if (!dot || sscanf(dot + 1, "%d.%d", &major, &minor) != 2 || n < 0 ||
		    !ts_abi_return_type(fns, n, name))
			continue;
		if (minor > s->minor)
			later = 1;
		else
			own = 1;
	}
	globfree(&g);
	return later && !own;
}

/* One of the route's names ("as-is:a|translated:b") is exported. */
static int route_present(struct cell_state *s, char *routes)
{
	char *save, *route;

	for (route = strtok_r(routes, "|", &save); route; route = strtok_r(NULL, "|", &save)) {
		const char *colon = strchr(route, ':');

		if (colon && dlsym(s->library, colon + 1))
			return 1;
	}
	return 0;
}

static void judge(struct cell_state *s, const char *name, char *cell)
{
	int loaded_newer = s->major > s->abi;

	if (!strcmp(cell, "forward")) {
		if (dlsym(s->library, name)) {
			s->n.forward++;
		} else if (from_later_minor(s, name)) {
			s->n.gated++;
			s->n.later_minor++;
			call_gated(s, name, s->sp.code_function);
		} else {
			s->n.forward++;
			problem(s, name, "forward, but the library does not export it");
		}
	} else if (!strcmp(cell, "forward-if-present")) {
		if (dlsym(s->library, name)) {
			s->n.if_present++;
		} else {
			s->n.gated++;
			call_gated(s, name,
				   loaded_newer ? s->sp.code_removed : s->sp.code_function);
		}
	} else if (!strncmp(cell, "as-is:", 6) || !strncmp(cell, "translated:", 11)) {
		s->n.routed++;
		if (!route_present(s, cell))
			problem(s, name, "routed, but the library exports none of its names");
	} else if (!strcmp(cell, "adapter")) {
		s->n.adapter++;
	} else if (!strcmp(cell, "absent")) {
		s->n.gated++;
		call_gated(s, name, s->sp.code_function);
	} else if (!strcmp(cell, "removed")) {
		s->n.gated++;
		call_gated(s, name, s->sp.code_removed);
	} else if (!strcmp(cell, "abi-differs")) {
		s->n.gated++;
		call_gated(s, name, s->sp.code_abi);
	} else {
		problem(s, name, "a cell the matrix does not know");
	}
}

/* The stub searches now; prints load, version and abi, and opens the
 * library it chose (already in the process, or it is not that file). */
static int load(struct cell_state *s)
{
	char entry[96];
	cudastub_state (*load_now)(void);
	const cudastub_library_info *(*info)(void);
	const cudastub_library_info *i;

	snprintf(entry, sizeof entry, "cudastub_%s_load", s->sp.library);
	*(void **)&load_now = dlsym(s->stub, entry);
	snprintf(entry, sizeof entry, "cudastub_%s_info", s->sp.library);
	*(void **)&info = dlsym(s->stub, entry);
	if (!load_now || !info)
		return -1;
	printf("load=%d\n", (int)load_now());
	i = info();
	printf("version=%d.%d\n", i->major, i->minor);
	s->minor = i->minor;
	printf("abi=%d\n", i->abi_major);
	s->library = dlopen(getenv(VAR_LIBRARY), RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
	printf("same_file=%d\n", s->library != NULL);
	return s->library ? 0 : -1;
}

/* The version query through handle: "<code> <output> [<output>]". */
static void version_call(void *handle, const char *key)
{
	const char *name = getenv(VAR_VERSION);
	int two = getenv(VAR_OUTPUTS) && atoi(getenv(VAR_OUTPUTS)) == 2;
	int a = -7, b = -7, rc;
	void *fn = name ? dlsym(handle, name) : NULL;

	if (!fn) {
		printf("%s=(no %s)\n", key, name ? name : "version query");
		return;
	}
	if (two) {
		int (*call)(int *, int *);

		*(void **)&call = fn;
		rc = call(&a, &b);
		printf("%s=%d %d %d\n", key, rc, a, b);
	} else {
		int (*call)(int *);

		*(void **)&call = fn;
		rc = call(&a);
		printf("%s=%d %d\n", key, rc, a);
	}
}

int ts_matrix_child(void)
{
	static struct ts_abi_fn fns[TS_ABI_MAX];
	struct cell_state s = {.fns = fns,
			       .major = atoi(getenv(VAR_MAJOR) ? getenv(VAR_MAJOR) : ""),
			       .abi = atoi(getenv(VAR_ABI) ? getenv(VAR_ABI) : "")};
	struct ts_names symbols = {0};
	char cell[512];
	FILE *tsv;
	int col;

	s.stub = dlopen(getenv(VAR_STUB), RTLD_NOW | RTLD_LOCAL);
	if (!s.stub || read_spec(getenv(VAR_SPEC), &s.sp) != 0 ||
	    ts_names_read_list(&symbols, getenv(VAR_SYMBOLS)) != 0 ||
	    (s.nfns = ts_abi_functions(getenv(VAR_RECORD), fns, TS_ABI_MAX)) <= 0) {
		fprintf(stderr, "matrix cell: cannot open the stub or read its files\n");
		return 3;
	}
	if (load(&s) != 0)
		return 4;
	version_call(s.stub, "version_call_stub");
	version_call(s.library, "version_call_direct");
	tsv = fopen(getenv(VAR_GATING), "r");
	col = tsv ? gating_column(tsv, s.major) : -1;
	if (col < 0) {
		fprintf(stderr, "matrix cell: no column for this major in the gating table\n");
		return 5;
	}
	for (size_t i = 0; i < symbols.count; i++) {
		s.n.exports++;
		judge(&s, symbols.names[i],
		      (char *)gating_cell(tsv, symbols.names[i], col, cell, sizeof cell));
	}
	fclose(tsv);
	printf("exports=%d\nforward=%d\nif_present=%d\nrouted=%d\nadapter=%d\ngated=%d\n"
	       "later_minor=%d\ncalled=%d\nproblems=%d\n",
	       s.n.exports, s.n.forward, s.n.if_present, s.n.routed, s.n.adapter, s.n.gated,
	       s.n.later_minor, s.n.called, s.n.problems);
	ts_names_free(&symbols);
	ts_names_free(&s.sp.own_fallback);
	return 0;
}

/* ---- a suite of rows ---- */

const char *ts_matrix_abi_version(int abi)
{
	return abi == 11 ? "11.8" : abi == 12 ? "12.4" : "13.0";
}

void ts_matrix_no_stub(int abi, const char *what)
{
	char why[160];

	snprintf(why, sizeof why,
		 "no %d-ABI %s stub: fetch the headers (tests/fixtures/fetch.sh), then "
		 "configure again",
		 abi, what);
	ts_unavailable(why);
}

/* The suite ts_matrix_main runs: CUnit's tests take no argument. */
static const struct ts_matrix_suite *rows_suite;

static void test_abi_13(void)
{
	rows_suite->row(13);
}

static void test_abi_12(void)
{
	rows_suite->row(12);
}

static void test_abi_11(void)
{
	rows_suite->row(11);
}

int ts_matrix_main(int argc, char **argv, const struct ts_matrix_suite *suite)
{
	static const struct ts_scenario matrix_only[] = {TS_MATRIX_SCENARIO, {NULL, NULL}};
	static const CU_TestFunc rows[] = {test_abi_13, test_abi_12, test_abi_11};
	enum { ROWS = sizeof rows / sizeof *rows, MORE_MAX = 8 };
	static char names[ROWS][128];
	static struct ts_test tests[ROWS + MORE_MAX + 1];
	struct ts_suite as_suite = {suite->name, NULL, NULL, tests};
	int n = 0;

	rows_suite = suite;
	for (int i = 0; i < ROWS; i++) {
		snprintf(names[i], sizeof names[i], "%d-ABI stub on %s", 13 - i, suite->against);
		tests[n++] = (struct ts_test){names[i], rows[i]};
	}
	for (int i = 0; suite->more && suite->more[i].name && i < MORE_MAX; i++)
		tests[n++] = suite->more[i];
	tests[n] = (struct ts_test){NULL, NULL};
	return ts_main_suite(argc, argv, suite->scenarios ? suite->scenarios : matrix_only,
			     &as_suite);
}

/*
 * The real-driver children, one fresh process each:
 *
 *   calls    cuDriverGetVersion, cuInit(0), cuDeviceGetCount through the
 *            stub, then the same directly on the driver it loaded; the
 *            stub's info; cuGetProcAddress (real_procs.c); the 13.0-only
 *            cuCtxCreate_v4 and cuLogsCurrent
 *   fresh    the same three on CD_DRIVER in a process where the stub never
 *            ran: what a program linked to the driver itself sees
 *   errors   cuGetErrorName and cuGetErrorString for every code, the
 *            stub's answer against the driver's
 *   missing  every name of cuda.symbols that nm -D does not list for the
 *            driver, called through the stub with zero arguments
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "real_driver.h"
#include "ts_elf.h"

/* The three calls both ways make. */
struct probes {
	int (*version)(int *);
	int (*init)(unsigned int);
	int (*count)(int *);
};

static int probes_from(void *handle, struct probes *p)
{
	*(void **)&p->version = cd_sym(handle, "cuDriverGetVersion");
	*(void **)&p->init = cd_sym(handle, "cuInit");
	*(void **)&p->count = cd_sym(handle, "cuDeviceGetCount");
	return p->version && p->init && p->count ? 0 : -1;
}

static void run_probes(const struct probes *p, const char *prefix)
{
	int v = CD_UNTOUCHED, rc;

	rc = p->version(&v);
	printf("%s_dv_rc=%d\n%s_dv=%d\n", prefix, rc, prefix, v);
	printf("%s_init=%d\n", prefix, p->init(0));
	v = CD_UNTOUCHED;
	rc = p->count(&v);
	printf("%s_count_rc=%d\n%s_count=%d\n", prefix, rc, prefix, v);
}

/* The driver file the stub should have loaded; with noload, only if it
 * is already in the process. */
static void *open_driver(int noload)
{
	const char *file = getenv(CD_DRIVER_VAR);
	void *handle =
		file ? dlopen(file, RTLD_NOW | RTLD_LOCAL | (noload ? RTLD_NOLOAD : 0)) : NULL;

	if (noload)
		printf("direct_already_loaded=%d\n", handle != NULL);
	if (!handle)
		fprintf(stderr, "%s: %s\n", file ? file : CD_DRIVER_VAR " unset", dlerror());
	return handle;
}

static int scenario_calls(void)
{
	void *lib = cd_open_lib(), *direct;
	struct probes stub, driver;
	char real[PATH_MAX];
	const cudastub_library_info *(*info)(void);

	if (!lib || probes_from(lib, &stub) != 0)
		return 3;
	run_probes(&stub, "stub");
	if (cd_search(lib) != 0)
		return 4;
	*(void **)&info = cd_sym(lib, "cudastub_cuda_info");
	printf("info_path_real=%s\n",
	       info()->path && realpath(info()->path, real) ? real : "(none)");
	direct = open_driver(1);
	if (!direct || probes_from(direct, &driver) != 0)
		return 5;
	run_probes(&driver, "direct");
	rd_compare_get_proc(lib, direct);
	/* 13.0 only: the driver lacks them */
	printf("cuCtxCreate_v4_rc=%d\n", cd_call_with_zeros(cd_sym(lib, "cuCtxCreate_v4")));
	printf("cuLogsCurrent_rc=%d\n", cd_call_with_zeros(cd_sym(lib, "cuLogsCurrent")));
	printf("direct_has_cuCtxCreate_v4=%d\n", dlsym(direct, "cuCtxCreate_v4") != NULL);
	printf("direct_has_cuLogsCurrent=%d\n", dlsym(direct, "cuLogsCurrent") != NULL);
	return 0;
}

static int scenario_fresh(void)
{
	void *direct = open_driver(0);
	struct probes driver;

	if (!direct || probes_from(direct, &driver) != 0)
		return 3;
	run_probes(&driver, "fresh");
	return 0;
}

/* ---- every error code ---- */

typedef int (*error_fn)(int, const char **);

struct errors {
	error_fn name, string, direct_name, direct_string;
	int checked, name_mismatches, string_mismatches, named;
	char first_mismatch[600];
};

static int same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* One of the two functions, the stub first: same code, same string. */
static int agree(error_fn stub, error_fn direct, int code, char *what, size_t size)
{
	const char *s = "(untouched)", *d = "(untouched)";
	int rc = stub(code, &s), direct_rc = direct(code, &d);

	snprintf(what, size, "%d %.100s vs %d %.100s", rc, s ? s : "(null)", direct_rc,
		 d ? d : "(null)");
	return rc == direct_rc && same(s, d);
}

static void compare_code(struct errors *e, int code)
{
	char name[256], string[256];
	int name_same = agree(e->name, e->direct_name, code, name, sizeof name);
	int string_same = agree(e->string, e->direct_string, code, string, sizeof string);
	const char *s = NULL;

	e->checked++;
	e->name_mismatches += !name_same;
	e->string_mismatches += !string_same;
	e->named += e->direct_name(code, &s) == CD_SUCCESS;
	if ((!name_same || !string_same) && !e->first_mismatch[0])
		snprintf(e->first_mismatch, sizeof e->first_mismatch, "%d: %s; %s", code, name,
			 string);
}

static int open_errors(void *lib, void *direct, struct errors *e)
{
	*(void **)&e->name = cd_sym(lib, "cuGetErrorName");
	*(void **)&e->string = cd_sym(lib, "cuGetErrorString");
	*(void **)&e->direct_name = cd_sym(direct, "cuGetErrorName");
	*(void **)&e->direct_string = cd_sym(direct, "cuGetErrorString");
	return e->name && e->string && e->direct_name && e->direct_string ? 0 : -1;
}

static int scenario_errors(void)
{
	static struct ts_abi_code codes[TS_ABI_MAX];
	static const int extra[] = {-1, 1001, 10000, INT_MAX, INT_MIN};
	static struct errors e;
	const char *record = getenv(CD_ABI_VAR), *s = NULL;
	void *lib = cd_open_lib(), *direct;
	int n = record ? ts_abi_codes(record, "CUresult", codes, TS_ABI_MAX) : -1;

	if (!lib || n <= 0 || cd_search(lib) != 0)
		return 3;
	direct = open_driver(1);
	if (!direct || open_errors(lib, direct, &e) != 0)
		return 4;
	for (int code = 0; code <= 1000; code++)
		compare_code(&e, code);
	for (size_t i = 0; i < sizeof extra / sizeof *extra; i++)
		compare_code(&e, extra[i]);
	for (int i = 0; i < n; i++)
		compare_code(&e, codes[i].value);
	printf("errors_checked=%d\nenum_codes=%d\nnamed=%d\n", e.checked, n, e.named);
	printf("name_mismatches=%d\nstring_mismatches=%d\n", e.name_mismatches,
	       e.string_mismatches);
	ts_print_line("first_mismatch", e.first_mismatch[0] ? e.first_mismatch : "none");
	e.name(CD_STUB_LIBRARY, &s);
	ts_print_line("name_34", s);
	return 0;
}

/* ---- the names the driver lacks ---- */

struct missing {
	int count, not_cuResult, found_by_dlsym, not_found, wrong;
	char first_wrong[256], names[8192];
};

static void call_missing(void *lib, void *direct, const char *name, const char *ret,
			 struct missing *m)
{
	int rc;

	m->count++;
	if (strlen(m->names) + strlen(name) + 2 < sizeof m->names)
		strcat(strcat(m->names, m->names[0] ? " " : ""), name);
	m->found_by_dlsym += dlsym(direct, name) != NULL;
	if (!ret || strcmp(ret, "CUresult")) {
		m->not_cuResult++; /* not called: another ABI */
		return;
	}
	fprintf(stderr, "calling %s\n", name); /* a crash names its function */
	rc = cd_call_with_zeros(cd_sym(lib, name));
	m->not_found += rc == CD_NOT_FOUND;
	if (rc != CD_NOT_FOUND && !m->wrong++)
		snprintf(m->first_wrong, sizeof m->first_wrong, "%s returned %d", name, rc);
}

static int scenario_missing(void)
{
	static struct ts_abi_fn fns[TS_ABI_MAX];
	static struct missing m;
	const char *list = getenv(CD_SYMBOLS_VAR), *record = getenv(CD_ABI_VAR);
	const char *file = getenv(CD_DRIVER_VAR);
	struct ts_names symbols = {0}, exported = {0}, verdef = {0};
	void *lib = cd_open_lib(), *direct;
	int n = record ? ts_abi_functions(record, fns, TS_ABI_MAX) : -1, unversioned;

	if (!lib || n <= 0 || !list || !file || ts_names_read_list(&symbols, list) != 0 ||
	    ts_names_exported(&exported, file, NULL, &unversioned) != 0 ||
	    ts_names_dynamic(&verdef, file, "VERDEF") != 0 || cd_search(lib) != 0)
		return 3;
	direct = open_driver(1);
	if (!direct)
		return 4;
	for (size_t i = 0; i < symbols.count; i++)
		if (!ts_names_has(&exported, symbols.names[i]))
			call_missing(lib, direct, symbols.names[i],
				     ts_abi_return_type(fns, n, symbols.names[i]), &m);
	printf("stub_exports=%zu\ndriver_exports=%zu\ndriver_verdef=%zu\n", symbols.count,
	       exported.count, verdef.count);
	printf("missing=%d\nmissing_not_cuResult=%d\nmissing_found_by_dlsym=%d\n", m.count,
	       m.not_cuResult, m.found_by_dlsym);
	printf("missing_not_found=%d\nmissing_wrong=%d\n", m.not_found, m.wrong);
	ts_print_line("missing_first_wrong", m.first_wrong[0] ? m.first_wrong : "none");
	ts_print_line("missing_names", m.names);
	ts_names_free(&symbols);
	ts_names_free(&exported);
	ts_names_free(&verdef);
	return 0;
}

/* The search alone: its outcome, what it tried, and the error string of
 * the stub's "no driver" code (the search's summary when it found
 * nothing). */
static int scenario_search(void)
{
	void *lib = cd_open_lib();
	int (*error_string)(int, const char **);
	const char *text = NULL;

	if (!lib || cd_search(lib) != 0)
		return 3;
	*(void **)&error_string = cd_sym(lib, "cuGetErrorString");
	if (error_string)
		error_string(CD_NO_DRIVER, &text);
	ts_print_line("stub_library_string", text);
	return 0;
}

const struct ts_scenario rd_scenarios[] = {
	{"calls", scenario_calls},   {"search", scenario_search},   {"fresh", scenario_fresh},
	{"errors", scenario_errors}, {"missing", scenario_missing}, {NULL, NULL},
};

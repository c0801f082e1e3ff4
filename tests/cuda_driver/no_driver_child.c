/* The no-driver children (see no_driver.h). */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "no_driver.h"
#include "ts_elf.h"

/* What a call with zero arguments must return without a driver: the
 * stub's code, but for the two error functions, whose NULL out-parameter
 * is invalid whatever the driver (as the driver itself answers). */
static int expected(const char *name)
{
	if (!strcmp(name, "cuGetErrorName") || !strcmp(name, "cuGetErrorString"))
		return CD_INVALID_VALUE;
	return CD_NO_DRIVER;
}

static int scenario_every_export(void)
{
	static struct ts_abi_fn fns[TS_ABI_MAX];
	const char *list = getenv(CD_SYMBOLS_VAR), *record = getenv(CD_ABI_VAR);
	struct ts_names symbols = {0};
	int n, called = 0, missing = 0, not_cuResult = 0, wrong = 0;
	char first_wrong[256] = "none";
	void *lib = cd_open_lib();

	n = record ? ts_abi_functions(record, fns, TS_ABI_MAX) : -1;
	if (!lib || n <= 0 || !list || ts_names_read_list(&symbols, list) != 0)
		return 3;
	for (size_t i = 0; i < symbols.count; i++) {
		const char *name = symbols.names[i], *ret = ts_abi_return_type(fns, n, name);
		void *fn = cd_sym(lib, name);
		int rc;

		if (!fn) {
			missing++;
			continue;
		}
		if (!ret || strcmp(ret, "CUresult")) { /* not called: another ABI */
			not_cuResult++;
			continue;
		}
		fprintf(stderr, "calling %s\n", name); /* a crash names its function */
		rc = cd_call_with_zeros(fn);
		called++;
		if (rc != expected(name) && !wrong++)
			snprintf(first_wrong, sizeof first_wrong, "%s returned %d", name, rc);
	}
	printf("exports=%zu\ncalled=%d\nmissing=%d\nnot_cuResult=%d\n", symbols.count, called,
	       missing, not_cuResult);
	printf("wrong=%d\nfirst_wrong=%s\n", wrong, first_wrong);
	ts_names_free(&symbols);
	return 0;
}

static int scenario_probes(void)
{
	static const char *const names[] = {"cuDriverGetVersion", "cuDeviceGetCount"};
	static const char *const keys[] = {"dv", "count"};
	void *lib = cd_open_lib();

	if (!lib)
		return 3;
	for (int i = 0; i < 2; i++) {
		int (*fn)(int *);
		int out = 7;

		*(void **)&fn = cd_sym(lib, names[i]);
		if (!fn)
			return 4;
		printf("%s_rc=%d\n", keys[i], fn(&out));
		printf("%s=%d\n", keys[i], out);
		printf("%s_null_rc=%d\n", keys[i], fn(NULL)); /* no crash */
	}
	return cd_search(lib) == 0 ? 0 : 5;
}

typedef int (*error_fn)(int, const char **);

struct tally {
	int name_wrong, string_wrong, unknown_wrong;
	char first[256];
};

static int same(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/* A known code: named by the enum, its string its name (no driver to
 * describe it), but for its own "no driver" code (100), which the stub explains. */
static void check_known(error_fn name, error_fn string, const struct ts_abi_code *code,
			struct tally *t)
{
	const char *n = "(untouched)", *s = "(untouched)";
	int name_rc = name(code->value, &n), string_rc = string(code->value, &s);
	int name_ok = name_rc == CD_SUCCESS && same(n, code->name);
	int string_ok = string_rc == CD_SUCCESS &&
			(code->value == CD_NO_DRIVER ? s && *s : same(s, code->name));

	t->name_wrong += !name_ok;
	t->string_wrong += !string_ok;
	if ((!name_ok || !string_ok) && !t->first[0])
		snprintf(t->first, sizeof t->first, "%d %.60s: %d %.60s / %d %.60s", code->value,
			 code->name, name_rc, n ? n : "(null)", string_rc, s ? s : "(null)");
}

/* An unknown code: CUDA_ERROR_INVALID_VALUE and a NULL string. */
static void check_unknown(error_fn name, error_fn string, int code, struct tally *t)
{
	const char *n = "(untouched)", *s = "(untouched)";

	t->unknown_wrong += name(code, &n) != CD_INVALID_VALUE || n != NULL;
	t->unknown_wrong += string(code, &s) != CD_INVALID_VALUE || s != NULL;
}

static int scenario_errors(void)
{
	static struct ts_abi_code codes[TS_ABI_MAX];
	static const int unknown[] = {-1, 1000, 10001, INT_MAX, INT_MIN};
	const char *record = getenv(CD_ABI_VAR), *s = NULL;
	struct tally t = {0};
	error_fn name, string;
	void *lib = cd_open_lib();
	int n;

	n = record ? ts_abi_codes(record, "CUresult", codes, TS_ABI_MAX) : -1;
	if (!lib || n <= 0)
		return 3;
	*(void **)&name = cd_sym(lib, "cuGetErrorName");
	*(void **)&string = cd_sym(lib, "cuGetErrorString");
	if (!name || !string || cd_search(lib) != 0)
		return 4;
	for (int i = 0; i < n; i++)
		check_known(name, string, &codes[i], &t);
	for (size_t i = 0; i < sizeof unknown / sizeof *unknown; i++)
		check_unknown(name, string, unknown[i], &t);
	printf("enum_codes=%d\nname_wrong=%d\nstring_wrong=%d\n", n, t.name_wrong, t.string_wrong);
	printf("first_wrong=%s\nunknown_wrong=%d\n", t.first[0] ? t.first : "none",
	       t.unknown_wrong);
	printf("name_no_driver_rc=%d\n", name(CD_NO_DRIVER, &s));
	ts_print_line("name_no_driver", s);
	printf("string_no_driver_rc=%d\n", string(CD_NO_DRIVER, &s));
	ts_print_line("string_no_driver", s);
	printf("string_no_driver_null_rc=%d\n", string(CD_NO_DRIVER, NULL));
	string(CD_STUB_LIBRARY, &s);
	ts_print_line("string_34", s);
	return 0;
}

const struct ts_scenario nd_scenarios[] = {
	{"every_export", scenario_every_export},
	{"probes", scenario_probes},
	{"errors", scenario_errors},
	{NULL, NULL},
};

/*
 * The no-runtime children: each opens the stub (CT_STUB) by path, makes it
 * search (and fail), then calls it through dlsym.
 *
 *   probes  cudaGetDeviceCount, cudaRuntimeGetVersion, cudaDriverGetVersion
 *           on outputs preset to 7; then the stub's info
 *   errors  cudaGetErrorName/String for every enumerator of the ABI record
 *           (CT_ABI), unknown codes, and the stub's own 35; with CT_REAL,
 *           the names against that real runtime's for every code
 *   sticky  cudaGetLastError and cudaPeekAtLastError, again and again, and
 *           after another failed call
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "no_library.h"

static const char unknown[] = "unrecognized error code";

void *nl_open_stub(void)
{
	const char *path = getenv(NL_STUB_VAR);
	void *stub = path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;

	if (!stub)
		fprintf(stderr, "cannot open the stub %s: %s\n", path ? path : "(unset)",
			dlerror());
	return stub;
}

/* Runs the stub's search now; prints and returns its info. */
static const cudastub_library_info *search(void *stub)
{
	cudastub_state (*load)(void);
	const cudastub_library_info *(*info)(void);

	*(void **)&load = dlsym(stub, "cudastub_cudart_load");
	*(void **)&info = dlsym(stub, "cudastub_cudart_info");
	if (!load || !info)
		return NULL;
	printf("load=%d\n", (int)load());
	ts_print_info(info());
	return info();
}

static int scenario_probes(void)
{
	static const char *const names[] = {"cudaGetDeviceCount", "cudaRuntimeGetVersion",
					    "cudaDriverGetVersion"};
	static const char *const keys[] = {"count", "rv", "dv"};
	void *stub = nl_open_stub();

	if (!stub)
		return 3;
	for (int i = 0; i < 3; i++) {
		cudaError_t (*fn)(int *);
		int out = 7;

		*(void **)&fn = dlsym(stub, names[i]);
		if (!fn)
			return 4;
		printf("%s_rc=%d\n", keys[i], (int)fn(&out));
		printf("%s=%d\n", keys[i], out);
		printf("%s_null_rc=%d\n", keys[i], (int)fn(NULL)); /* no crash */
	}
	return search(stub) ? 0 : 5;
}

struct names {
	const char *(*name)(cudaError_t);
	const char *(*string)(cudaError_t);
};

static int open_names(void *handle, struct names *n)
{
	*(void **)&n->name = dlsym(handle, "cudaGetErrorName");
	*(void **)&n->string = dlsym(handle, "cudaGetErrorString");
	return n->name && n->string ? 0 : -1;
}

static int same(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/* The stub's names against the real runtime's, for every code. */
static void against_real(const struct names *stub, const struct ts_abi_code *codes, int n)
{
	static const int extra[] = {-1, 10000, 10001, INT_MAX, INT_MIN};
	const char *path = getenv(NL_REAL_VAR);
	void *real = path && *path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
	int mismatches = 0, checked = 0;
	char first[256] = "none";
	struct names r;

	printf("real_opened=%d\n", real != NULL);
	if (!real || open_names(real, &r) != 0)
		return;
	for (int i = 0; i < 1001 + 5 + n; i++) {
		int code = i <= 1000 ? i : i <= 1005 ? extra[i - 1001] : codes[i - 1006].value;
		const char *a = stub->name((cudaError_t)code), *b = r.name((cudaError_t)code);

		checked++;
		if (!same(a, b) && !mismatches++)
			snprintf(first, sizeof first, "%d: %.100s vs %.100s", code,
				 a ? a : "(null)", b ? b : "(null)");
	}
	printf("real_checked=%d\nreal_name_mismatches=%d\nreal_first_mismatch=%s\n", checked,
	       mismatches, first);
}

static int scenario_errors(void)
{
	static struct ts_abi_code codes[TS_ABI_MAX];
	static const int unknown_codes[] = {-1, 1000, 10001, INT_MAX, INT_MIN};
	const char *record = getenv(NL_ABI_VAR);
	void *stub = nl_open_stub();
	int n, name_wrong = 0, string_wrong = 0, unknown_wrong = 0;
	char first[256] = "none";
	struct names s;

	n = record ? ts_abi_codes(record, "cudaError_t", codes, TS_ABI_MAX) : -1;
	if (!stub || n <= 0 || open_names(stub, &s) != 0 || !search(stub))
		return 3;
	for (int i = 0; i < n; i++) {
		cudaError_t code = (cudaError_t)codes[i].value;
		int name_ok = same(s.name(code), codes[i].name);
		/* without a runtime the string is the name, but for the stub's
		 * own code */
		int string_ok = code == CT_NO_RUNTIME || same(s.string(code), codes[i].name);

		name_wrong += !name_ok;
		string_wrong += !string_ok;
		if ((!name_ok || !string_ok) && !strcmp(first, "none"))
			snprintf(first, sizeof first, "%d %.60s: %.80s / %.80s", codes[i].value,
				 codes[i].name, s.name(code) ? s.name(code) : "(null)",
				 s.string(code) ? s.string(code) : "(null)");
	}
	for (size_t i = 0; i < sizeof unknown_codes / sizeof *unknown_codes; i++)
		unknown_wrong += !same(s.name((cudaError_t)unknown_codes[i]), unknown) ||
				 !same(s.string((cudaError_t)unknown_codes[i]), unknown);
	printf("enum_codes=%d\nname_wrong=%d\nstring_wrong=%d\nfirst_wrong=%s\n", n, name_wrong,
	       string_wrong, first);
	printf("unknown_wrong=%d\n", unknown_wrong);
	printf("name_no_runtime=%s\n", s.name(CT_NO_RUNTIME));
	printf("string_no_runtime=%s\n", s.string(CT_NO_RUNTIME));
	printf("string_34=%s\n", s.string(cudaErrorStubLibrary));
	against_real(&s, codes, n);
	return 0;
}

static int scenario_sticky(void)
{
	cudaError_t (*last)(void), (*peek)(void), (*alloc)(void **, size_t);
	static char marker;
	void *stub = nl_open_stub(), *p = &marker;

	if (!stub)
		return 3;
	*(void **)&last = dlsym(stub, "cudaGetLastError");
	*(void **)&peek = dlsym(stub, "cudaPeekAtLastError");
	*(void **)&alloc = dlsym(stub, "cudaMalloc");
	if (!last || !peek || !alloc)
		return 4;
	printf("last_1=%d\n", (int)last());
	printf("last_2=%d\n", (int)last());
	printf("peek_1=%d\n", (int)peek());
	printf("last_3=%d\n", (int)last());
	printf("peek_2=%d\n", (int)peek());
	printf("malloc_rc=%d\n", (int)alloc(&p, 16));
	printf("malloc_ptr=%s\n", p == &marker ? "untouched" : p ? "set" : "null");
	printf("last_4=%d\n", (int)last());
	printf("peek_3=%d\n", (int)peek());
	return 0;
}

const struct ts_scenario nl_scenarios[] = {
	{"every_export", nl_scenario_every_export},
	{"probes", scenario_probes},
	{"errors", scenario_errors},
	{"sticky", scenario_sticky},
	{NULL, NULL},
};

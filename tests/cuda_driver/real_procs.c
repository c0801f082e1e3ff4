/*
 * cuGetProcAddress and cuGetProcAddress_v2 through the stub against the
 * same call made directly on the driver the stub loaded: the stub hands
 * the call on unchanged, so the pointer is the driver's own, never one of
 * the stub's wrappers. For each name and version, printed with the prefix
 * gpa_<symbol>_<version> (gpa2_ for _v2):
 *   _rc, _direct_rc        the codes
 *   _same                  1 when both handed out the same pointer
 *   _null                  1 when that pointer is NULL
 *   _wrapper               1 when it is an export of the stub
 *   _status, _direct_status   (_v2) CUdriverProcAddressQueryResult
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>

#include "real_driver.h"

typedef int (*get_proc_fn)(const char *, void **, int, unsigned long long);
typedef int (*get_proc_v2_fn)(const char *, void **, int, unsigned long long, int *);

static const struct {
	const char *symbol;
	int version;
} asks[] = {
	{"cuMemAlloc", 3010},
	{"cuMemAlloc", 11000},
	{"cuMemAlloc", 12000},
	{"cuCtxCreate", 11000},
	{"cuCtxCreate", 12000},
	{"cuInit", 12000},
	{"cuGetProcAddress", 12000},
	{"cuDriverGetVersion", 12040},
	/* newer than the driver, and a name it does not know */
	{"cuCtxCreate", 13000},
	{"cuLogsCurrent", 12080},
	{"cuNoSuchFunction", 12000},
};

/* Whether p is one of the stub's exports (the name asked, or its _v2). */
static int is_wrapper(void *stub, const char *symbol, void *p)
{
	char v2[96];

	snprintf(v2, sizeof v2, "%s_v2", symbol);
	return p && (p == dlsym(stub, symbol) || p == dlsym(stub, v2));
}

static void print_pair(void *stub, const char *prefix, const char *symbol, int rc, void *p,
		       int direct_rc, void *direct_p)
{
	printf("%s_rc=%d\n%s_direct_rc=%d\n", prefix, rc, prefix, direct_rc);
	printf("%s_same=%d\n%s_null=%d\n", prefix, p == direct_p, prefix, p == NULL);
	printf("%s_wrapper=%d\n", prefix, is_wrapper(stub, symbol, p));
}

void rd_compare_get_proc(void *stub, void *direct)
{
	get_proc_fn gpa, direct_gpa;
	get_proc_v2_fn gpa2, direct_gpa2;

	*(void **)&gpa = cd_sym(stub, "cuGetProcAddress");
	*(void **)&gpa2 = cd_sym(stub, "cuGetProcAddress_v2");
	*(void **)&direct_gpa = cd_sym(direct, "cuGetProcAddress");
	*(void **)&direct_gpa2 = cd_sym(direct, "cuGetProcAddress_v2");
	if (!gpa || !gpa2 || !direct_gpa || !direct_gpa2)
		return;
	for (size_t i = 0; i < sizeof asks / sizeof *asks; i++) {
		const char *symbol = asks[i].symbol;
		int version = asks[i].version, rc, direct_rc, status = CD_UNTOUCHED,
		    direct_status = CD_UNTOUCHED;
		void *p = NULL, *direct_p = NULL;
		char prefix[128];

		/* the stub first, then the driver directly */
		rc = gpa(symbol, &p, version, 0);
		direct_rc = direct_gpa(symbol, &direct_p, version, 0);
		snprintf(prefix, sizeof prefix, "gpa_%s_%d", symbol, version);
		print_pair(stub, prefix, symbol, rc, p, direct_rc, direct_p);
		p = direct_p = NULL;
		rc = gpa2(symbol, &p, version, 0, &status);
		direct_rc = direct_gpa2(symbol, &direct_p, version, 0, &direct_status);
		snprintf(prefix, sizeof prefix, "gpa2_%s_%d", symbol, version);
		print_pair(stub, prefix, symbol, rc, p, direct_rc, direct_p);
		printf("%s_status=%d\n%s_direct_status=%d\n", prefix, status, prefix,
		       direct_status);
	}
	printf("gpa_asked=%zu\n", sizeof asks / sizeof *asks);
}

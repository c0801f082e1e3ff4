/*
 * The fake driver (tests/cuda_driver/fakes, CUDA 12.4, built without
 * NVIDIA's headers) through the stub and through the shim, selected by
 * CUDASTUB_CUDA_PATH. The fake records which symbol each call reached:
 *
 *  - cuDriverGetVersion gives the fake's 12040, and info names the fake;
 *  - cuMemAlloc (legacy: 32-bit device pointer) reaches cuMemAlloc and
 *    writes 4 bytes; cuMemAlloc_v2 reaches cuMemAlloc_v2 and writes 8;
 *    cuCtxCreate and cuCtxCreate_v2 the same: a legacy name never reaches
 *    the _v2 symbol, nor the other way round;
 *  - cuGetProcAddress and cuGetProcAddress_v2 reach their own symbols with
 *    the version and flags unchanged, and hand out the fake's own pointers
 *    (legacy below CUDA 3.2, _v2 from it), never the stub's wrappers.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "cuda_driver_test.h"

/* ---- the child ---- */

/* The fake's log, read through its own handle. */
struct fake_log {
	const char *(*last)(void);
	int (*calls_of)(const char *);
	int (*version)(void);
	unsigned long long (*flags)(void);
	void *handle;
};

static int open_fake(struct fake_log *f)
{
	/* RTLD_NOLOAD: only the copy the stub loaded */
	f->handle = dlopen(cd_fake(), RTLD_NOW | RTLD_NOLOAD);
	printf("fake_loaded=%d\n", f->handle != NULL);
	if (!f->handle)
		return -1;
	*(void **)&f->last = cd_sym(f->handle, "fake_cuda_last_call");
	*(void **)&f->calls_of = cd_sym(f->handle, "fake_cuda_calls_of");
	*(void **)&f->version = cd_sym(f->handle, "fake_cuda_last_version");
	*(void **)&f->flags = cd_sym(f->handle, "fake_cuda_last_flags");
	return f->last && f->calls_of && f->version && f->flags ? 0 : -1;
}

/* What the call named name reached: <name>_last, and how often each of
 * the pair has run so far. */
static void after(const struct fake_log *f, const char *name, const char *legacy, int rc)
{
	char v2[64];

	snprintf(v2, sizeof v2, "%s_v2", legacy);
	printf("%s_rc=%d\n%s_last=%s\n", name, rc, name, f->last());
	printf("%s_legacy_calls=%d\n%s_v2_calls=%d\n", name, f->calls_of(legacy), name,
	       f->calls_of(v2));
}

static int call_allocators(void *lib, const struct fake_log *f)
{
	int (*legacy)(unsigned int *, unsigned int);
	int (*v2)(unsigned long long *, size_t);
	unsigned long long value;

	*(void **)&legacy = cd_sym(lib, "cuMemAlloc");
	*(void **)&v2 = cd_sym(lib, "cuMemAlloc_v2");
	if (!legacy || !v2)
		return -1;
	/* a 64-bit cell: the legacy symbol writes its low 4 bytes only */
	value = 0xaaaaaaaaaaaaaaaaull;
	after(f, "cuMemAlloc", "cuMemAlloc", legacy((unsigned int *)&value, 16));
	printf("cuMemAlloc_value=%#llx\n", value);
	value = 0xaaaaaaaaaaaaaaaaull;
	after(f, "cuMemAlloc_v2", "cuMemAlloc", v2(&value, 16));
	printf("cuMemAlloc_v2_value=%#llx\n", value);
	return 0;
}

static int call_contexts(void *lib, const struct fake_log *f)
{
	int (*legacy)(void **, unsigned int, int), (*v2)(void **, unsigned int, int);
	int (*direct)(void **, unsigned int, int);
	void *ctx = NULL, *want = NULL;

	*(void **)&legacy = cd_sym(lib, "cuCtxCreate");
	*(void **)&v2 = cd_sym(lib, "cuCtxCreate_v2");
	*(void **)&direct = cd_sym(f->handle, "cuCtxCreate");
	if (!legacy || !v2 || !direct)
		return -1;
	after(f, "cuCtxCreate", "cuCtxCreate", legacy(&ctx, 0, 0));
	direct(&want, 0, 0); /* the fake's legacy context, called directly */
	printf("cuCtxCreate_ctx_is_legacy=%d\n", ctx && ctx == want);
	after(f, "cuCtxCreate_v2", "cuCtxCreate", v2(&ctx, 0, 0));
	printf("cuCtxCreate_v2_ctx_is_legacy=%d\n", ctx == want);
	return 0;
}

/* key=<the fake's symbol the pointer is>, or other/null */
static void print_pointer(const struct fake_log *f, const char *key, void *p)
{
	static const char *const names[] = {"cuMemAlloc",	"cuMemAlloc_v2",
					    "cuCtxCreate",	"cuCtxCreate_v2",
					    "cuGetProcAddress", "cuGetProcAddress_v2"};
	const char *is = p ? "other" : "null";

	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (p && p == dlsym(f->handle, names[i]))
			is = names[i];
	printf("%s=%s\n", key, is);
}

static int call_get_proc(void *lib, const struct fake_log *f)
{
	static const struct {
		const char *symbol;
		int version;
	} asks[] = {{"cuMemAlloc", 3010},
		    {"cuMemAlloc", 12000},
		    {"cuCtxCreate", 11000},
		    {"cuGetProcAddress", 12000}};
	int (*legacy)(const char *, void **, int, unsigned long long);
	int (*v2)(const char *, void **, int, unsigned long long, int *);

	*(void **)&legacy = cd_sym(lib, "cuGetProcAddress");
	*(void **)&v2 = cd_sym(lib, "cuGetProcAddress_v2");
	if (!legacy || !v2)
		return -1;
	for (size_t i = 0; i < sizeof asks / sizeof *asks; i++) {
		void *p = NULL;
		int status = -1;
		char key[96];

		snprintf(key, sizeof key, "gpa_%s_%d", asks[i].symbol, asks[i].version);
		after(f, key, "cuGetProcAddress", legacy(asks[i].symbol, &p, asks[i].version, 1));
		printf("%s_version=%d\n%s_flags=%llu\n", key, f->version(), key, f->flags());
		print_pointer(f, strcat(key, "_is"), p);
		snprintf(key, sizeof key, "gpa2_%s_%d", asks[i].symbol, asks[i].version);
		p = NULL;
		after(f, key, "cuGetProcAddress",
		      v2(asks[i].symbol, &p, asks[i].version, 2, &status));
		printf("%s_version=%d\n%s_flags=%llu\n%s_status=%d\n", key, f->version(), key,
		       f->flags(), key, status);
		print_pointer(f, strcat(key, "_is"), p);
	}
	return 0;
}

static int scenario_calls(void)
{
	void *lib = cd_open_lib();
	struct fake_log f;
	int (*version)(int *);
	int v = -7;

	if (!lib || cd_search(lib) != 0)
		return 3;
	*(void **)&version = cd_sym(lib, "cuDriverGetVersion");
	if (!version || open_fake(&f) != 0)
		return 4;
	printf("dv_rc=%d\n", version(&v));
	printf("dv=%d\n", v);
	if (call_allocators(lib, &f) || call_contexts(lib, &f) || call_get_proc(lib, &f))
		return 5;
	return 0;
}

static const struct ts_scenario scenarios[] = {{"calls", scenario_calls}, {NULL, NULL}};

/* ---- the parent ---- */

static int run(struct ts_child *c)
{
	struct ts_env env = {0};

	if (!cd_lib_path(cd_selected.lib))
		return 0;
	ts_env_add(&env, CD_LIB_VAR "=%s", cd_selected.lib->path);
	ts_env_add(&env, "CUDASTUB_CUDA_PATH=%s", cd_fake());
	return ts_run_scenario(cd_selected.label, "calls", &env, c);
}

static void test_loads_fake(void)
{
	struct ts_child c;

	if (!run(&c))
		return;
	TS_EXPECT_INT(cd_selected.label, &c, "load", CUDASTUB_STATE_LOADED);
	TS_EXPECT(cd_selected.label, &c, "info_path", cd_fake());
	TS_EXPECT(cd_selected.label, &c, "info_version", "12.4");
	TS_EXPECT_INT(cd_selected.label, &c, "info_source", CUDASTUB_SOURCE_OVERRIDE);
	TS_EXPECT_INT(cd_selected.label, &c, "fake_loaded", 1);
	TS_EXPECT_INT(cd_selected.label, &c, "dv_rc", CD_SUCCESS);
	TS_EXPECT_INT(cd_selected.label, &c, "dv", 12040);
}

/* name reached want, and the pair has run legacy_calls and v2_calls times */
static void expect_reached(const struct ts_child *c, const char *name, const char *want,
			   int legacy_calls, int v2_calls)
{
	char key[128];

	snprintf(key, sizeof key, "%s_rc", name);
	TS_EXPECT_INT(cd_selected.label, c, key, CD_SUCCESS);
	snprintf(key, sizeof key, "%s_last", name);
	TS_EXPECT(cd_selected.label, c, key, want);
	snprintf(key, sizeof key, "%s_legacy_calls", name);
	TS_EXPECT_INT(cd_selected.label, c, key, legacy_calls);
	snprintf(key, sizeof key, "%s_v2_calls", name);
	TS_EXPECT_INT(cd_selected.label, c, key, v2_calls);
}

static void test_legacy_and_v2(void)
{
	struct ts_child c;

	if (!run(&c))
		return;
	expect_reached(&c, "cuMemAlloc", "cuMemAlloc", 1, 0);
	TS_EXPECT(cd_selected.label, &c, "cuMemAlloc_value", "0xaaaaaaaa10000010");
	expect_reached(&c, "cuMemAlloc_v2", "cuMemAlloc_v2", 1, 1);
	TS_EXPECT(cd_selected.label, &c, "cuMemAlloc_v2_value", "0x7f0000000010");
	expect_reached(&c, "cuCtxCreate", "cuCtxCreate", 1, 0);
	TS_EXPECT_INT(cd_selected.label, &c, "cuCtxCreate_ctx_is_legacy", 1);
	/* the direct call above counts as the second legacy one */
	expect_reached(&c, "cuCtxCreate_v2", "cuCtxCreate_v2", 2, 1);
	TS_EXPECT_INT(cd_selected.label, &c, "cuCtxCreate_v2_ctx_is_legacy", 0);
}

static void expect_get_proc(const struct ts_child *c, const char *symbol, int version,
			    const char *is, int n)
{
	char name[96], key[128];

	snprintf(name, sizeof name, "gpa_%s_%d", symbol, version);
	expect_reached(c, name, "cuGetProcAddress", n, n - 1);
	snprintf(key, sizeof key, "%s_version", name);
	TS_EXPECT_INT(cd_selected.label, c, key, version);
	snprintf(key, sizeof key, "%s_flags", name);
	TS_EXPECT_INT(cd_selected.label, c, key, 1);
	snprintf(key, sizeof key, "%s_is", name);
	TS_EXPECT(cd_selected.label, c, key, is);
	snprintf(name, sizeof name, "gpa2_%s_%d", symbol, version);
	expect_reached(c, name, "cuGetProcAddress_v2", n, n);
	snprintf(key, sizeof key, "%s_version", name);
	TS_EXPECT_INT(cd_selected.label, c, key, version);
	snprintf(key, sizeof key, "%s_flags", name);
	TS_EXPECT_INT(cd_selected.label, c, key, 2);
	snprintf(key, sizeof key, "%s_status", name);
	TS_EXPECT_INT(cd_selected.label, c, key, 0);
	snprintf(key, sizeof key, "%s_is", name);
	TS_EXPECT(cd_selected.label, c, key, is);
}

static void test_get_proc_address(void)
{
	struct ts_child c;

	if (!run(&c))
		return;
	expect_get_proc(&c, "cuMemAlloc", 3010, "cuMemAlloc", 1);
	expect_get_proc(&c, "cuMemAlloc", 12000, "cuMemAlloc_v2", 2);
	expect_get_proc(&c, "cuCtxCreate", 11000, "cuCtxCreate_v2", 3);
	expect_get_proc(&c, "cuGetProcAddress", 12000, "cuGetProcAddress_v2", 4);
}

static const struct ts_test tests[] = {
	{"loads the fake, which reports 12040", test_loads_fake},
	{"legacy names reach legacy symbols, _v2 names _v2 symbols", test_legacy_and_v2},
	{"cuGetProcAddress and _v2 reach their own symbols, pointers unchanged",
	 test_get_proc_address},
	{NULL, NULL},
};

int main(int argc, char **argv)
{
	return cd_main(argc, argv, scenarios, "fake driver", NULL, tests);
}

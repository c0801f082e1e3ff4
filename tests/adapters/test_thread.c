/*
 * adapt_thread.c: the 11- and 12-ABI stubs' cudaThread* on a 13 runtime,
 * which has only the cudaDevice* twins. The fakes of every major export
 * cudaDevice*; those of 11 and 12 also cudaThread*.
 *
 * Fake arguments: SetLimit limit, value; GetLimit pValue, limit (writes
 * 1000 + limit); GetCacheConfig (writes PreferEqual); SetCacheConfig config.
 */
#define _GNU_SOURCE
#include <stdio.h>

#include "adapters_memory.h"

typedef cudaError_t (*no_args_fn)(void);
typedef cudaError_t (*set_limit_fn)(enum cudaLimit, size_t);
typedef cudaError_t (*get_limit_fn)(size_t *, enum cudaLimit);
typedef cudaError_t (*get_cache_fn)(enum cudaFuncCache *);
typedef cudaError_t (*set_cache_fn)(enum cudaFuncCache);

static const char *const thread_names[] = {"cudaThreadExit",	       "cudaThreadSynchronize",
					   "cudaThreadSetLimit",       "cudaThreadGetLimit",
					   "cudaThreadGetCacheConfig", "cudaThreadSetCacheConfig"};

/* ---- child scenarios ---- */

static int thread_calls(void)
{
	size_t limit = 0;
	enum cudaFuncCache cache = cudaFuncCachePreferNone;

	am_report("exit", ((no_args_fn)am_symbol("cudaThreadExit"))());
	am_report("sync", ((no_args_fn)am_symbol("cudaThreadSynchronize"))());
	am_report("setlimit", ((set_limit_fn)am_symbol("cudaThreadSetLimit"))(
				      cudaLimitMallocHeapSize, 1 << 20));
	am_report("getlimit",
		  ((get_limit_fn)am_symbol("cudaThreadGetLimit"))(&limit, cudaLimitStackSize));
	printf("getlimit.value=%zu\n", limit);
	am_report("getcache", ((get_cache_fn)am_symbol("cudaThreadGetCacheConfig"))(&cache));
	printf("getcache.value=%d\n", (int)cache);
	am_report("setcache",
		  ((set_cache_fn)am_symbol("cudaThreadSetCacheConfig"))(cudaFuncCachePreferL1));
	return 0;
}

/* The 13-ABI stub exports none of them, as 13.0 does not. */
static int thread_exports(void)
{
	for (size_t i = 0; i < sizeof thread_names / sizeof *thread_names; i++)
		printf("%s.exported=%d\n", thread_names[i], am_exports(thread_names[i]));
	return 0;
}

/* ---- checks ---- */

static void check_on_13(int abi)
{
	struct ts_child c;

	if (!am_run(abi, 13, "thread_calls", &c))
		return;
	AM_EXPECT(&c, "exit.rc", cudaSuccess);
	AM_CALLED(&c, "exit", "cudaDeviceReset");
	AM_EXPECT(&c, "sync.rc", cudaSuccess);
	AM_CALLED(&c, "sync", "cudaDeviceSynchronize");
	AM_CALLED(&c, "setlimit", "cudaDeviceSetLimit");
	AM_EXPECT(&c, "setlimit.arg0", cudaLimitMallocHeapSize);
	AM_EXPECT(&c, "setlimit.arg1", 1 << 20);
	AM_CALLED(&c, "getlimit", "cudaDeviceGetLimit");
	AM_EXPECT(&c, "getlimit.arg1", cudaLimitStackSize);
	AM_EXPECT(&c, "getlimit.value", 1000 + cudaLimitStackSize);
	AM_CALLED(&c, "getcache", "cudaDeviceGetCacheConfig");
	AM_EXPECT(&c, "getcache.value", cudaFuncCachePreferEqual);
	AM_CALLED(&c, "setcache", "cudaDeviceSetCacheConfig");
	AM_EXPECT(&c, "setcache.arg0", cudaFuncCachePreferL1);
}

static void test_12_on_13(void)
{
	check_on_13(12);
}

static void test_11_on_13(void)
{
	check_on_13(11);
}

static void test_12_on_12_forwards(void)
{
	struct ts_child c;

	if (!am_run(12, 12, "thread_calls", &c))
		return;
	AM_CALLED(&c, "sync", "cudaThreadSynchronize");
	AM_NOT_CALLED(&c, "sync", "cudaDeviceSynchronize");
	AM_CALLED(&c, "setcache", "cudaThreadSetCacheConfig");
}

static void test_13_exports_none(void)
{
	struct ts_child c;

	if (!am_run(13, 13, "thread_exports", &c))
		return;
	for (size_t i = 0; i < sizeof thread_names / sizeof *thread_names; i++) {
		char key[64];

		snprintf(key, sizeof key, "%s.exported", thread_names[i]);
		AM_EXPECT(&c, key, 0);
	}
}

static void register_suites(void)
{
	CU_pSuite s = am_suite("cudaThread* adapters");

	if (!s)
		return;
	CU_add_test(s, "12 cudaThread* on 13: cudaDevice*", test_12_on_13);
	CU_add_test(s, "11 cudaThread* on 13: cudaDevice*", test_11_on_13);
	CU_add_test(s, "12 cudaThread* on 12: forwards", test_12_on_12_forwards);
	CU_add_test(s, "13-ABI stub exports no cudaThread*", test_13_exports_none);
}

int main(int argc, char **argv)
{
	static const struct ts_scenario scenarios[] = {
		{"thread_calls", thread_calls}, {"thread_exports", thread_exports}, {NULL, NULL}};

	return ts_main(argc, argv, scenarios, register_suites);
}

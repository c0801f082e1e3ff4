/*
 * cudaThread*: the 11- and 12-ABI stubs' cudaThread* on a 13 runtime, which
 * has only the cudaDevice* twins (the spec's `same_function cudaThread*
 * cudaDevice*` lines; the generated routes,
 * stubs/cudart/generated/cuda-<M>/cudart_routes.c, call the twin). The
 * fakes of every major export cudaDevice*; those of 11 and 12 also
 * cudaThread*.
 *
 * Fake arguments: SetLimit limit, value; GetLimit pValue, limit (writes
 * 1000 + limit); GetCacheConfig (writes PreferEqual); SetCacheConfig config.
 */
#define _GNU_SOURCE
#include <stdio.h>

#include "adapters_test.h"

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

	ad_report("exit", ((no_args_fn)ad_stub_symbol("cudaThreadExit"))());
	ad_report("sync", ((no_args_fn)ad_stub_symbol("cudaThreadSynchronize"))());
	ad_report("setlimit", ((set_limit_fn)ad_stub_symbol("cudaThreadSetLimit"))(
				      cudaLimitMallocHeapSize, 1 << 20));
	ad_report("getlimit",
		  ((get_limit_fn)ad_stub_symbol("cudaThreadGetLimit"))(&limit, cudaLimitStackSize));
	printf("getlimit.value=%zu\n", limit);
	ad_report("getcache", ((get_cache_fn)ad_stub_symbol("cudaThreadGetCacheConfig"))(&cache));
	printf("getcache.value=%d\n", (int)cache);
	ad_report("setcache", ((set_cache_fn)ad_stub_symbol("cudaThreadSetCacheConfig"))(
				      cudaFuncCachePreferL1));
	return 0;
}

/* The 13-ABI stub exports none of them, as 13.0 does not. */
static int thread_exports(void)
{
	for (size_t i = 0; i < sizeof thread_names / sizeof *thread_names; i++)
		printf("%s.exported=%d\n", thread_names[i], ad_stub_exports(thread_names[i]));
	return 0;
}

/* ---- checks ---- */

static void check_on_13(const struct ts_child *c)
{
	AD_EXPECT_VALUE(c, "exit.rc", cudaSuccess);
	AD_CALLED(c, "exit", "cudaDeviceReset");
	AD_EXPECT_VALUE(c, "sync.rc", cudaSuccess);
	AD_CALLED(c, "sync", "cudaDeviceSynchronize");
	AD_CALLED(c, "setlimit", "cudaDeviceSetLimit");
	AD_EXPECT_VALUE(c, "setlimit.arg0", cudaLimitMallocHeapSize);
	AD_EXPECT_VALUE(c, "setlimit.arg1", 1 << 20);
	AD_CALLED(c, "getlimit", "cudaDeviceGetLimit");
	AD_EXPECT_VALUE(c, "getlimit.arg1", cudaLimitStackSize);
	AD_EXPECT_VALUE(c, "getlimit.value", 1000 + cudaLimitStackSize);
	AD_CALLED(c, "getcache", "cudaDeviceGetCacheConfig");
	AD_EXPECT_VALUE(c, "getcache.value", cudaFuncCachePreferEqual);
	AD_CALLED(c, "setcache", "cudaDeviceSetCacheConfig");
	AD_EXPECT_VALUE(c, "setcache.arg0", cudaFuncCachePreferL1);
}

static void check_12_on_12_forwards(const struct ts_child *c)
{
	AD_CALLED(c, "sync", "cudaThreadSynchronize");
	AD_NOT_CALLED(c, "sync", "cudaDeviceSynchronize");
	AD_CALLED(c, "setcache", "cudaThreadSetCacheConfig");
}

static void check_13_exports_none(const struct ts_child *c)
{
	for (size_t i = 0; i < sizeof thread_names / sizeof *thread_names; i++)
		AD_STEP_VALUE(c, thread_names[i], "exported", 0);
}

static const struct ad_case cases[] = {
	AD_REPORTED("12 cudaThread* on 13: cudaDevice*", 12, "13", thread_calls, check_on_13),
	AD_REPORTED("11 cudaThread* on 13: cudaDevice*", 11, "13", thread_calls, check_on_13),
	AD_REPORTED("12 cudaThread* on 12: forwards", 12, "12", thread_calls,
		    check_12_on_12_forwards),
	AD_REPORTED("13-ABI stub exports no cudaThread*", 13, "13", thread_exports,
		    check_13_exports_none),
	AD_END,
};

AD_MAIN("cudaThread* adapters", cases)

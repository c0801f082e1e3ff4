/*
 * adapt_entry_point.c: cudaGetDriverEntryPoint[_ptsz] between 11's form
 * (a missing symbol is cudaErrorSymbolNotFound) and 12's (cudaSuccess, a
 * NULL pointer and a status), and the pinning of the caller's CUDA version
 * through cudaGetDriverEntryPointByVersion where the runtime has it.
 *
 * The fakes find every symbol but "cuMissing", at &fake_driver_function.
 * Fake arguments: 11      symbol, funcPtr, flags
 *                 12, 13  symbol, funcPtr, version (0: not ByVersion),
 *                         flags, status
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>

#include "adapters_test.h"

typedef cudaError_t (*entry_11_fn)(const char *, void **, unsigned long long);
typedef cudaError_t (*entry_status_fn)(const char *, void **, unsigned long long,
				       enum cudaDriverEntryPointQueryResult *);

/* ---- child scenarios ---- */

static int entry_status(void)
{
	entry_status_fn fn = (entry_status_fn)ad_stub_symbol("cudaGetDriverEntryPoint");
	entry_status_fn ptsz = (entry_status_fn)ad_stub_symbol("cudaGetDriverEntryPoint_ptsz");
	enum cudaDriverEntryPointQueryResult status = cudaDriverEntryPointVersionNotSufficent;
	void *p = (void *)0x1;

	ad_report("found", fn("cuMemAlloc", &p, cudaEnableDefault, &status));
	printf("found.fp=%d\nfound.status=%d\n", p != NULL && p != (void *)0x1, (int)status);
	p = (void *)0x1;
	ad_report("missing", fn("cuMissing", &p, cudaEnableDefault, &status));
	printf("missing.fp_null=%d\nmissing.status=%d\n", p == NULL, (int)status);
	ad_report("nostatus", fn("cuMissing", &p, cudaEnableDefault, NULL));
	ad_report("ptsz", ptsz("cuMemAlloc", &p, cudaEnablePerThreadDefaultStream, &status));
	printf("ptsz.status=%d\n", (int)status);
	return 0;
}

static int entry_11(void)
{
	entry_11_fn fn = (entry_11_fn)ad_stub_symbol("cudaGetDriverEntryPoint");
	entry_11_fn ptsz = (entry_11_fn)ad_stub_symbol("cudaGetDriverEntryPoint_ptsz");
	void *p = NULL;

	ad_report("found", fn("cuMemAlloc", &p, cudaEnableLegacyStream));
	printf("found.fp=%d\n", p != NULL);
	ad_report("missing", fn("cuMissing", &p, cudaEnableDefault));
	printf("missing.fp_null=%d\n", p == NULL);
	ad_report("ptsz", ptsz("cuMemAlloc", &p, cudaEnablePerThreadDefaultStream));
	return 0;
}

/* ---- checks ---- */

static void check_status_on_11(const struct ts_child *c)
{
	AD_CALLED(c, "found", "cudaGetDriverEntryPoint");
	AD_EXPECT_VALUE(c, "found.rc", cudaSuccess);
	AD_EXPECT_VALUE(c, "found.arg2", cudaEnableDefault);
	AD_EXPECT_VALUE(c, "found.fp", 1);
	AD_EXPECT_VALUE(c, "found.status", cudaDriverEntryPointSuccess);
	/* 11's cudaErrorSymbolNotFound, said as 12 says it */
	AD_EXPECT_VALUE(c, "missing.rc", cudaSuccess);
	AD_EXPECT_VALUE(c, "missing.fp_null", 1);
	AD_EXPECT_VALUE(c, "missing.status", cudaDriverEntryPointSymbolNotFound);
	AD_EXPECT_VALUE(c, "nostatus.rc", cudaSuccess);
	AD_CALLED(c, "ptsz", "cudaGetDriverEntryPoint_ptsz");
	AD_EXPECT_VALUE(c, "ptsz.arg2", cudaEnablePerThreadDefaultStream);
	AD_EXPECT_VALUE(c, "ptsz.status", cudaDriverEntryPointSuccess);
}

static void check_11_on_13_pins_its_version(const struct ts_child *c)
{
	AD_CALLED(c, "found", "cudaGetDriverEntryPointByVersion");
	AD_NOT_CALLED(c, "found", "cudaGetDriverEntryPoint");
	AD_EXPECT_VALUE(c, "found.rc", cudaSuccess);
	AD_EXPECT_VALUE(c, "found.arg2", 11080);
	AD_EXPECT_VALUE(c, "found.arg3", cudaEnableLegacyStream);
	AD_EXPECT_VALUE(c, "found.fp", 1);
	AD_EXPECT_VALUE(c, "missing.rc", cudaErrorSymbolNotFound);
	AD_EXPECT_VALUE(c, "missing.fp_null", 1);
	AD_CALLED(c, "ptsz", "cudaGetDriverEntryPointByVersion_ptsz");
	AD_EXPECT_VALUE(c, "ptsz.arg2", 11080);
	AD_EXPECT_VALUE(c, "ptsz.arg3", cudaEnablePerThreadDefaultStream);
}

/* Same prototype in 12 and 13, but the runtime answers for its own version:
 * the 12-ABI stub names its own through ByVersion. */
static void check_12_on_13_pins_its_version(const struct ts_child *c)
{
	AD_CALLED(c, "found", "cudaGetDriverEntryPointByVersion");
	AD_NOT_CALLED(c, "found", "cudaGetDriverEntryPoint");
	AD_EXPECT_VALUE(c, "found.rc", cudaSuccess);
	AD_EXPECT_VALUE(c, "found.arg2", 12040);
	AD_EXPECT_VALUE(c, "found.status", cudaDriverEntryPointSuccess);
	AD_CALLED(c, "ptsz", "cudaGetDriverEntryPointByVersion_ptsz");
}

/* Its own major: a plain forward. */
static void check_13_on_13_forwards(const struct ts_child *c)
{
	AD_CALLED(c, "found", "cudaGetDriverEntryPoint");
	AD_NOT_CALLED(c, "found", "cudaGetDriverEntryPointByVersion");
}

static void check_11_on_12_4_takes_status_form(const struct ts_child *c)
{
	/* 12.4 has no ByVersion (12.5 added it) */
	AD_CALLED(c, "found", "cudaGetDriverEntryPoint");
	AD_EXPECT_VALUE(c, "found.rc", cudaSuccess);
	AD_EXPECT_VALUE(c, "found.arg2", 0);
	AD_EXPECT_VALUE(c, "found.arg3", cudaEnableLegacyStream);
	AD_EXPECT_VALUE(c, "missing.rc", cudaErrorSymbolNotFound);
	AD_CALLED(c, "ptsz", "cudaGetDriverEntryPoint_ptsz");
}

static const struct ad_case cases[] = {
	AD_REPORTED("13 on 11: status from 11's answer", 13, "11", entry_status,
		    check_status_on_11),
	AD_REPORTED("12 on 11: status from 11's answer", 12, "11", entry_status,
		    check_status_on_11),
	AD_REPORTED("11 on 13: ByVersion 11080", 11, "13", entry_11,
		    check_11_on_13_pins_its_version),
	AD_REPORTED("11 on 12.4: status form", 11, "12", entry_11,
		    check_11_on_12_4_takes_status_form),
	AD_REPORTED("12 on 13: ByVersion 12040", 12, "13", entry_status,
		    check_12_on_13_pins_its_version),
	AD_REPORTED("13 on 13: forwarded", 13, "13", entry_status, check_13_on_13_forwards),
	AD_END,
};

AD_MAIN("driver entry point adapters", cases)

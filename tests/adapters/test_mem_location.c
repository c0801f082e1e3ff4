/*
 * adapt_mem_location.c: cudaMemAdvise and cudaMemPrefetchAsync between the
 * device-ordinal form (11, 12), 12's _v2 names and 13's cudaMemLocation form.
 *
 * Fake arguments: device form     advise   ptr, count, advice, device
 *                                 prefetch ptr, count, device, stream
 *                 location form   advise   ptr, count, advice, type, id
 *                                 prefetch ptr, count, type, id, flags, stream
 */
#define _GNU_SOURCE
#include <stdio.h>

#include "adapters_test.h"

#define PTR    ((const void *)0x1000)
#define COUNT  ((size_t)4096)
#define STREAM ((cudaStream_t)0x5)

typedef cudaError_t (*advise_location_fn)(const void *, size_t, enum cudaMemoryAdvise,
					  struct cudaMemLocation);
typedef cudaError_t (*advise_device_fn)(const void *, size_t, enum cudaMemoryAdvise, int);
typedef cudaError_t (*prefetch_location_fn)(const void *, size_t, struct cudaMemLocation,
					    unsigned int, cudaStream_t);
typedef cudaError_t (*prefetch_device_fn)(const void *, size_t, int, cudaStream_t);

static struct cudaMemLocation at(enum cudaMemLocationType type, int id)
{
	struct cudaMemLocation loc = {type, id};

	return loc;
}

/* ---- child scenarios ---- */

/* 13's cudaMemAdvise(location): a device, the host, a host NUMA node. */
static int advise_location(void)
{
	advise_location_fn advise = (advise_location_fn)ad_stub_symbol("cudaMemAdvise");

	ad_report("dev", advise(PTR, COUNT, cudaMemAdviseSetPreferredLocation,
				at(cudaMemLocationTypeDevice, 3)));
	ad_report("host",
		  advise(PTR, COUNT, cudaMemAdviseSetAccessedBy, at(cudaMemLocationTypeHost, 0)));
	ad_report("numa", advise(PTR, COUNT, cudaMemAdviseSetPreferredLocation,
				 at(cudaMemLocationTypeHostNuma, 1)));
	return 0;
}

/* 13's cudaMemPrefetchAsync[_ptsz](location, flags). */
static int prefetch_location(void)
{
	prefetch_location_fn prefetch =
		(prefetch_location_fn)ad_stub_symbol("cudaMemPrefetchAsync");
	prefetch_location_fn ptsz =
		(prefetch_location_fn)ad_stub_symbol("cudaMemPrefetchAsync_ptsz");

	ad_report("dev", prefetch(PTR, COUNT, at(cudaMemLocationTypeDevice, 1), 0, STREAM));
	ad_report("flags", prefetch(PTR, COUNT, at(cudaMemLocationTypeDevice, 1), 1, STREAM));
	ad_report("ptsz", ptsz(PTR, COUNT, at(cudaMemLocationTypeHost, 0), 0, STREAM));
	return 0;
}

/* The 11/12 cudaMemAdvise(int device): a device, the CPU. */
static int advise_device(void)
{
	advise_device_fn advise = (advise_device_fn)ad_stub_symbol("cudaMemAdvise");

	ad_report("dev", advise(PTR, COUNT, cudaMemAdviseSetAccessedBy, 2));
	ad_report("cpu", advise(PTR, COUNT, cudaMemAdviseSetPreferredLocation, cudaCpuDeviceId));
	return 0;
}

/* The 11/12 cudaMemPrefetchAsync[_ptsz](int device). */
static int prefetch_device(void)
{
	prefetch_device_fn prefetch = (prefetch_device_fn)ad_stub_symbol("cudaMemPrefetchAsync");
	prefetch_device_fn ptsz = (prefetch_device_fn)ad_stub_symbol("cudaMemPrefetchAsync_ptsz");

	ad_report("dev", prefetch(PTR, COUNT, 1, STREAM));
	ad_report("ptsz", ptsz(PTR, COUNT, cudaCpuDeviceId, STREAM));
	return 0;
}

/* 12's _v2 names. */
static int location_v2(void)
{
	advise_location_fn advise = (advise_location_fn)ad_stub_symbol("cudaMemAdvise_v2");
	prefetch_location_fn prefetch =
		(prefetch_location_fn)ad_stub_symbol("cudaMemPrefetchAsync_v2");
	prefetch_location_fn ptsz =
		(prefetch_location_fn)ad_stub_symbol("cudaMemPrefetchAsync_v2_ptsz");

	ad_report("advise", advise(PTR, COUNT, cudaMemAdviseSetPreferredLocation,
				   at(cudaMemLocationTypeDevice, 4)));
	ad_report("numa", advise(PTR, COUNT, cudaMemAdviseSetPreferredLocation,
				 at(cudaMemLocationTypeHostNuma, 0)));
	ad_report("prefetch", prefetch(PTR, COUNT, at(cudaMemLocationTypeDevice, 2), 0, STREAM));
	ad_report("flags", prefetch(PTR, COUNT, at(cudaMemLocationTypeDevice, 2), 1, STREAM));
	ad_report("ptsz", ptsz(PTR, COUNT, at(cudaMemLocationTypeHost, 0), 0, STREAM));
	return 0;
}

/* ---- the 13-ABI stub ---- */

static void check_13_advise_on_12_takes_v2(const struct ts_child *c)
{
	AD_EXPECT_VALUE(c, "dev.rc", cudaSuccess);
	AD_CALLED(c, "dev", "cudaMemAdvise_v2");
	AD_NOT_CALLED(c, "dev", "cudaMemAdvise");
	AD_EXPECT_VALUE(c, "dev.arg0", 0x1000);
	AD_EXPECT_VALUE(c, "dev.arg1", 4096);
	AD_EXPECT_VALUE(c, "dev.arg2", cudaMemAdviseSetPreferredLocation);
	AD_EXPECT_VALUE(c, "dev.arg3", cudaMemLocationTypeDevice);
	AD_EXPECT_VALUE(c, "dev.arg4", 3);
	AD_EXPECT_VALUE(c, "host.arg3", cudaMemLocationTypeHost);
	/* _v2 can say a NUMA node: nothing is lost */
	AD_EXPECT_VALUE(c, "numa.rc", cudaSuccess);
	AD_CALLED(c, "numa", "cudaMemAdvise_v2");
	AD_EXPECT_VALUE(c, "numa.arg3", cudaMemLocationTypeHostNuma);
	AD_EXPECT_VALUE(c, "numa.arg4", 1);
}

static void check_13_advise_on_11_takes_device(const struct ts_child *c)
{
	AD_EXPECT_VALUE(c, "dev.rc", cudaSuccess);
	AD_CALLED(c, "dev", "cudaMemAdvise");
	AD_EXPECT_VALUE(c, "dev.arg2", cudaMemAdviseSetPreferredLocation);
	AD_EXPECT_VALUE(c, "dev.arg3", 3);
	AD_EXPECT_VALUE(c, "host.rc", cudaSuccess);
	AD_EXPECT_VALUE(c, "host.arg2", cudaMemAdviseSetAccessedBy);
	AD_EXPECT_VALUE(c, "host.arg3", cudaCpuDeviceId);
	/* a NUMA node has no device ordinal: refused, never called */
	AD_EXPECT_VALUE(c, "numa.rc", cudaErrorNotSupported);
	AD_NO_CALLS(c, "numa");
}

static void check_13_advise_on_13_forwards(const struct ts_child *c)
{
	AD_CALLED(c, "numa", "cudaMemAdvise");
	AD_EXPECT_VALUE(c, "numa.arg3", cudaMemLocationTypeHostNuma);
}

static void check_13_prefetch_on_12_takes_v2(const struct ts_child *c)
{
	AD_EXPECT_VALUE(c, "dev.rc", cudaSuccess);
	AD_CALLED(c, "dev", "cudaMemPrefetchAsync_v2");
	AD_NOT_CALLED(c, "dev", "cudaMemPrefetchAsync");
	AD_EXPECT_VALUE(c, "dev.arg2", cudaMemLocationTypeDevice);
	AD_EXPECT_VALUE(c, "dev.arg3", 1);
	AD_EXPECT_VALUE(c, "dev.arg5", 0x5);
	AD_EXPECT_VALUE(c, "flags.arg4", 1);
	AD_CALLED(c, "ptsz", "cudaMemPrefetchAsync_v2_ptsz");
	AD_NOT_CALLED(c, "ptsz", "cudaMemPrefetchAsync_ptsz");
	AD_EXPECT_VALUE(c, "ptsz.arg2", cudaMemLocationTypeHost);
}

static void check_13_prefetch_on_11_takes_device(const struct ts_child *c)
{
	AD_EXPECT_VALUE(c, "dev.rc", cudaSuccess);
	AD_CALLED(c, "dev", "cudaMemPrefetchAsync");
	AD_EXPECT_VALUE(c, "dev.arg0", 0x1000);
	AD_EXPECT_VALUE(c, "dev.arg2", 1);
	AD_EXPECT_VALUE(c, "dev.arg3", 0x5);
	/* the device form has no flags */
	AD_EXPECT_VALUE(c, "flags.rc", cudaErrorNotSupported);
	AD_NO_CALLS(c, "flags");
	AD_EXPECT_VALUE(c, "ptsz.rc", cudaSuccess);
	AD_CALLED(c, "ptsz", "cudaMemPrefetchAsync_ptsz");
	AD_EXPECT_VALUE(c, "ptsz.arg2", cudaCpuDeviceId);
}

/* ---- the 12- and 11-ABI stubs ---- */

static void check_advise_device_on_13(const struct ts_child *c)
{
	AD_EXPECT_VALUE(c, "dev.rc", cudaSuccess);
	AD_CALLED(c, "dev", "cudaMemAdvise");
	AD_EXPECT_VALUE(c, "dev.arg2", cudaMemAdviseSetAccessedBy);
	AD_EXPECT_VALUE(c, "dev.arg3", cudaMemLocationTypeDevice);
	AD_EXPECT_VALUE(c, "dev.arg4", 2);
	AD_EXPECT_VALUE(c, "cpu.arg3", cudaMemLocationTypeHost);
	AD_EXPECT_VALUE(c, "cpu.arg4", 0);
}

static void check_prefetch_device_on_13(const struct ts_child *c)
{
	AD_EXPECT_VALUE(c, "dev.rc", cudaSuccess);
	AD_CALLED(c, "dev", "cudaMemPrefetchAsync");
	AD_EXPECT_VALUE(c, "dev.arg2", cudaMemLocationTypeDevice);
	AD_EXPECT_VALUE(c, "dev.arg3", 1);
	AD_EXPECT_VALUE(c, "dev.arg4", 0);
	AD_EXPECT_VALUE(c, "dev.arg5", 0x5);
	AD_CALLED(c, "ptsz", "cudaMemPrefetchAsync_ptsz");
	AD_EXPECT_VALUE(c, "ptsz.arg2", cudaMemLocationTypeHost);
}

static void check_12_advise_on_11_forwards(const struct ts_child *c)
{
	AD_CALLED(c, "cpu", "cudaMemAdvise");
	AD_EXPECT_VALUE(c, "cpu.arg3", cudaCpuDeviceId);
}

static void check_12_v2_on_13_takes_plain_names(const struct ts_child *c)
{
	AD_EXPECT_VALUE(c, "advise.rc", cudaSuccess);
	AD_CALLED(c, "advise", "cudaMemAdvise");
	AD_EXPECT_VALUE(c, "advise.arg3", cudaMemLocationTypeDevice);
	AD_EXPECT_VALUE(c, "advise.arg4", 4);
	AD_EXPECT_VALUE(c, "numa.arg3", cudaMemLocationTypeHostNuma);
	AD_CALLED(c, "prefetch", "cudaMemPrefetchAsync");
	AD_EXPECT_VALUE(c, "prefetch.arg3", 2);
	AD_EXPECT_VALUE(c, "flags.arg4", 1);
	AD_CALLED(c, "ptsz", "cudaMemPrefetchAsync_ptsz");
	AD_EXPECT_VALUE(c, "ptsz.arg2", cudaMemLocationTypeHost);
}

static void check_12_v2_on_11_takes_device(const struct ts_child *c)
{
	AD_EXPECT_VALUE(c, "advise.rc", cudaSuccess);
	AD_CALLED(c, "advise", "cudaMemAdvise");
	AD_EXPECT_VALUE(c, "advise.arg3", 4);
	AD_EXPECT_VALUE(c, "numa.rc", cudaErrorNotSupported);
	AD_NO_CALLS(c, "numa");
	AD_CALLED(c, "prefetch", "cudaMemPrefetchAsync");
	AD_EXPECT_VALUE(c, "prefetch.arg2", 2);
	AD_EXPECT_VALUE(c, "flags.rc", cudaErrorNotSupported);
	AD_NO_CALLS(c, "flags");
	AD_CALLED(c, "ptsz", "cudaMemPrefetchAsync_ptsz");
	AD_EXPECT_VALUE(c, "ptsz.arg2", cudaCpuDeviceId);
}

static const struct ad_case cases[] = {
	AD_REPORTED("13 cudaMemAdvise on 12: _v2", 13, "12", advise_location,
		    check_13_advise_on_12_takes_v2),
	AD_REPORTED("13 cudaMemAdvise on 11: device", 13, "11", advise_location,
		    check_13_advise_on_11_takes_device),
	AD_REPORTED("13 cudaMemAdvise on 13: forwards", 13, "13", advise_location,
		    check_13_advise_on_13_forwards),
	AD_REPORTED("13 cudaMemPrefetchAsync on 12: _v2", 13, "12", prefetch_location,
		    check_13_prefetch_on_12_takes_v2),
	AD_REPORTED("13 cudaMemPrefetchAsync on 11: device", 13, "11", prefetch_location,
		    check_13_prefetch_on_11_takes_device),
	AD_REPORTED("12 cudaMemAdvise on 13: location", 12, "13", advise_device,
		    check_advise_device_on_13),
	AD_REPORTED("11 cudaMemAdvise on 13: location", 11, "13", advise_device,
		    check_advise_device_on_13),
	AD_REPORTED("12 cudaMemPrefetchAsync on 13: location", 12, "13", prefetch_device,
		    check_prefetch_device_on_13),
	AD_REPORTED("11 cudaMemPrefetchAsync on 13: location", 11, "13", prefetch_device,
		    check_prefetch_device_on_13),
	AD_REPORTED("12 cudaMemAdvise on 11: forwards", 12, "11", advise_device,
		    check_12_advise_on_11_forwards),
	AD_REPORTED("12 _v2 names on 13: plain names", 12, "13", location_v2,
		    check_12_v2_on_13_takes_plain_names),
	AD_REPORTED("12 _v2 names on 11: device", 12, "11", location_v2,
		    check_12_v2_on_11_takes_device),
	AD_END,
};

AD_MAIN("memory location adapters", cases)

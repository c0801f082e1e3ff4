/*
 * cudaMemAdvise and cudaMemPrefetchAsync: where memory should live, given as
 * a device ordinal (11.x, 12.x) or as a cudaMemLocation (12.2's _v2 names,
 * and 13.0's own names).
 *
 *   11.x, 12.x  cudaError_t cudaMemAdvise(const void *devPtr, size_t count,
 *                       enum cudaMemoryAdvise advice, int device);
 *               cudaError_t cudaMemPrefetchAsync[_ptsz](const void *devPtr, size_t count,
 *                       int dstDevice, cudaStream_t stream);
 *   12.2+       cudaError_t cudaMemAdvise_v2(const void *devPtr, size_t count,
 *                       enum cudaMemoryAdvise advice, struct cudaMemLocation location);
 *               cudaError_t cudaMemPrefetchAsync_v2[_ptsz](const void *devPtr, size_t count,
 *                       struct cudaMemLocation location, unsigned int flags,
 *                       cudaStream_t stream);
 *   13.0        cudaMemAdvise and cudaMemPrefetchAsync[_ptsz] with the _v2 prototypes;
 *               the _v2 names are gone.
 *
 * Rule, location to device: {cudaMemLocationTypeDevice, id} -> id, and
 * cudaMemLocationTypeHost -> cudaCpuDeviceId. Other types (host NUMA nodes)
 * have no device ordinal, nor has a prefetch with flags != 0 a place for its
 * flags: cudaErrorNotSupported, and nothing is called. Device to location:
 * cudaCpuDeviceId -> {cudaMemLocationTypeHost, 0}, any other value ->
 * {cudaMemLocationTypeDevice, value}, so that the runtime judges a bad
 * ordinal as it always did; prefetch flags 0. cudaMemoryAdvise has the same
 * values in 11.8, 12.4 and 13.0, and struct cudaMemLocation the same layout.
 *
 *   13-ABI stub on 12    the runtime's _v2 names as they are (12.2+), else
 *                        location to device
 *   13-ABI stub on 11    location to device
 *   12-/11-ABI on 13     the plain names: device to location
 *   12-ABI _v2 on 13     13's plain names as they are (same prototypes)
 *   12-ABI _v2 on 11, or on a 12.0/12.1 runtime without _v2: location to device
 */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

#include "adapt_loaded.h"

/* cudaMemLocationType: 11.8 has no Host; the values are 12.2's and 13.0's. */
enum { LOCATION_DEVICE = 1, LOCATION_HOST = 2 };
_Static_assert((int)cudaMemLocationTypeDevice == LOCATION_DEVICE,
	       "cudaMemLocationTypeDevice moved");
#if CUDART_VERSION >= 12020
_Static_assert((int)cudaMemLocationTypeHost == LOCATION_HOST, "cudaMemLocationTypeHost moved");
#endif
/* The 11.8, 12.4 and 13.0 records agree: 8 bytes, type at 0, id at 4. So
 * the build's struct is every major's, and no layout constant is generated. */
_Static_assert(sizeof(struct cudaMemLocation) == 8 && offsetof(struct cudaMemLocation, type) == 0 &&
		       offsetof(struct cudaMemLocation, id) == 4,
	       "struct cudaMemLocation differs from the ABI records");

/* The loaded runtime's functions in each form; the arrays of them below
 * hold [0] the legacy-stream name, [1] the _ptsz one. */
typedef cudaError_t (*advise_device_fn)(const void *, size_t, enum cudaMemoryAdvise, int);
typedef cudaError_t (*advise_location_fn)(const void *, size_t, enum cudaMemoryAdvise,
					  struct cudaMemLocation);
typedef cudaError_t (*prefetch_device_fn)(const void *, size_t, int, cudaStream_t);
typedef cudaError_t (*prefetch_location_fn)(const void *, size_t, struct cudaMemLocation,
					    unsigned int, cudaStream_t);

/* The plain names; the form behind them is the major's. */
static const char *const prefetch_names[2] = {"cudaMemPrefetchAsync", "cudaMemPrefetchAsync_ptsz"};

/* ---- callers with a location: the 13-ABI plain names, the 12-ABI _v2 ---- */
#if CUDART_VERSION >= 12020

static _Atomic(advise_device_fn) advise_device;
static _Atomic(prefetch_device_fn) prefetch_device[2];

/* Returns 0 when loc has no device ordinal. */
static int device_of_location(struct cudaMemLocation loc, int *device)
{
	if ((int)loc.type == LOCATION_DEVICE)
		*device = loc.id;
	else if ((int)loc.type == LOCATION_HOST)
		*device = cudaCpuDeviceId;
	else
		return 0;
	return 1;
}

static cudaError_t advise_by_device(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
				    struct cudaMemLocation location)
{
	int device;

	if (!device_of_location(location, &device))
		return cudaErrorNotSupported;
	return atomic_load_explicit(&advise_device, memory_order_relaxed)(devPtr, count, advice,
									  device);
}

static cudaError_t prefetch_by_device(int ptsz, const void *devPtr, size_t count,
				      struct cudaMemLocation location, unsigned int flags,
				      cudaStream_t stream)
{
	int device;

	if (flags != 0 || !device_of_location(location, &device))
		return cudaErrorNotSupported;
	return atomic_load_explicit(&prefetch_device[ptsz], memory_order_relaxed)(devPtr, count,
										  device, stream);
}

static cudaError_t prefetch_by_device_legacy(const void *devPtr, size_t count,
					     struct cudaMemLocation location, unsigned int flags,
					     cudaStream_t stream)
{
	return prefetch_by_device(0, devPtr, count, location, flags, stream);
}

static cudaError_t prefetch_by_device_ptsz(const void *devPtr, size_t count,
					   struct cudaMemLocation location, unsigned int flags,
					   cudaStream_t stream)
{
	return prefetch_by_device(1, devPtr, count, location, flags, stream);
}

/* The device-form advise of an 11 or 12 runtime behind advise_by_device. */
static void *advise_through_device(const char *name)
{
	advise_device_fn fn;

	*(void **)&fn = adapt_loaded_symbol("cudaMemAdvise");
	if (!fn)
		return NULL;
	atomic_store_explicit(&advise_device, fn, memory_order_relaxed);
	return adapt_chosen(name, "cudaMemAdvise(int device)", (void *)advise_by_device);
}

static void *prefetch_through_device(const char *name, int ptsz)
{
	static const prefetch_location_fn adapters[2] = {prefetch_by_device_legacy,
							 prefetch_by_device_ptsz};
	prefetch_device_fn fn;

	*(void **)&fn = adapt_loaded_symbol(prefetch_names[ptsz]);
	if (!fn)
		return NULL;
	atomic_store_explicit(&prefetch_device[ptsz], fn, memory_order_relaxed);
	return adapt_chosen(name, prefetch_names[ptsz], (void *)adapters[ptsz]);
}

/* A location-form symbol of the loaded runtime, taken as it is. */
static void *same_prototype(const char *name, const char *target)
{
	return adapt_chosen(name, target, adapt_loaded_symbol(target));
}

#endif /* location callers */

/* ---- callers with a device ordinal: the 11- and 12-ABI plain names ---- */
#if CUDART_VERSION < 13000

static _Atomic(advise_location_fn) advise_location;
static _Atomic(prefetch_location_fn) prefetch_location[2];

static struct cudaMemLocation location_of_device(int device)
{
	struct cudaMemLocation loc;

	memset(&loc, 0, sizeof loc);
	if (device == cudaCpuDeviceId) {
		loc.type = (enum cudaMemLocationType)LOCATION_HOST;
	} else {
		loc.type = (enum cudaMemLocationType)LOCATION_DEVICE;
		loc.id = device;
	}
	return loc;
}

static cudaError_t advise_by_location(const void *devPtr, size_t count,
				      enum cudaMemoryAdvise advice, int device)
{
	return atomic_load_explicit(&advise_location, memory_order_relaxed)(
		devPtr, count, advice, location_of_device(device));
}

static cudaError_t prefetch_by_location(int ptsz, const void *devPtr, size_t count, int dstDevice,
					cudaStream_t stream)
{
	return atomic_load_explicit(&prefetch_location[ptsz], memory_order_relaxed)(
		devPtr, count, location_of_device(dstDevice), 0, stream);
}

static cudaError_t prefetch_by_location_legacy(const void *devPtr, size_t count, int dstDevice,
					       cudaStream_t stream)
{
	return prefetch_by_location(0, devPtr, count, dstDevice, stream);
}

static cudaError_t prefetch_by_location_ptsz(const void *devPtr, size_t count, int dstDevice,
					     cudaStream_t stream)
{
	return prefetch_by_location(1, devPtr, count, dstDevice, stream);
}

/* 13's location-form function behind a device-form caller, or NULL. */
static void *advise_through_location(const char *name)
{
	advise_location_fn fn;

	if (adapt_loaded_major() != 13)
		return NULL;
	*(void **)&fn = adapt_loaded_symbol("cudaMemAdvise");
	if (!fn)
		return NULL;
	atomic_store_explicit(&advise_location, fn, memory_order_relaxed);
	return adapt_chosen(name, "cudaMemAdvise(cudaMemLocation)", (void *)advise_by_location);
}

static void *prefetch_through_location(const char *name, int ptsz)
{
	static const prefetch_device_fn adapters[2] = {prefetch_by_location_legacy,
						       prefetch_by_location_ptsz};
	prefetch_location_fn fn;

	if (adapt_loaded_major() != 13)
		return NULL;
	*(void **)&fn = adapt_loaded_symbol(prefetch_names[ptsz]);
	if (!fn)
		return NULL;
	atomic_store_explicit(&prefetch_location[ptsz], fn, memory_order_relaxed);
	return adapt_chosen(name, "13's cudaMemLocation form", (void *)adapters[ptsz]);
}

cudaMemAdvise_fn cudastub_cudart_adapt_cudaMemAdvise(void)
{
	cudaMemAdvise_fn fn;

	*(void **)&fn = advise_through_location("cudaMemAdvise");
	return fn;
}

cudaMemPrefetchAsync_fn cudastub_cudart_adapt_cudaMemPrefetchAsync(void)
{
	cudaMemPrefetchAsync_fn fn;

	*(void **)&fn = prefetch_through_location("cudaMemPrefetchAsync", 0);
	return fn;
}

cudaMemPrefetchAsync_ptsz_fn cudastub_cudart_adapt_cudaMemPrefetchAsync_ptsz(void)
{
	cudaMemPrefetchAsync_ptsz_fn fn;

	*(void **)&fn = prefetch_through_location("cudaMemPrefetchAsync_ptsz", 1);
	return fn;
}

#endif /* device callers */

/* ---- the hooks of the location-form names ---- */
#if CUDART_VERSION >= 13000

/* On 12 the runtime's _v2 names are these functions under another name. */
static void *location_on_older(const char *name, const char *v2, int ptsz, int advise)
{
	int major = adapt_loaded_major();
	void *fn = NULL;

	if (major == 12)
		fn = same_prototype(name, v2);
	if (!fn && (major == 12 || major == 11))
		fn = advise ? advise_through_device(name) : prefetch_through_device(name, ptsz);
	return fn;
}

cudaMemAdvise_fn cudastub_cudart_adapt_cudaMemAdvise(void)
{
	cudaMemAdvise_fn fn;

	*(void **)&fn = location_on_older("cudaMemAdvise", "cudaMemAdvise_v2", 0, 1);
	return fn;
}

cudaMemPrefetchAsync_fn cudastub_cudart_adapt_cudaMemPrefetchAsync(void)
{
	cudaMemPrefetchAsync_fn fn;

	*(void **)&fn = location_on_older("cudaMemPrefetchAsync", "cudaMemPrefetchAsync_v2", 0, 0);
	return fn;
}

cudaMemPrefetchAsync_ptsz_fn cudastub_cudart_adapt_cudaMemPrefetchAsync_ptsz(void)
{
	cudaMemPrefetchAsync_ptsz_fn fn;

	*(void **)&fn = location_on_older("cudaMemPrefetchAsync_ptsz",
					  "cudaMemPrefetchAsync_v2_ptsz", 1, 0);
	return fn;
}

#elif CUDART_VERSION >= 12020

/* The 12-ABI _v2 names: 13's plain names as they are, else the device form
 * of an 11 runtime or of a 12.0/12.1 runtime that lacks _v2. */
static void *v2_elsewhere(const char *name, const char *on_13, int ptsz, int advise)
{
	int major = adapt_loaded_major();

	if (major == 13)
		return same_prototype(name, on_13);
	if (major == 12 || major == 11)
		return advise ? advise_through_device(name) : prefetch_through_device(name, ptsz);
	return NULL;
}

cudaMemAdvise_v2_fn cudastub_cudart_adapt_cudaMemAdvise_v2(void)
{
	cudaMemAdvise_v2_fn fn;

	*(void **)&fn = v2_elsewhere("cudaMemAdvise_v2", "cudaMemAdvise", 0, 1);
	return fn;
}

cudaMemPrefetchAsync_v2_fn cudastub_cudart_adapt_cudaMemPrefetchAsync_v2(void)
{
	cudaMemPrefetchAsync_v2_fn fn;

	*(void **)&fn = v2_elsewhere("cudaMemPrefetchAsync_v2", "cudaMemPrefetchAsync", 0, 0);
	return fn;
}

cudaMemPrefetchAsync_v2_ptsz_fn cudastub_cudart_adapt_cudaMemPrefetchAsync_v2_ptsz(void)
{
	cudaMemPrefetchAsync_v2_ptsz_fn fn;

	*(void **)&fn =
		v2_elsewhere("cudaMemPrefetchAsync_v2_ptsz", "cudaMemPrefetchAsync_ptsz", 1, 0);
	return fn;
}

#endif

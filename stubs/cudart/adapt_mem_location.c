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
#if CUDART_VERSION >= CUDA_VERSION_MEM_LOCATION_V2
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

/* The three functions and their names: the plain ones (11 and 12's device
 * form, 13's location form) and 12.2+'s _v2 (the location form). The
 * prefetch pair comes first, so that its index is the body's ptsz. */
enum mem_function { PREFETCH, PREFETCH_PTSZ, ADVISE, MEM_FUNCTIONS };
static const struct adapt_names names[MEM_FUNCTIONS] = {
	[PREFETCH] = {"cudaMemPrefetchAsync", "cudaMemPrefetchAsync_v2"},
	[PREFETCH_PTSZ] = {"cudaMemPrefetchAsync_ptsz", "cudaMemPrefetchAsync_v2_ptsz"},
	[ADVISE] = {"cudaMemAdvise", "cudaMemAdvise_v2"},
};

/* ---- callers with a location: the 13-ABI plain names, the 12-ABI _v2 ---- */
#if CUDART_VERSION >= CUDA_VERSION_MEM_LOCATION_V2

static _Atomic(void *) device_form[MEM_FUNCTIONS];

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
	advise_device_fn advise;
	int device;

	if (!device_of_location(location, &device))
		return cudaErrorNotSupported;
	*(void **)&advise = adapt_slot_function(&device_form[ADVISE]);
	return advise(devPtr, count, advice, device);
}

static cudaError_t prefetch_by_device(int ptsz, const void *devPtr, size_t count,
				      struct cudaMemLocation location, unsigned int flags,
				      cudaStream_t stream)
{
	prefetch_device_fn prefetch;
	int device;

	if (flags != 0 || !device_of_location(location, &device))
		return cudaErrorNotSupported;
	*(void **)&prefetch = adapt_slot_function(&device_form[PREFETCH + ptsz]);
	return prefetch(devPtr, count, device, stream);
}

ADAPT_PTSZ_TWINS(cudaError_t, prefetch_by_device,
		 (const void *devPtr, size_t count, struct cudaMemLocation location,
		  unsigned int flags, cudaStream_t stream),
		 (devPtr, count, location, flags, stream))

/* A location-form caller (13's plain names, 12.2+'s _v2) on a runtime of
 * another major: where device_there (a row's word), the device form of an
 * 11 runtime or of a 12.0/12.1 runtime that lacks _v2. The function of the
 * same prototype under the other name (12.2+'s _v2, 13's plain name) is a
 * generated route (cudart.spec: same_function), tried before this. */
static void *location_form(const struct cudastub_release *release, const char *name,
			   int device_there, enum mem_function f)
{
	static void *const by_device[MEM_FUNCTIONS] = {
		[PREFETCH] = (void *)prefetch_by_device_legacy,
		[PREFETCH_PTSZ] = (void *)prefetch_by_device_ptsz,
		[ADVISE] = (void *)advise_by_device,
	};

	return adapt_translate_if(device_there, release, name, names[f].name, "the device form",
				  &device_form[f], by_device[f]);
}

#endif /* location callers */

/* ---- callers with a device ordinal: the 11- and 12-ABI plain names ---- */
#if CUDASTUB_ABI_MAJOR < CUDA_MAJOR_MEM_LOCATION

static _Atomic(void *) location_form_13[MEM_FUNCTIONS];

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
	advise_location_fn advise;

	*(void **)&advise = adapt_slot_function(&location_form_13[ADVISE]);
	return advise(devPtr, count, advice, location_of_device(device));
}

static cudaError_t prefetch_by_location(int ptsz, const void *devPtr, size_t count, int dstDevice,
					cudaStream_t stream)
{
	prefetch_location_fn prefetch;

	*(void **)&prefetch = adapt_slot_function(&location_form_13[PREFETCH + ptsz]);
	return prefetch(devPtr, count, location_of_device(dstDevice), 0, stream);
}

ADAPT_PTSZ_TWINS(cudaError_t, prefetch_by_location,
		 (const void *devPtr, size_t count, int dstDevice, cudaStream_t stream),
		 (devPtr, count, dstDevice, stream))

/* A device-form caller: 13's location form behind it, or NULL. */
static void *device_form_on_13(const struct cudastub_release *release, enum mem_function f)
{
	static void *const by_location[MEM_FUNCTIONS] = {
		[PREFETCH] = (void *)prefetch_by_location_legacy,
		[PREFETCH_PTSZ] = (void *)prefetch_by_location_ptsz,
		[ADVISE] = (void *)advise_by_location,
	};

	return adapt_translate_if(adapt_other_abi(release), release, names[f].name, names[f].name,
				  "13's cudaMemLocation form", &location_form_13[f],
				  by_location[f]);
}

#endif /* device callers */

/* ---- the hooks ---- */

#if CUDASTUB_ABI_MAJOR >= CUDA_MAJOR_MEM_LOCATION
/* 13's names, where their rows say another ABI (11, 12): 12.2+ has the
 * same functions as _v2. */
static void *stand_in(const struct cudastub_release *release, enum mem_function f)
{
	return location_form(release, names[f].name, adapt_other_abi(release), f);
}
#else
static void *stand_in(const struct cudastub_release *release, enum mem_function f)
{
	return device_form_on_13(release, f);
}
#endif

ADAPT_HOOK(cudaMemAdvise, stand_in(release, ADVISE))
ADAPT_HOOK(cudaMemPrefetchAsync, stand_in(release, PREFETCH))
ADAPT_HOOK(cudaMemPrefetchAsync_ptsz, stand_in(release, PREFETCH_PTSZ))

#if CUDART_VERSION >= CUDA_VERSION_MEM_LOCATION_V2 && CUDASTUB_ABI_MAJOR < CUDA_MAJOR_MEM_LOCATION
/* The 12-ABI _v2 names, by the rows of the plain names: where a plain
 * name has another ABI (13), it is the same function; where it has the
 * build's (11, 12.0/12.1), the device form. */
static void *v2_stand_in(const struct cudastub_release *release, enum mem_function f)
{
	static const int plain_rows[MEM_FUNCTIONS] = {
		[PREFETCH] = F_cudaMemPrefetchAsync,
		[PREFETCH_PTSZ] = F_cudaMemPrefetchAsync_ptsz,
		[ADVISE] = F_cudaMemAdvise,
	};

	return location_form(release, names[f].name_v2, adapt_row_same_abi(release, plain_rows[f]),
			     f);
}

ADAPT_HOOK(cudaMemAdvise_v2, v2_stand_in(release, ADVISE))
ADAPT_HOOK(cudaMemPrefetchAsync_v2, v2_stand_in(release, PREFETCH))
ADAPT_HOOK(cudaMemPrefetchAsync_v2_ptsz, v2_stand_in(release, PREFETCH_PTSZ))
#endif

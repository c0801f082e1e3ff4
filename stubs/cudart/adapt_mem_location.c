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
#include <stddef.h>
#include <string.h>

#include "adapt_loaded.h"

/* cudaMemLocationType: 11.8 has no Host; the values are 12.2's and 13.0's.
 * CPU_DEVICE is cudaCpuDeviceId, a macro of driver_types.h (no record
 * holds a macro; every release defines it as -1). */
enum { LOCATION_DEVICE = 1, LOCATION_HOST = 2, CPU_DEVICE = -1 };
_Static_assert((int)cudaMemLocationTypeDevice == LOCATION_DEVICE,
	       "cudaMemLocationTypeDevice moved");
#if CUDASTUB_CUDART_VERSION >= 12020
_Static_assert((int)cudaMemLocationTypeHost == LOCATION_HOST, "cudaMemLocationTypeHost moved");
#endif
/* The 11.8, 12.4 and 13.0 records agree: 8 bytes, type at 0, id at 4. So
 * the build's struct is every major's, and no layout constant is generated. */
_Static_assert(sizeof(struct cudaMemLocation) == 8 && offsetof(struct cudaMemLocation, type) == 0 &&
		       offsetof(struct cudaMemLocation, id) == 4,
	       "struct cudaMemLocation differs from the ABI records");

/* The loaded runtime's functions in each form. */
typedef cudaError_t (*advise_device_fn)(const void *, size_t, enum cudaMemoryAdvise, int);
typedef cudaError_t (*advise_location_fn)(const void *, size_t, enum cudaMemoryAdvise,
					  struct cudaMemLocation);
typedef cudaError_t (*prefetch_device_fn)(const void *, size_t, int, cudaStream_t);
typedef cudaError_t (*prefetch_location_fn)(const void *, size_t, struct cudaMemLocation,
					    unsigned int, cudaStream_t);

/* The three functions; each has two translators, BY_DEVICE + f and
 * BY_LOCATION + f. The prefetch pair comes first, so that its index is the
 * body's ptsz. */
enum mem_function { PREFETCH, PREFETCH_PTSZ, ADVISE, MEM_FUNCTIONS };
enum { BY_DEVICE = 0, BY_LOCATION = MEM_FUNCTIONS, TRANSLATORS = 2 * MEM_FUNCTIONS };
static _Atomic(void *) callees[TRANSLATORS];

/* ---- a location caller (13's plain names, 12.2+'s _v2) on the device form ---- */

/* Returns 0 when loc has no device ordinal. */
static int device_of_location(struct cudaMemLocation loc, int *device)
{
	if ((int)loc.type == LOCATION_DEVICE)
		*device = loc.id;
	else if ((int)loc.type == LOCATION_HOST)
		*device = CPU_DEVICE;
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
	*(void **)&advise = adapt_callee(&callees[BY_DEVICE + ADVISE]);
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
	*(void **)&prefetch = adapt_callee(&callees[BY_DEVICE + PREFETCH + ptsz]);
	return prefetch(devPtr, count, device, stream);
}

ADAPT_PTSZ_TWINS(cudaError_t, prefetch_by_device,
		 (const void *devPtr, size_t count, struct cudaMemLocation location,
		  unsigned int flags, cudaStream_t stream),
		 (devPtr, count, location, flags, stream))

/* ---- a device caller (11's and 12's plain names) on 13 ---- */

static struct cudaMemLocation location_of_device(int device)
{
	struct cudaMemLocation loc;

	memset(&loc, 0, sizeof loc);
	if (device == CPU_DEVICE) {
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

	*(void **)&advise = adapt_callee(&callees[BY_LOCATION + ADVISE]);
	return advise(devPtr, count, advice, location_of_device(device));
}

static cudaError_t prefetch_by_location(int ptsz, const void *devPtr, size_t count, int dstDevice,
					cudaStream_t stream)
{
	prefetch_location_fn prefetch;

	*(void **)&prefetch = adapt_callee(&callees[BY_LOCATION + PREFETCH + ptsz]);
	return prefetch(devPtr, count, location_of_device(dstDevice), 0, stream);
}

ADAPT_PTSZ_TWINS(cudaError_t, prefetch_by_location,
		 (const void *devPtr, size_t count, int dstDevice, cudaStream_t stream),
		 (devPtr, count, dstDevice, stream))

/* The translators by number, for the registry. */
static void *translator(int via)
{
	switch (via) {
	case BY_DEVICE + PREFETCH: return (void *)prefetch_by_device_legacy;
	case BY_DEVICE + PREFETCH_PTSZ: return (void *)prefetch_by_device_ptsz;
	case BY_DEVICE + ADVISE: return (void *)advise_by_device;
	case BY_LOCATION + PREFETCH: return (void *)prefetch_by_location_legacy;
	case BY_LOCATION + PREFETCH_PTSZ: return (void *)prefetch_by_location_ptsz;
	case BY_LOCATION + ADVISE: return (void *)advise_by_location;
	}
	return NULL;
}

/* The entries of a name and of its 12.2+ _v2: a location caller where the
 * runtime's plain name has the device form (11, 12: the _v2 name of the
 * same prototype, 12.2+'s or 13's plain one, is a generated route, tried
 * first); a device caller on 13. */
#define MEM_ENTRIES(name, f)                                                                       \
	ADAPT_ENTRY(ADAPT_##name, 13, ADAPT_ON_FORM, 11, ADAPT_SELF, ADAPT_##name,                 \
		    BY_DEVICE + (f)),                                                              \
		ADAPT_ENTRY(ADAPT_##name, 11, ADAPT_ON_FORM, 13, ADAPT_SELF, ADAPT_##name,         \
			    BY_LOCATION + (f)),                                                    \
		ADAPT_ENTRY(ADAPT_##name##_v2, 12, ADAPT_ON_FORM, 11, ADAPT_##name, ADAPT_##name,  \
			    BY_DEVICE + (f))

static const struct adapt_entry entries[] = {
	MEM_ENTRIES(cudaMemPrefetchAsync, PREFETCH),
	ADAPT_ENTRY(ADAPT_cudaMemPrefetchAsync_ptsz, 13, ADAPT_ON_FORM, 11, ADAPT_SELF,
		    ADAPT_cudaMemPrefetchAsync_ptsz, BY_DEVICE + PREFETCH_PTSZ),
	ADAPT_ENTRY(ADAPT_cudaMemPrefetchAsync_ptsz, 11, ADAPT_ON_FORM, 13, ADAPT_SELF,
		    ADAPT_cudaMemPrefetchAsync_ptsz, BY_LOCATION + PREFETCH_PTSZ),
	ADAPT_ENTRY(ADAPT_cudaMemPrefetchAsync_v2_ptsz, 12, ADAPT_ON_FORM, 11,
		    ADAPT_cudaMemPrefetchAsync_ptsz, ADAPT_cudaMemPrefetchAsync_ptsz,
		    BY_DEVICE + PREFETCH_PTSZ),
	MEM_ENTRIES(cudaMemAdvise, ADVISE),
};

ADAPT_FAMILY(mem_location, entries, translator, callees)

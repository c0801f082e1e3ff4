/*
 * Device properties: struct cudaDeviceProp has a layout of its own in each
 * major (adapt_device_prop_layouts.h: 728 bytes in 11.x, 1032 in 12.x, 1008
 * in 13.x).
 *
 *   11.x  cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
 *   12.x  cudaError_t cudaGetDeviceProperties_v2(struct cudaDeviceProp *prop, int device);
 *         (12's header maps cudaGetDeviceProperties to it; the library's
 *         unversioned export has no prototype in 12's headers and is never
 *         called)
 *   13.x  cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
 *   all   cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop);
 *         cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
 *
 * The rule, for a stub of build major B on a runtime of major R (B != R):
 *   getting: the runtime fills a struct of R's layout on the stack; each
 *     field of B's layout is copied from R's by name. A field R's struct
 *     lacks is asked of R's cudaDeviceGetAttribute when an attribute reports
 *     it and R's headers define that attribute (values are the same in every
 *     major), else left 0. Only B's size of the caller's struct is written.
 *     With a NULL prop the runtime is called with NULL and answers for itself.
 *   choosing: the caller's struct is copied into R's layout by the same
 *     table. Fields R's struct lacks are left out: cudaChooseDevice picks the
 *     best match for the fields it is given, it does not require each. R's
 *     own fields that B lacks are 0, as a caller of R would leave them.
 */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <string.h>

#include "adapt_device_prop_layouts.h"
#include "adapt_loaded.h"

/* The struct the stub exports is its own major's. */
#if CUDASTUB_ABI_MAJOR == 11
_Static_assert(sizeof(struct cudaDeviceProp) == sizeof(struct cudaDeviceProp_11), "11 layout");
#elif CUDASTUB_ABI_MAJOR == 12
_Static_assert(sizeof(struct cudaDeviceProp) == sizeof(struct cudaDeviceProp_12), "12 layout");
#else
_Static_assert(sizeof(struct cudaDeviceProp) == sizeof(struct cudaDeviceProp_13), "13 layout");
#endif

/* Room for any major's struct. */
union device_prop_any {
	struct cudaDeviceProp_11 p11;
	struct cudaDeviceProp_12 p12;
	struct cudaDeviceProp_13 p13;
};

enum { ABSENT = -1 };

/* Majors as bits: which majors' headers define an attribute. */
#define IN_11	     1u
#define IN_12	     2u
#define IN_13	     4u
#define MAJOR_BIT(m) (1u << ((m)-11))

/* One field: its size, its offset in 11.x, 12.x and 13.x (ABSENT where that
 * major lacks it) and, for a field some major lacks, the cudaDeviceAttr that
 * reports it and the majors whose headers define that attribute (0: none). */
struct device_prop_field {
	unsigned short size;
	short offset[3];
	short attribute;
	unsigned char attribute_in;
};

#define SIZE_IN(m, f) sizeof(((struct cudaDeviceProp_##m *)0)->f)
#define AT(m, f)      offsetof(struct cudaDeviceProp_##m, f)
/* in every major: copied by name, never asked */
#define IN_ALL(f)                                                                                  \
	{                                                                                          \
		SIZE_IN(13, f), {AT(11, f), AT(12, f), AT(13, f)}, 0, 0                            \
	}
/* dropped by 13 */
#define UNTIL_12(f, attr, in)                                                                      \
	{                                                                                          \
		SIZE_IN(12, f), {AT(11, f), AT(12, f), ABSENT}, attr, in                           \
	}
/* added by 12 */
#define SINCE_12(f, attr, in)                                                                      \
	{                                                                                          \
		SIZE_IN(12, f), {ABSENT, AT(12, f), AT(13, f)}, attr, in                           \
	}
/* added by 13 */
#define ONLY_13(f, attr, in)                                                                       \
	{                                                                                          \
		SIZE_IN(13, f), {ABSENT, ABSENT, AT(13, f)}, attr, in                              \
	}

/* The attribute numbers are cudaDeviceAttr values, named in the comments;
 * the names of some exist only in some majors' headers. */
static const struct device_prop_field device_prop_fields[] = {
	IN_ALL(name),
	IN_ALL(uuid),
	IN_ALL(luid),
	IN_ALL(luidDeviceNodeMask),
	IN_ALL(totalGlobalMem),
	IN_ALL(sharedMemPerBlock),
	IN_ALL(regsPerBlock),
	IN_ALL(warpSize),
	IN_ALL(memPitch),
	IN_ALL(maxThreadsPerBlock),
	IN_ALL(maxThreadsDim),
	IN_ALL(maxGridSize),
	UNTIL_12(clockRate, 13, IN_11 | IN_12 | IN_13), /* cudaDevAttrClockRate */
	IN_ALL(totalConstMem),
	IN_ALL(major),
	IN_ALL(minor),
	IN_ALL(textureAlignment),
	IN_ALL(texturePitchAlignment),
	UNTIL_12(deviceOverlap, 15, IN_11 | IN_12 | IN_13), /* cudaDevAttrGpuOverlap */
	IN_ALL(multiProcessorCount),
	UNTIL_12(kernelExecTimeoutEnabled, 17, IN_11 | IN_12 | IN_13), /* ..KernelExecTimeout */
	IN_ALL(integrated),
	IN_ALL(canMapHostMemory),
	UNTIL_12(computeMode, 20, IN_11 | IN_12 | IN_13), /* cudaDevAttrComputeMode */
	IN_ALL(maxTexture1D),
	IN_ALL(maxTexture1DMipmap),
	UNTIL_12(maxTexture1DLinear, 69, IN_11 | IN_12 | IN_13), /* ..MaxTexture1DLinearWidth */
	IN_ALL(maxTexture2D),
	IN_ALL(maxTexture2DMipmap),
	IN_ALL(maxTexture2DLinear),
	IN_ALL(maxTexture2DGather),
	IN_ALL(maxTexture3D),
	IN_ALL(maxTexture3DAlt),
	IN_ALL(maxTextureCubemap),
	IN_ALL(maxTexture1DLayered),
	IN_ALL(maxTexture2DLayered),
	IN_ALL(maxTextureCubemapLayered),
	IN_ALL(maxSurface1D),
	IN_ALL(maxSurface2D),
	IN_ALL(maxSurface3D),
	IN_ALL(maxSurface1DLayered),
	IN_ALL(maxSurface2DLayered),
	IN_ALL(maxSurfaceCubemap),
	IN_ALL(maxSurfaceCubemapLayered),
	IN_ALL(surfaceAlignment),
	IN_ALL(concurrentKernels),
	IN_ALL(ECCEnabled),
	IN_ALL(pciBusID),
	IN_ALL(pciDeviceID),
	IN_ALL(pciDomainID),
	IN_ALL(tccDriver),
	IN_ALL(asyncEngineCount),
	IN_ALL(unifiedAddressing),
	UNTIL_12(memoryClockRate, 36, IN_11 | IN_12 | IN_13), /* cudaDevAttrMemoryClockRate */
	IN_ALL(memoryBusWidth),
	IN_ALL(l2CacheSize),
	IN_ALL(persistingL2CacheMaxSize),
	IN_ALL(maxThreadsPerMultiProcessor),
	IN_ALL(streamPrioritiesSupported),
	IN_ALL(globalL1CacheSupported),
	IN_ALL(localL1CacheSupported),
	IN_ALL(sharedMemPerMultiprocessor),
	IN_ALL(regsPerMultiprocessor),
	IN_ALL(managedMemory),
	IN_ALL(isMultiGpuBoard),
	IN_ALL(multiGpuBoardGroupID),
	IN_ALL(hostNativeAtomicSupported),
	/* cudaDevAttrSingleToDoublePrecisionPerfRatio */
	UNTIL_12(singleToDoublePrecisionPerfRatio, 87, IN_11 | IN_12 | IN_13),
	IN_ALL(pageableMemoryAccess),
	IN_ALL(concurrentManagedAccess),
	IN_ALL(computePreemptionSupported),
	IN_ALL(canUseHostPointerForRegisteredMem),
	IN_ALL(cooperativeLaunch),
	/* cudaDevAttrCooperativeMultiDeviceLaunch; 13 made 96 reserved */
	UNTIL_12(cooperativeMultiDeviceLaunch, 96, IN_11 | IN_12),
	IN_ALL(sharedMemPerBlockOptin),
	IN_ALL(pageableMemoryAccessUsesHostPageTables),
	IN_ALL(directManagedMemAccessFromHost),
	IN_ALL(maxBlocksPerMultiProcessor),
	IN_ALL(accessPolicyMaxWindowSize),
	IN_ALL(reservedSharedMemPerBlock),
	SINCE_12(hostRegisterSupported, 99, IN_11 | IN_12 | IN_13),
	SINCE_12(sparseCudaArraySupported, 112, IN_11 | IN_12 | IN_13),
	SINCE_12(hostRegisterReadOnlySupported, 113, IN_11 | IN_12 | IN_13),
	SINCE_12(timelineSemaphoreInteropSupported, 114, IN_11 | IN_12 | IN_13),
	SINCE_12(memoryPoolsSupported, 115, IN_11 | IN_12 | IN_13),
	SINCE_12(gpuDirectRDMASupported, 116, IN_11 | IN_12 | IN_13),
	SINCE_12(gpuDirectRDMAFlushWritesOptions, 117, IN_11 | IN_12 | IN_13),
	SINCE_12(gpuDirectRDMAWritesOrdering, 118, IN_11 | IN_12 | IN_13),
	SINCE_12(memoryPoolSupportedHandleTypes, 119, IN_11 | IN_12 | IN_13),
	SINCE_12(deferredMappingCudaArraySupported, 121, IN_11 | IN_12 | IN_13),
	SINCE_12(ipcEventSupported, 125, IN_12 | IN_13), /* cudaDevAttrIpcEventSupport */
	SINCE_12(clusterLaunch, 120, IN_11 | IN_12 | IN_13),
	SINCE_12(unifiedFunctionPointers, 0, 0),       /* no attribute reports it */
	ONLY_13(deviceNumaConfig, 130, IN_12 | IN_13), /* cudaDevAttrNumaConfig */
	ONLY_13(deviceNumaId, 131, IN_12 | IN_13),     /* cudaDevAttrNumaId */
	ONLY_13(mpsEnabled, 133, IN_12 | IN_13),       /* cudaDevAttrMpsEnabled */
	ONLY_13(hostNumaId, 134, IN_12 | IN_13),       /* cudaDevAttrHostNumaId */
	ONLY_13(gpuPciDeviceID, 139, IN_13),	       /* cudaDevAttrGpuPciDeviceId */
	ONLY_13(gpuPciSubsystemID, 140, IN_13),	       /* cudaDevAttrGpuPciSubsystemId */
	ONLY_13(hostNumaMultinodeIpcSupported, 143, IN_13),
};

static size_t device_prop_size(int major)
{
	return major == 11   ? sizeof(struct cudaDeviceProp_11)
	       : major == 12 ? sizeof(struct cudaDeviceProp_12)
			     : sizeof(struct cudaDeviceProp_13);
}

typedef cudaError_t (*device_get_attribute_fn)(int *value, enum cudaDeviceAttr attr, int device);

/*
 * Writes the struct of major to_major at to (all of its size, nothing more)
 * from the struct of major from_major at from. A field the source lacks is
 * asked of get_attribute for device, when given and the source's runtime
 * defines the attribute; else it stays 0.
 */
static void device_prop_translate(void *to, int to_major, const void *from, int from_major,
				  device_get_attribute_fn get_attribute, int device)
{
	memset(to, 0, device_prop_size(to_major));
	for (size_t i = 0; i < sizeof device_prop_fields / sizeof *device_prop_fields; i++) {
		const struct device_prop_field *f = &device_prop_fields[i];
		int at = f->offset[to_major - 11], src = f->offset[from_major - 11];
		int value;

		if (at == ABSENT)
			continue;
		if (src != ABSENT)
			memcpy((char *)to + at, (const char *)from + src, f->size);
		else if (get_attribute && (f->attribute_in & MAJOR_BIT(from_major)) &&
			 f->size == sizeof value &&
			 get_attribute(&value, (enum cudaDeviceAttr)f->attribute, device) ==
				 cudaSuccess)
			memcpy((char *)to + at, &value, sizeof value);
	}
}

/* The runtime's functions; prop pointers are to its own major's layout. */
typedef cudaError_t (*runtime_get_properties_fn)(void *prop, int device);
typedef cudaError_t (*runtime_choose_device_fn)(int *device, const void *prop);

static _Atomic(void *) runtime_get_properties;
static _Atomic(void *) runtime_get_attribute;
static _Atomic(void *) runtime_choose_device;

/* A runtime major whose layout the table knows, other than the stub's. */
static int translatable_major(void)
{
	int major = adapt_loaded_major();

	return major >= 11 && major <= 13 && major != CUDASTUB_ABI_MAJOR ? major : 0;
}

static cudaError_t get_device_properties_translated(struct cudaDeviceProp *prop, int device)
{
	int major = adapt_loaded_major();
	runtime_get_properties_fn get;
	device_get_attribute_fn get_attribute;
	union device_prop_any theirs;
	cudaError_t err;

	*(void **)&get = adapt_slot_function(&runtime_get_properties);
	*(void **)&get_attribute = adapt_slot_function(&runtime_get_attribute);
	if (!prop)
		return get(NULL, device);
	memset(&theirs, 0, sizeof theirs);
	err = get(&theirs, device);
	if (err == cudaSuccess)
		device_prop_translate(prop, CUDASTUB_ABI_MAJOR, &theirs, major, get_attribute,
				      device);
	return err;
}

static cudaError_t choose_device_translated(int *device, const struct cudaDeviceProp *prop)
{
	runtime_choose_device_fn choose;
	union device_prop_any theirs;

	*(void **)&choose = adapt_slot_function(&runtime_choose_device);
	if (!prop)
		return choose(device, NULL);
	device_prop_translate(&theirs, adapt_loaded_major(), prop, CUDASTUB_ABI_MAJOR, NULL, 0);
	return choose(device, &theirs);
}

/* The getter for the loaded major, or NULL. */
static void *device_properties_adapter(void)
{
	int major = translatable_major();
	void *get, *get_attribute;

	if (!major)
		return NULL;
	get = adapt_loaded_symbol(major == 12 ? "cudaGetDeviceProperties_v2"
					      : "cudaGetDeviceProperties");
	get_attribute = adapt_loaded_symbol("cudaDeviceGetAttribute");
	if (!get)
		return NULL;
	/* without cudaDeviceGetAttribute, fields the runtime lacks stay 0 */
	atomic_store_explicit(&runtime_get_attribute, get_attribute, memory_order_release);
	atomic_store_explicit(&runtime_get_properties, get, memory_order_release);
	return adapt_chosen(major == 12 ? "cudaGetDeviceProperties_v2" : "cudaGetDeviceProperties",
			    "cudaDeviceProp translated field by field",
			    (void *)get_device_properties_translated);
}

#if CUDASTUB_ABI_MAJOR == 12
cudaGetDeviceProperties_v2_fn cudastub_cudart_adapt_cudaGetDeviceProperties_v2(void)
{
	cudaGetDeviceProperties_v2_fn fn;

	*(void **)&fn = device_properties_adapter();
	return fn;
}
#else
cudaGetDeviceProperties_fn cudastub_cudart_adapt_cudaGetDeviceProperties(void)
{
	cudaGetDeviceProperties_fn fn;

	*(void **)&fn = device_properties_adapter();
	return fn;
}
#endif

cudaChooseDevice_fn cudastub_cudart_adapt_cudaChooseDevice(void)
{
	void *choose = translatable_major() ? adapt_loaded_symbol("cudaChooseDevice") : NULL;

	if (!choose)
		return NULL;
	atomic_store_explicit(&runtime_choose_device, choose, memory_order_release);
	adapt_chosen("cudaChooseDevice", "cudaDeviceProp translated field by field", choose);
	return choose_device_translated;
}

/*
 * Device properties: cudaDeviceProp in the 11.x, 12.x and 13.x layouts,
 * every direction (the spec's `layout cudaDeviceProp` lines and
 * `same_function cudaGetDeviceProperties cudaGetDeviceProperties_v2`;
 * stubs/cudart/layout/layout.c copies the fields and asks the runtime's
 * cudaDeviceGetAttribute for those its struct lacks). The caller's struct
 * is checked field by field at the offsets of the generated layout
 * constants: a field both majors have holds the fake's pattern from the
 * runtime's offset; a field the runtime lacks holds FAKE_ATTRIBUTE_BASE +
 * the attribute that reports it when the runtime's headers define one, else
 * 0; every other byte is 0, and nothing past the struct is written.
 */
#define _GNU_SOURCE
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <string.h>

#include "adapters_test.h"

#define L(m, f) CUDASTUB_LAYOUT_cudaDeviceProp_##m##_##f
#define NONE	(-1)
/* majors whose headers define an attribute */
#define IN_11  1
#define IN_12  2
#define IN_13  4
#define BIT(m) (1 << ((m)-11))

/* Every field but the reserved words: its size, its offset in 11.x, 12.x
 * and 13.x, and for a field some major lacks, the attribute reporting it. */
static const struct prop_field {
	const char *name;
	int size;
	int offset[3];
	int attribute;
	int known_in;
} fields[] = {
	{"name", 256, {L(11, name), L(12, name), L(13, name)}, 0, 0},
	{"uuid", 16, {L(11, uuid), L(12, uuid), L(13, uuid)}, 0, 0},
	{"luid", 8, {L(11, luid), L(12, luid), L(13, luid)}, 0, 0},
	{"luidDeviceNodeMask",
	 4,
	 {L(11, luidDeviceNodeMask), L(12, luidDeviceNodeMask), L(13, luidDeviceNodeMask)},
	 0,
	 0},
	{"totalGlobalMem",
	 8,
	 {L(11, totalGlobalMem), L(12, totalGlobalMem), L(13, totalGlobalMem)},
	 0,
	 0},
	{"sharedMemPerBlock",
	 8,
	 {L(11, sharedMemPerBlock), L(12, sharedMemPerBlock), L(13, sharedMemPerBlock)},
	 0,
	 0},
	{"regsPerBlock", 4, {L(11, regsPerBlock), L(12, regsPerBlock), L(13, regsPerBlock)}, 0, 0},
	{"warpSize", 4, {L(11, warpSize), L(12, warpSize), L(13, warpSize)}, 0, 0},
	{"memPitch", 8, {L(11, memPitch), L(12, memPitch), L(13, memPitch)}, 0, 0},
	{"maxThreadsPerBlock",
	 4,
	 {L(11, maxThreadsPerBlock), L(12, maxThreadsPerBlock), L(13, maxThreadsPerBlock)},
	 0,
	 0},
	{"maxThreadsDim",
	 12,
	 {L(11, maxThreadsDim), L(12, maxThreadsDim), L(13, maxThreadsDim)},
	 0,
	 0},
	{"maxGridSize", 12, {L(11, maxGridSize), L(12, maxGridSize), L(13, maxGridSize)}, 0, 0},
	{"clockRate",
	 4,
	 {L(11, clockRate), L(12, clockRate), NONE},
	 cudaDevAttrClockRate,
	 IN_11 | IN_12 | IN_13},
	{"totalConstMem",
	 8,
	 {L(11, totalConstMem), L(12, totalConstMem), L(13, totalConstMem)},
	 0,
	 0},
	{"major", 4, {L(11, major), L(12, major), L(13, major)}, 0, 0},
	{"minor", 4, {L(11, minor), L(12, minor), L(13, minor)}, 0, 0},
	{"textureAlignment",
	 8,
	 {L(11, textureAlignment), L(12, textureAlignment), L(13, textureAlignment)},
	 0,
	 0},
	{"texturePitchAlignment",
	 8,
	 {L(11, texturePitchAlignment), L(12, texturePitchAlignment), L(13, texturePitchAlignment)},
	 0,
	 0},
	{"deviceOverlap",
	 4,
	 {L(11, deviceOverlap), L(12, deviceOverlap), NONE},
	 cudaDevAttrGpuOverlap,
	 IN_11 | IN_12 | IN_13},
	{"multiProcessorCount",
	 4,
	 {L(11, multiProcessorCount), L(12, multiProcessorCount), L(13, multiProcessorCount)},
	 0,
	 0},
	{"kernelExecTimeoutEnabled",
	 4,
	 {L(11, kernelExecTimeoutEnabled), L(12, kernelExecTimeoutEnabled), NONE},
	 cudaDevAttrKernelExecTimeout,
	 IN_11 | IN_12 | IN_13},
	{"integrated", 4, {L(11, integrated), L(12, integrated), L(13, integrated)}, 0, 0},
	{"canMapHostMemory",
	 4,
	 {L(11, canMapHostMemory), L(12, canMapHostMemory), L(13, canMapHostMemory)},
	 0,
	 0},
	{"computeMode",
	 4,
	 {L(11, computeMode), L(12, computeMode), NONE},
	 cudaDevAttrComputeMode,
	 IN_11 | IN_12 | IN_13},
	{"maxTexture1D", 4, {L(11, maxTexture1D), L(12, maxTexture1D), L(13, maxTexture1D)}, 0, 0},
	{"maxTexture1DMipmap",
	 4,
	 {L(11, maxTexture1DMipmap), L(12, maxTexture1DMipmap), L(13, maxTexture1DMipmap)},
	 0,
	 0},
	{"maxTexture1DLinear",
	 4,
	 {L(11, maxTexture1DLinear), L(12, maxTexture1DLinear), NONE},
	 cudaDevAttrMaxTexture1DLinearWidth,
	 IN_11 | IN_12 | IN_13},
	{"maxTexture2D", 8, {L(11, maxTexture2D), L(12, maxTexture2D), L(13, maxTexture2D)}, 0, 0},
	{"maxTexture2DMipmap",
	 8,
	 {L(11, maxTexture2DMipmap), L(12, maxTexture2DMipmap), L(13, maxTexture2DMipmap)},
	 0,
	 0},
	{"maxTexture2DLinear",
	 12,
	 {L(11, maxTexture2DLinear), L(12, maxTexture2DLinear), L(13, maxTexture2DLinear)},
	 0,
	 0},
	{"maxTexture2DGather",
	 8,
	 {L(11, maxTexture2DGather), L(12, maxTexture2DGather), L(13, maxTexture2DGather)},
	 0,
	 0},
	{"maxTexture3D", 12, {L(11, maxTexture3D), L(12, maxTexture3D), L(13, maxTexture3D)}, 0, 0},
	{"maxTexture3DAlt",
	 12,
	 {L(11, maxTexture3DAlt), L(12, maxTexture3DAlt), L(13, maxTexture3DAlt)},
	 0,
	 0},
	{"maxTextureCubemap",
	 4,
	 {L(11, maxTextureCubemap), L(12, maxTextureCubemap), L(13, maxTextureCubemap)},
	 0,
	 0},
	{"maxTexture1DLayered",
	 8,
	 {L(11, maxTexture1DLayered), L(12, maxTexture1DLayered), L(13, maxTexture1DLayered)},
	 0,
	 0},
	{"maxTexture2DLayered",
	 12,
	 {L(11, maxTexture2DLayered), L(12, maxTexture2DLayered), L(13, maxTexture2DLayered)},
	 0,
	 0},
	{"maxTextureCubemapLayered",
	 8,
	 {L(11, maxTextureCubemapLayered), L(12, maxTextureCubemapLayered),
	  L(13, maxTextureCubemapLayered)},
	 0,
	 0},
	{"maxSurface1D", 4, {L(11, maxSurface1D), L(12, maxSurface1D), L(13, maxSurface1D)}, 0, 0},
	{"maxSurface2D", 8, {L(11, maxSurface2D), L(12, maxSurface2D), L(13, maxSurface2D)}, 0, 0},
	{"maxSurface3D", 12, {L(11, maxSurface3D), L(12, maxSurface3D), L(13, maxSurface3D)}, 0, 0},
	{"maxSurface1DLayered",
	 8,
	 {L(11, maxSurface1DLayered), L(12, maxSurface1DLayered), L(13, maxSurface1DLayered)},
	 0,
	 0},
	{"maxSurface2DLayered",
	 12,
	 {L(11, maxSurface2DLayered), L(12, maxSurface2DLayered), L(13, maxSurface2DLayered)},
	 0,
	 0},
	{"maxSurfaceCubemap",
	 4,
	 {L(11, maxSurfaceCubemap), L(12, maxSurfaceCubemap), L(13, maxSurfaceCubemap)},
	 0,
	 0},
	{"maxSurfaceCubemapLayered",
	 8,
	 {L(11, maxSurfaceCubemapLayered), L(12, maxSurfaceCubemapLayered),
	  L(13, maxSurfaceCubemapLayered)},
	 0,
	 0},
	{"surfaceAlignment",
	 8,
	 {L(11, surfaceAlignment), L(12, surfaceAlignment), L(13, surfaceAlignment)},
	 0,
	 0},
	{"concurrentKernels",
	 4,
	 {L(11, concurrentKernels), L(12, concurrentKernels), L(13, concurrentKernels)},
	 0,
	 0},
	{"ECCEnabled", 4, {L(11, ECCEnabled), L(12, ECCEnabled), L(13, ECCEnabled)}, 0, 0},
	{"pciBusID", 4, {L(11, pciBusID), L(12, pciBusID), L(13, pciBusID)}, 0, 0},
	{"pciDeviceID", 4, {L(11, pciDeviceID), L(12, pciDeviceID), L(13, pciDeviceID)}, 0, 0},
	{"pciDomainID", 4, {L(11, pciDomainID), L(12, pciDomainID), L(13, pciDomainID)}, 0, 0},
	{"tccDriver", 4, {L(11, tccDriver), L(12, tccDriver), L(13, tccDriver)}, 0, 0},
	{"asyncEngineCount",
	 4,
	 {L(11, asyncEngineCount), L(12, asyncEngineCount), L(13, asyncEngineCount)},
	 0,
	 0},
	{"unifiedAddressing",
	 4,
	 {L(11, unifiedAddressing), L(12, unifiedAddressing), L(13, unifiedAddressing)},
	 0,
	 0},
	{"memoryClockRate",
	 4,
	 {L(11, memoryClockRate), L(12, memoryClockRate), NONE},
	 cudaDevAttrMemoryClockRate,
	 IN_11 | IN_12 | IN_13},
	{"memoryBusWidth",
	 4,
	 {L(11, memoryBusWidth), L(12, memoryBusWidth), L(13, memoryBusWidth)},
	 0,
	 0},
	{"l2CacheSize", 4, {L(11, l2CacheSize), L(12, l2CacheSize), L(13, l2CacheSize)}, 0, 0},
	{"persistingL2CacheMaxSize",
	 4,
	 {L(11, persistingL2CacheMaxSize), L(12, persistingL2CacheMaxSize),
	  L(13, persistingL2CacheMaxSize)},
	 0,
	 0},
	{"maxThreadsPerMultiProcessor",
	 4,
	 {L(11, maxThreadsPerMultiProcessor), L(12, maxThreadsPerMultiProcessor),
	  L(13, maxThreadsPerMultiProcessor)},
	 0,
	 0},
	{"streamPrioritiesSupported",
	 4,
	 {L(11, streamPrioritiesSupported), L(12, streamPrioritiesSupported),
	  L(13, streamPrioritiesSupported)},
	 0,
	 0},
	{"globalL1CacheSupported",
	 4,
	 {L(11, globalL1CacheSupported), L(12, globalL1CacheSupported),
	  L(13, globalL1CacheSupported)},
	 0,
	 0},
	{"localL1CacheSupported",
	 4,
	 {L(11, localL1CacheSupported), L(12, localL1CacheSupported), L(13, localL1CacheSupported)},
	 0,
	 0},
	{"sharedMemPerMultiprocessor",
	 8,
	 {L(11, sharedMemPerMultiprocessor), L(12, sharedMemPerMultiprocessor),
	  L(13, sharedMemPerMultiprocessor)},
	 0,
	 0},
	{"regsPerMultiprocessor",
	 4,
	 {L(11, regsPerMultiprocessor), L(12, regsPerMultiprocessor), L(13, regsPerMultiprocessor)},
	 0,
	 0},
	{"managedMemory",
	 4,
	 {L(11, managedMemory), L(12, managedMemory), L(13, managedMemory)},
	 0,
	 0},
	{"isMultiGpuBoard",
	 4,
	 {L(11, isMultiGpuBoard), L(12, isMultiGpuBoard), L(13, isMultiGpuBoard)},
	 0,
	 0},
	{"multiGpuBoardGroupID",
	 4,
	 {L(11, multiGpuBoardGroupID), L(12, multiGpuBoardGroupID), L(13, multiGpuBoardGroupID)},
	 0,
	 0},
	{"hostNativeAtomicSupported",
	 4,
	 {L(11, hostNativeAtomicSupported), L(12, hostNativeAtomicSupported),
	  L(13, hostNativeAtomicSupported)},
	 0,
	 0},
	{"singleToDoublePrecisionPerfRatio",
	 4,
	 {L(11, singleToDoublePrecisionPerfRatio), L(12, singleToDoublePrecisionPerfRatio), NONE},
	 cudaDevAttrSingleToDoublePrecisionPerfRatio,
	 IN_11 | IN_12 | IN_13},
	{"pageableMemoryAccess",
	 4,
	 {L(11, pageableMemoryAccess), L(12, pageableMemoryAccess), L(13, pageableMemoryAccess)},
	 0,
	 0},
	{"concurrentManagedAccess",
	 4,
	 {L(11, concurrentManagedAccess), L(12, concurrentManagedAccess),
	  L(13, concurrentManagedAccess)},
	 0,
	 0},
	{"computePreemptionSupported",
	 4,
	 {L(11, computePreemptionSupported), L(12, computePreemptionSupported),
	  L(13, computePreemptionSupported)},
	 0,
	 0},
	{"canUseHostPointerForRegisteredMem",
	 4,
	 {L(11, canUseHostPointerForRegisteredMem), L(12, canUseHostPointerForRegisteredMem),
	  L(13, canUseHostPointerForRegisteredMem)},
	 0,
	 0},
	{"cooperativeLaunch",
	 4,
	 {L(11, cooperativeLaunch), L(12, cooperativeLaunch), L(13, cooperativeLaunch)},
	 0,
	 0},
	{"cooperativeMultiDeviceLaunch",
	 4,
	 {L(11, cooperativeMultiDeviceLaunch), L(12, cooperativeMultiDeviceLaunch), NONE},
	 96 /* CooperativeMultiDeviceLaunch */,
	 IN_11 | IN_12},
	{"sharedMemPerBlockOptin",
	 8,
	 {L(11, sharedMemPerBlockOptin), L(12, sharedMemPerBlockOptin),
	  L(13, sharedMemPerBlockOptin)},
	 0,
	 0},
	{"pageableMemoryAccessUsesHostPageTables",
	 4,
	 {L(11, pageableMemoryAccessUsesHostPageTables),
	  L(12, pageableMemoryAccessUsesHostPageTables),
	  L(13, pageableMemoryAccessUsesHostPageTables)},
	 0,
	 0},
	{"directManagedMemAccessFromHost",
	 4,
	 {L(11, directManagedMemAccessFromHost), L(12, directManagedMemAccessFromHost),
	  L(13, directManagedMemAccessFromHost)},
	 0,
	 0},
	{"maxBlocksPerMultiProcessor",
	 4,
	 {L(11, maxBlocksPerMultiProcessor), L(12, maxBlocksPerMultiProcessor),
	  L(13, maxBlocksPerMultiProcessor)},
	 0,
	 0},
	{"accessPolicyMaxWindowSize",
	 4,
	 {L(11, accessPolicyMaxWindowSize), L(12, accessPolicyMaxWindowSize),
	  L(13, accessPolicyMaxWindowSize)},
	 0,
	 0},
	{"reservedSharedMemPerBlock",
	 8,
	 {L(11, reservedSharedMemPerBlock), L(12, reservedSharedMemPerBlock),
	  L(13, reservedSharedMemPerBlock)},
	 0,
	 0},
	{"hostRegisterSupported",
	 4,
	 {NONE, L(12, hostRegisterSupported), L(13, hostRegisterSupported)},
	 cudaDevAttrHostRegisterSupported,
	 IN_11 | IN_12 | IN_13},
	{"sparseCudaArraySupported",
	 4,
	 {NONE, L(12, sparseCudaArraySupported), L(13, sparseCudaArraySupported)},
	 cudaDevAttrSparseCudaArraySupported,
	 IN_11 | IN_12 | IN_13},
	{"hostRegisterReadOnlySupported",
	 4,
	 {NONE, L(12, hostRegisterReadOnlySupported), L(13, hostRegisterReadOnlySupported)},
	 cudaDevAttrHostRegisterReadOnlySupported,
	 IN_11 | IN_12 | IN_13},
	{"timelineSemaphoreInteropSupported",
	 4,
	 {NONE, L(12, timelineSemaphoreInteropSupported), L(13, timelineSemaphoreInteropSupported)},
	 cudaDevAttrTimelineSemaphoreInteropSupported,
	 IN_11 | IN_12 | IN_13},
	{"memoryPoolsSupported",
	 4,
	 {NONE, L(12, memoryPoolsSupported), L(13, memoryPoolsSupported)},
	 cudaDevAttrMemoryPoolsSupported,
	 IN_11 | IN_12 | IN_13},
	{"gpuDirectRDMASupported",
	 4,
	 {NONE, L(12, gpuDirectRDMASupported), L(13, gpuDirectRDMASupported)},
	 cudaDevAttrGPUDirectRDMASupported,
	 IN_11 | IN_12 | IN_13},
	{"gpuDirectRDMAFlushWritesOptions",
	 4,
	 {NONE, L(12, gpuDirectRDMAFlushWritesOptions), L(13, gpuDirectRDMAFlushWritesOptions)},
	 cudaDevAttrGPUDirectRDMAFlushWritesOptions,
	 IN_11 | IN_12 | IN_13},
	{"gpuDirectRDMAWritesOrdering",
	 4,
	 {NONE, L(12, gpuDirectRDMAWritesOrdering), L(13, gpuDirectRDMAWritesOrdering)},
	 cudaDevAttrGPUDirectRDMAWritesOrdering,
	 IN_11 | IN_12 | IN_13},
	{"memoryPoolSupportedHandleTypes",
	 4,
	 {NONE, L(12, memoryPoolSupportedHandleTypes), L(13, memoryPoolSupportedHandleTypes)},
	 cudaDevAttrMemoryPoolSupportedHandleTypes,
	 IN_11 | IN_12 | IN_13},
	{"deferredMappingCudaArraySupported",
	 4,
	 {NONE, L(12, deferredMappingCudaArraySupported), L(13, deferredMappingCudaArraySupported)},
	 cudaDevAttrDeferredMappingCudaArraySupported,
	 IN_11 | IN_12 | IN_13},
	{"ipcEventSupported",
	 4,
	 {NONE, L(12, ipcEventSupported), L(13, ipcEventSupported)},
	 cudaDevAttrIpcEventSupport,
	 IN_12 | IN_13},
	{"clusterLaunch",
	 4,
	 {NONE, L(12, clusterLaunch), L(13, clusterLaunch)},
	 cudaDevAttrClusterLaunch,
	 IN_11 | IN_12 | IN_13},
	{"unifiedFunctionPointers",
	 4,
	 {NONE, L(12, unifiedFunctionPointers), L(13, unifiedFunctionPointers)},
	 0,
	 0},
	{"deviceNumaConfig",
	 4,
	 {NONE, NONE, L(13, deviceNumaConfig)},
	 cudaDevAttrNumaConfig,
	 IN_12 | IN_13},
	{"deviceNumaId", 4, {NONE, NONE, L(13, deviceNumaId)}, cudaDevAttrNumaId, IN_12 | IN_13},
	{"mpsEnabled", 4, {NONE, NONE, L(13, mpsEnabled)}, cudaDevAttrMpsEnabled, IN_12 | IN_13},
	{"hostNumaId", 4, {NONE, NONE, L(13, hostNumaId)}, cudaDevAttrHostNumaId, IN_12 | IN_13},
	{"gpuPciDeviceID",
	 4,
	 {NONE, NONE, L(13, gpuPciDeviceID)},
	 cudaDevAttrGpuPciDeviceId,
	 IN_13},
	{"gpuPciSubsystemID",
	 4,
	 {NONE, NONE, L(13, gpuPciSubsystemID)},
	 cudaDevAttrGpuPciSubsystemId,
	 IN_13},
	{"hostNumaMultinodeIpcSupported",
	 4,
	 {NONE, NONE, L(13, hostNumaMultinodeIpcSupported)},
	 cudaDevAttrHostNumaMultinodeIpcSupported,
	 IN_13},
};

static const size_t prop_sizes[3] = {L(11, SIZE), L(12, SIZE), L(13, SIZE)};

static void expect_field(int ok, const struct prop_field *f, const char *what)
{
	char msg[160];

	snprintf(msg, sizeof msg, "%s: %s", f->name, what);
	ad_expect(ok, __FILE__, __LINE__, msg);
}

/* The caller's struct p, of major b, as a runtime of major r filled it. */
static void expect_props(const unsigned char *p, int b, int r)
{
	unsigned char covered[1100] = {0};

	for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) {
		const struct prop_field *f = &fields[i];
		int at = f->offset[b - 11], src = f->offset[r - 11], value;

		if (at == NONE)
			continue;
		memset(covered + at, 1, (size_t)f->size);
		memcpy(&value, p + at, sizeof value);
		if (src != NONE)
			expect_field(ad_pattern_at(p, (size_t)at, (size_t)src, (size_t)f->size), f,
				     "the runtime's value");
		else if (f->attribute && (f->known_in & BIT(r)))
			expect_field(value == FAKE_ATTRIBUTE_BASE + f->attribute, f,
				     "the attribute's value");
		else
			expect_field(ad_zero_at(p, (size_t)at, (size_t)f->size), f, "zero");
	}
	for (size_t k = 0; k < prop_sizes[b - 11]; k++)
		if (!covered[k] && p[k]) {
			char msg[80];

			snprintf(msg, sizeof msg, "byte %zu outside every field is not 0", k);
			ad_expect(0, __FILE__, __LINE__, msg);
			break;
		}
	AD_EXPECT(ad_guard_intact(p, prop_sizes[b - 11]));
}

/* Asked only for attributes the runtime's headers define. */
static void expect_attributes_asked(int r)
{
	const int *asked = ad_fake_symbol("fake_props_attributes_asked");

	for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
		if (fields[i].attribute && !(fields[i].known_in & BIT(r)))
			expect_field(asked[fields[i].attribute] == 0, &fields[i],
				     "attribute the runtime lacks was asked for");
}

typedef cudaError_t (*get_properties_fn)(void *prop, int device);
typedef cudaError_t (*choose_device_fn)(int *device, const void *prop);

/* The stub's getter (12: the _v2 its headers map the name to). */
static get_properties_fn stub_getter(int b)
{
	return (get_properties_fn)ad_stub_symbol(b == 12 ? "cudaGetDeviceProperties_v2"
							 : "cudaGetDeviceProperties");
}

/* The stub of major b on the fake of major r: the case's. */
static int get_properties(void)
{
	int b = ad_stub_abi(), r = ad_fake_major();
	const char *theirs = r == 12 ? "cudaGetDeviceProperties_v2" : "cudaGetDeviceProperties";
	unsigned char *prop = ad_guarded(prop_sizes[b - 11]);
	int mark = ad_mark();

	AD_EXPECT(stub_getter(b)(prop, 0) == cudaSuccess);
	AD_EXPECT(ad_called_since(mark, theirs));
	/* 12's unversioned export is never called */
	AD_EXPECT(r != 12 || !ad_called_since(mark, "cudaGetDeviceProperties"));
	expect_props(prop, b, r);
	expect_attributes_asked(r);
	/* an error leaves the caller's struct as it was */
	memset(prop, AD_FILL, prop_sizes[b - 11] + AD_GUARD);
	AD_EXPECT(stub_getter(b)(prop, FAKE_BAD_DEVICE) == cudaErrorInvalidDevice);
	AD_EXPECT(ad_guard_intact(prop, 0));
	/* NULL goes to the runtime, which answers for itself */
	AD_EXPECT(stub_getter(b)(NULL, 0) == cudaErrorInvalidValue);
	return ad_finish();
}

/*
 * cudaChooseDevice: the caller's struct (major b, each byte its pattern at
 * b's offset) reaches the runtime (major r) in r's layout: the common
 * fields moved to r's offsets, every other byte 0.
 */
static int choose_device(void)
{
	int b = ad_stub_abi(), r = ad_fake_major();
	const struct fake_received *got = ad_fake_symbol("fake_props_received");
	unsigned char prop[1100], covered[1100] = {0};
	int device = -1, mark = ad_mark();

	for (size_t k = 0; k < prop_sizes[b - 11]; k++)
		prop[k] = FAKE_PATTERN(k);
	AD_EXPECT(((choose_device_fn)ad_stub_symbol("cudaChooseDevice"))(&device, prop) ==
		  cudaSuccess);
	AD_EXPECT(ad_called_since(mark, "cudaChooseDevice") && device == FAKE_CHOSEN_DEVICE);
	AD_EXPECT(got->size == prop_sizes[r - 11]);
	for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) {
		const struct prop_field *f = &fields[i];
		int at = f->offset[r - 11], src = f->offset[b - 11];

		if (at == NONE)
			continue;
		memset(covered + at, 1, (size_t)f->size);
		if (src != NONE)
			expect_field(
				ad_pattern_at(got->bytes, (size_t)at, (size_t)src, (size_t)f->size),
				f, "the caller's value");
		else
			expect_field(ad_zero_at(got->bytes, (size_t)at, (size_t)f->size), f,
				     "zero: the caller's layout lacks it");
	}
	for (size_t k = 0; k < prop_sizes[r - 11]; k++)
		if (!covered[k])
			AD_EXPECT(got->bytes[k] == 0);
	return ad_finish();
}

/* The control: the stub's own major, forwarded untouched. */
static int props_13_on_13(void)
{
	unsigned char *prop = ad_guarded(L(13, SIZE));
	int mark = ad_mark();

	AD_EXPECT(stub_getter(13)(prop, 0) == cudaSuccess);
	AD_EXPECT(ad_pattern_at(prop, 0, 0, L(13, SIZE)));
	AD_EXPECT(!ad_called_since(mark, "cudaDeviceGetAttribute"));
	return ad_finish();
}

static const struct ad_case cases[] = {
	AD_TEST("13-ABI cudaGetDeviceProperties on 12 (_v2) and 11"),
	AD_CHECKED(13, "12", get_properties),
	AD_CHECKED(13, "11", get_properties),
	AD_CHECKED(13, "13", props_13_on_13),
	AD_TEST("12-ABI cudaGetDeviceProperties_v2 on 13 and 11"),
	AD_CHECKED(12, "13", get_properties),
	AD_CHECKED(12, "11", get_properties),
	AD_TEST("11-ABI cudaGetDeviceProperties on 13 and 12"),
	AD_CHECKED(11, "13", get_properties),
	AD_CHECKED(11, "12", get_properties),
	AD_TEST("cudaChooseDevice in the runtime's layout"),
	AD_CHECKED(13, "12", choose_device),
	AD_CHECKED(13, "11", choose_device),
	AD_CHECKED(12, "13", choose_device),
	AD_CHECKED(11, "13", choose_device),
	AD_CHECKED(11, "12", choose_device),
	AD_END,
};

AD_MAIN("device properties", cases)

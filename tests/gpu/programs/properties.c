/*
 * cudaGetDeviceProperties field by field, and a memory round trip, built
 * against the headers of 13.0 (linked to NVIDIA's runtime and to the
 * stub), 12.4 and 11.8 (linked to those ABIs' stubs): on the installed
 * runtime every build must print the same. The fields are those the three
 * releases' cudaDeviceProp share; the 12.4 and 11.8 builds read them from
 * the struct the stub translated from the runtime's own.
 */
#include <cuda_runtime_api.h>
#include <stddef.h>
#include <string.h>

#include "gpu_check.h"

/* A field of cudaDeviceProp: its name, where it is, and its size (an int,
 * a size_t, or three ints). */
struct field {
	const char *name;
	size_t offset, size;
};
#define FIELD(f)                                                                                   \
	{                                                                                          \
#f, offsetof(struct cudaDeviceProp, f), sizeof(((struct cudaDeviceProp *)0)->f)    \
	}
static const struct field fields[] = {
	FIELD(totalGlobalMem),
	FIELD(sharedMemPerBlock),
	FIELD(regsPerBlock),
	FIELD(warpSize),
	FIELD(memPitch),
	FIELD(maxThreadsPerBlock),
	FIELD(totalConstMem),
	FIELD(major),
	FIELD(minor),
	FIELD(textureAlignment),
	FIELD(texturePitchAlignment),
	FIELD(multiProcessorCount),
	FIELD(integrated),
	FIELD(canMapHostMemory),
	FIELD(concurrentKernels),
	FIELD(ECCEnabled),
	FIELD(pciBusID),
	FIELD(pciDeviceID),
	FIELD(pciDomainID),
	FIELD(tccDriver),
	FIELD(asyncEngineCount),
	FIELD(unifiedAddressing),
	FIELD(memoryBusWidth),
	FIELD(l2CacheSize),
	FIELD(persistingL2CacheMaxSize),
	FIELD(maxThreadsPerMultiProcessor),
	FIELD(streamPrioritiesSupported),
	FIELD(globalL1CacheSupported),
	FIELD(localL1CacheSupported),
	FIELD(sharedMemPerMultiprocessor),
	FIELD(regsPerMultiprocessor),
	FIELD(managedMemory),
	FIELD(isMultiGpuBoard),
	FIELD(multiGpuBoardGroupID),
	FIELD(hostNativeAtomicSupported),
	FIELD(pageableMemoryAccess),
	FIELD(concurrentManagedAccess),
	FIELD(computePreemptionSupported),
	FIELD(canUseHostPointerForRegisteredMem),
	FIELD(cooperativeLaunch),
	FIELD(sharedMemPerBlockOptin),
	FIELD(pageableMemoryAccessUsesHostPageTables),
	FIELD(directManagedMemAccessFromHost),
	FIELD(maxBlocksPerMultiProcessor),
	FIELD(accessPolicyMaxWindowSize),
	FIELD(reservedSharedMemPerBlock),
	FIELD(maxTexture1D),
	FIELD(maxTexture1DMipmap),
	FIELD(maxTextureCubemap),
	FIELD(maxSurface1D),
	FIELD(maxSurfaceCubemap),
	FIELD(surfaceAlignment),
	FIELD(maxThreadsDim),
	FIELD(maxGridSize),
	FIELD(maxTexture3D),
	FIELD(maxSurface3D),
};

static void print_field(const struct cudaDeviceProp *p, const struct field *f)
{
	const char *at = (const char *)p + f->offset;
	int ints[3];
	size_t size;

	if (f->size == sizeof size) {
		memcpy(&size, at, sizeof size);
		printf("%s: %zu\n", f->name, size);
	} else if (f->size == sizeof ints) {
		memcpy(ints, at, sizeof ints);
		printf("%s: %d %d %d\n", f->name, ints[0], ints[1], ints[2]);
	} else {
		memcpy(ints, at, sizeof *ints);
		printf("%s: %d\n", f->name, ints[0]);
	}
}

int main(void)
{
	struct cudaDeviceProp p;
	int runtime = 0, bytes[64], back[64], right = 1;
	int *device = NULL;

	memset(&p, 0, sizeof p);
	gpu_call("cudaRuntimeGetVersion", cudaRuntimeGetVersion(&runtime), cudaSuccess);
	printf("runtime: %d\n", runtime);
	if (!gpu_call("cudaGetDeviceProperties", cudaGetDeviceProperties(&p, 0), cudaSuccess))
		return gpu_exit();
	printf("name: %s\n", p.name);
	printf("uuid:");
	for (int i = 0; i < 16; i++)
		printf(" %02x", (unsigned char)p.uuid.bytes[i]);
	printf("\n");
	for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
		print_field(&p, &fields[i]);

	for (int i = 0; i < 64; i++)
		bytes[i] = i * i;
	if (!gpu_call("cudaMalloc", cudaMalloc((void **)&device, sizeof bytes), cudaSuccess))
		return gpu_exit();
	gpu_call("cudaMemcpy to the GPU",
		 cudaMemcpy(device, bytes, sizeof bytes, cudaMemcpyHostToDevice), cudaSuccess);
	gpu_call("cudaMemcpy to the host",
		 cudaMemcpy(back, device, sizeof back, cudaMemcpyDeviceToHost), cudaSuccess);
	for (int i = 0; i < 64; i++)
		right = right && back[i] == i * i;
	gpu_result("a round trip through the GPU's memory", right);
	gpu_call("cudaFree", cudaFree(device), cudaSuccess);
	return gpu_exit();
}

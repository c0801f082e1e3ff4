/*
 * cudaGetDeviceProperties field by field, and a memory round trip, built
 * against the headers of 13.0 (linked to NVIDIA's runtime and to the
 * stub), 12.4 and 11.8 (linked to those ABIs' stubs): on the installed
 * runtime every build must print the same. The fields are those the three
 * releases' cudaDeviceProp share; the 12.4 and 11.8 builds read them from
 * the struct the stub translated from the runtime's own.
 */
#include <cuda_runtime_api.h>
#include <string.h>

#include "gpu_check.h"

#define SCALARS(X)                                                                                                  \
	X(totalGlobalMem)                                                                                           \
	X(sharedMemPerBlock) X(regsPerBlock) X(warpSize) X(memPitch) X(maxThreadsPerBlock) X(totalConstMem) X(      \
		major) X(minor) X(textureAlignment) X(texturePitchAlignment) X(multiProcessorCount) X(integrated)   \
		X(canMapHostMemory) X(concurrentKernels) X(ECCEnabled) X(pciBusID) X(pciDeviceID) X(                \
			pciDomainID) X(tccDriver) X(asyncEngineCount) X(unifiedAddressing) X(memoryBusWidth)        \
			X(l2CacheSize) X(persistingL2CacheMaxSize) X(maxThreadsPerMultiProcessor) X(                \
				streamPrioritiesSupported) X(globalL1CacheSupported) X(localL1CacheSupported)       \
				X(sharedMemPerMultiprocessor) X(regsPerMultiprocessor) X(                           \
					managedMemory) X(isMultiGpuBoard) X(multiGpuBoardGroupID)                   \
					X(hostNativeAtomicSupported) X(pageableMemoryAccess) X(                     \
						concurrentManagedAccess) X(computePreemptionSupported)              \
						X(canUseHostPointerForRegisteredMem) X(                             \
							cooperativeLaunch) X(sharedMemPerBlockOptin)                \
							X(pageableMemoryAccessUsesHostPageTables) X(                \
								directManagedMemAccessFromHost)                     \
								X(maxBlocksPerMultiProcessor) X(                    \
									accessPolicyMaxWindowSize)                  \
									X(reservedSharedMemPerBlock) X(             \
										maxTexture1D) X(maxTexture1DMipmap) \
										X(maxTextureCubemap) X(             \
											maxSurface1D)               \
											X(maxSurfaceCubemap)        \
												X(surfaceAlignment)
#define TRIPLES(X) X(maxThreadsDim) X(maxGridSize) X(maxTexture3D) X(maxSurface3D)

#define PRINT_SCALAR(field) printf("%s: %lld\n", #field, (long long)p.field);
#define PRINT_TRIPLE(field) printf("%s: %d %d %d\n", #field, p.field[0], p.field[1], p.field[2]);

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
	SCALARS(PRINT_SCALAR)
	TRIPLES(PRINT_TRIPLE)

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

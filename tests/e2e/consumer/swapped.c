/* Written against NVIDIA's runtime and NVRTC (CUDA::cudart, CUDA::nvrtc);
 * cudastub_link() puts the stubs in their place. */
#include <cuda_runtime_api.h>
#include <nvrtc.h>
#include <stdio.h>

#include <cudastub/cudastub.h>

int main(void)
{
	int version = 0, major = 0, minor = 0;
	cudaError_t rc = cudaRuntimeGetVersion(&version);
	nvrtcResult nrc = nvrtcVersion(&major, &minor);

	printf("cudart %d %d\n", (int)rc, version);
	printf("nvrtc %d %d.%d\n", (int)nrc, major, minor);
	printf("through cudastub: %d %d\n", cudastub_info(CUDASTUB_LIB_CUDART) != NULL,
	       cudastub_info(CUDASTUB_LIB_NVRTC) != NULL);
	return 0;
}

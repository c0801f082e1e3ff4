/* A CUDA program that never names CUDA::cudart: CMake links a runtime
 * for its .cu sources by itself. cudastub_link(... DESTINATION) puts the
 * stub in its place and installs the stub where the RUNPATH points. */
#include <cuda_runtime_api.h>
#include <stdio.h>

#include <cudastub/cudastub.h>

__global__ void scale(float *x, float by)
{
	x[threadIdx.x] *= by;
}

int main(void)
{
	int version = 0;
	cudaError_t rc = cudaRuntimeGetVersion(&version);

	printf("implicit %d %d\n", (int)rc, version);
	printf("through cudastub: %d\n", cudastub_info(CUDASTUB_LIB_CUDART) != NULL);
	if (version == -1) /* never: keeps the kernel and its launch in the program */
		scale<<<1, 1>>>(nullptr, 2.0f);
	return 0;
}

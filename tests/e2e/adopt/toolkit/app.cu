/* The program: its own runtime calls (CMake links a runtime for its
 * kernel without being asked), then the libraries'. */
#include <cuda_runtime_api.h>
#include <stdio.h>

extern "C" void report(void);
extern "C" void jit_report(void);

__global__ void scale(float *x, float by)
{
	x[threadIdx.x] *= by;
}

int main(void)
{
	int version = 0;
	cudaError_t rc = cudaRuntimeGetVersion(&version);

	printf("app %d %d\n", (int)rc, version);
	if (version == -1) /* never: keeps the kernel and its launch */
		scale<<<1, 1>>>(nullptr, 2.0f);
	report();
	jit_report();
	return 0;
}

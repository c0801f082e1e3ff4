/* Uses the runtime through cudastub::cudart. */
#include <cuda_runtime_api.h>
#include <stdio.h>

int main(void)
{
	int version = 0;
	cudaError_t rc = cudaRuntimeGetVersion(&version);

	printf("cudart %d %d\n", (int)rc, version);
	return 0;
}

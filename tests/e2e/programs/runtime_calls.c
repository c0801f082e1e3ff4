/*
 * A program of one CUDA release, built against that release's headers
 * and linked to its libcudart (tests/e2e/CMakeLists.txt builds one for
 * 11.8, 12.4 and 13.0): what the runtime it loads answers, a line each,
 * so that a run through the stubs compares byte for byte with a run of
 * the program as built.
 */
#include <cuda_runtime_api.h>
#include <stdio.h>

int main(void)
{
	int version = -1, count = -1;
	cudaError_t rc = cudaRuntimeGetVersion(&version);
	size_t free_bytes = 1, total = 1;

	printf("built for %d\n", CUDART_VERSION);
	printf("runtime %d %d\n", (int)rc, version);
	rc = cudaGetDeviceCount(&count);
	printf("devices %d %d\n", (int)rc, count);
	printf("name %s\n", cudaGetErrorName(rc));
	rc = cudaMemGetInfo(&free_bytes, &total);
	printf("memory %d %zu %zu\n", (int)rc, free_bytes, total);
	printf("last %d\n", (int)cudaGetLastError());
	return 0;
}

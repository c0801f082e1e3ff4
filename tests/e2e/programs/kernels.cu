// Kernels launched with <<<...>>>, and __device__ and __constant__
// variables reached from the host.
#include "report.h"

__device__ int counter;
__constant__ int table[4];

__global__ void add(int *out, int n)
{
	if (out && threadIdx.x < n)
		out[threadIdx.x] = table[threadIdx.x % 4] + counter;
}

__global__ void empty() {}

int main()
{
	int count = -7, host[4] = {1, 2, 3, 4}, back = -7;

	report("cudaGetDeviceCount", cudaGetDeviceCount(&count));
	std::printf("count: %d\n", count);
	add<<<1, 4>>>(nullptr, 4);
	report("launch add", cudaGetLastError());
	empty<<<2, 32, 0, 0>>>();
	report("launch empty", cudaPeekAtLastError());
	report("cudaMemcpyToSymbol", cudaMemcpyToSymbol(table, host, sizeof host));
	report("cudaMemcpyFromSymbol", cudaMemcpyFromSymbol(&back, counter, sizeof back));
	std::printf("back: %d\n", back);
	report("cudaDeviceSynchronize", cudaDeviceSynchronize());
	report("cudaGetLastError", cudaGetLastError());
	return count > 0 ? 0 : 3;
}

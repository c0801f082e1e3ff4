// Separate compilation (-rdc=true): the kernel calls a __device__ function
// of another file, joined by nvcc's device link.
#include "report.h"

extern __device__ int scale(int x);

__global__ void apply(int *v)
{
	if (v)
		*v = scale(*v);
}

int main()
{
	int *d = nullptr;

	report("cudaMalloc", cudaMalloc(&d, sizeof(int)));
	apply<<<1, 1>>>(d);
	report("launch apply", cudaGetLastError());
	report("cudaFree", cudaFree(d));
	return 0;
}

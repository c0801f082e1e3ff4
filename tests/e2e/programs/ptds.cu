// Built with --default-stream per-thread: the launch and the stream calls
// go to the runtime's _ptsz/_ptds entry points.
#include "report.h"

__global__ void fill(int *p, int v)
{
	if (p)
		p[threadIdx.x] = v;
}

int main()
{
	cudaStream_t s = nullptr;

	fill<<<1, 8>>>(nullptr, 1);
	report("launch fill", cudaGetLastError());
	report("cudaStreamSynchronize", cudaStreamSynchronize(0));
	report("cudaMemsetAsync", cudaMemsetAsync(nullptr, 0, 0, 0));
	report("cudaStreamCreate", cudaStreamCreate(&s));
	report("cudaStreamQuery", cudaStreamQuery(0));
	return 0;
}

// A __managed__ variable read from the host: nvcc makes the first access
// call __cudaInitModule, which points the host shadow at managed memory.
// Without a GPU, NVIDIA's runtime leaves it NULL and the read faults.
#include "report.h"

__managed__ int answer[2] = {42, 43};

__global__ void bump() { answer[0]++; }

int main()
{
	std::printf("before the access\n");
	std::fflush(stdout);
	std::printf("answer: %d %d\n", answer[0], answer[1]);
	bump<<<1, 1>>>();
	report("launch bump", cudaGetLastError());
	return 0;
}

// 256 kernels, each registered with the runtime on its own at start-up
// (one __cudaRegisterFunction each): through the stub, each is recorded
// and replayed, and a cost paid per record shows 256 times.
#include "report.h"

template <int N> __global__ void kernel(int *out)
{
	if (out)
		out[0] = N;
}

#define K1(n)  template __global__ void kernel<(n)>(int *);
#define K4(n)  K1(4 * (n)) K1(4 * (n) + 1) K1(4 * (n) + 2) K1(4 * (n) + 3)
#define K16(n) K4(4 * (n)) K4(4 * (n) + 1) K4(4 * (n) + 2) K4(4 * (n) + 3)
#define K64(n) K16(4 * (n)) K16(4 * (n) + 1) K16(4 * (n) + 2) K16(4 * (n) + 3)
K64(0) K64(1) K64(2) K64(3)

int main()
{
	int count = -7;

	report("cudaGetDeviceCount", cudaGetDeviceCount(&count));
	kernel<255><<<1, 1>>>(nullptr);
	report("launch kernel<255>", cudaGetLastError());
	return 0;
}

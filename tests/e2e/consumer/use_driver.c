/* Uses the driver API through cudastub::cuda_driver. */
#include <cuda.h>
#include <stdio.h>

int main(void)
{
	int version = 0;
	CUresult rc = cuDriverGetVersion(&version);

	printf("cuda %d %d\n", (int)rc, version);
	return 0;
}

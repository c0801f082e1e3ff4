// A shared library with a kernel, dlopen()ed by plugin_host after its
// first runtime call: its registration arrives after the runtime is live.
#include "report.h"

__global__ void plugin_kernel(int *p)
{
	if (p)
		*p = 7;
}

extern "C" cudaError_t plugin_launch(void)
{
	plugin_kernel<<<1, 1>>>(nullptr);
	return cudaGetLastError();
}

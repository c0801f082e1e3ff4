/* A static library that passes CUDA::nvrtc on to what links it. */
#include <nvrtc.h>
#include <stdio.h>

void jit_report(void)
{
	int major = 0, minor = 0;
	nvrtcResult rc = nvrtcVersion(&major, &minor);

	printf("nvrtc %d %d.%d\n", (int)rc, major, minor);
}

/* One first call through the NVRTC stub, for e2e_first_call_backtrace. */
#include <nvrtc.h>
#include <stdio.h>

int main(void)
{
	int major = 0, minor = 0;
	nvrtcResult r = nvrtcVersion(&major, &minor);

	printf("nvrtcVersion: %d (%d.%d)\n", (int)r, major, minor);
	return 0;
}

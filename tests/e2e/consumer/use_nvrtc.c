/* Uses NVRTC through cudastub::nvrtc. */
#include <nvrtc.h>
#include <stdio.h>

int main(void)
{
	int major = 0, minor = 0;
	nvrtcResult rc = nvrtcVersion(&major, &minor);

	printf("nvrtc %d %d.%d\n", (int)rc, major, minor);
	return 0;
}

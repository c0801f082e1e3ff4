// Holds kernels but makes no runtime call unless asked ("call"): through
// the stub it must map no NVIDIA library, checked at the end of main.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void unused(int *p)
{
	if (p)
		*p = 1;
}

static int mapped(const char *name)
{
	char line[4096];
	int found = 0;
	FILE *maps = std::fopen("/proc/self/maps", "r");

	while (maps && std::fgets(line, sizeof line, maps))
		found |= std::strstr(line, name) != nullptr;
	if (maps)
		std::fclose(maps);
	return found;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !std::strcmp(argv[1], "call")) {
		int count = -7;

		std::printf("cudaGetDeviceCount: %d\n", (int)cudaGetDeviceCount(&count));
	}
	std::printf("libcudart.so mapped: %d\n", mapped("/libcudart.so"));
	std::printf("libcuda.so mapped: %d\n", mapped("/libcuda.so"));
	return 0;
}

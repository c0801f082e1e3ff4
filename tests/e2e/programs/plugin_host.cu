// Calls the runtime, then loads a library with kernels (plugin.cu) and
// launches one of them. Its argument is the library's path.
#include <dlfcn.h>

#include "report.h"

__global__ void host_kernel() {}

int main(int argc, char **argv)
{
	int count = -7;
	cudaError_t (*launch)(void);
	void *plugin;

	report("cudaGetDeviceCount", cudaGetDeviceCount(&count));
	plugin = argc > 1 ? dlopen(argv[1], RTLD_NOW) : nullptr;
	std::printf("plugin: %s\n", plugin ? "loaded" : dlerror());
	if (!plugin)
		return 2;
	*(void **)&launch = dlsym(plugin, "plugin_launch");
	report("plugin_launch", launch ? launch() : cudaErrorSymbolNotFound);
	host_kernel<<<1, 1>>>();
	report("launch host_kernel", cudaGetLastError());
	return 0;
}

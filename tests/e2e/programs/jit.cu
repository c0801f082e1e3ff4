// Compiles a kernel with NVRTC, then asks the runtime for devices: a
// program that links both libcudart.so.13 and libnvrtc.so.13, for
// `cudastub patch` (tests/e2e/test_nvcc_programs.c).
#include <cstring>
#include <nvrtc.h>
#include <vector>

#include "report.h"

static const char source[] =
	"extern \"C\" __global__ void scale(float *v, float k) { v[threadIdx.x] *= k; }\n";

static void nvrtc_report(const char *what, nvrtcResult rc)
{
	std::printf("%s: %d %s\n", what, (int)rc, nvrtcGetErrorString(rc));
}

int main()
{
	const char *options[] = {"--gpu-architecture=compute_75"};
	nvrtcProgram program = nullptr;
	size_t size = 0;
	int count = -7;

	nvrtc_report("nvrtcCreateProgram",
		     nvrtcCreateProgram(&program, source, "scale.cu", 0, nullptr, nullptr));
	nvrtc_report("nvrtcCompileProgram", nvrtcCompileProgram(program, 1, options));
	nvrtc_report("nvrtcGetPTXSize", nvrtcGetPTXSize(program, &size));
	std::vector<char> ptx(size + 1);
	nvrtc_report("nvrtcGetPTX", nvrtcGetPTX(program, ptx.data()));
	std::printf("the PTX has the kernel: %d\n",
		    std::strstr(ptx.data(), ".entry scale") != nullptr);
	nvrtc_report("nvrtcDestroyProgram", nvrtcDestroyProgram(&program));
	report("cudaGetDeviceCount", cudaGetDeviceCount(&count));
	return 0;
}

/* NVRTC compiles a kernel to PTX; the driver loads it (cuModuleLoadData)
 * and launches it (cuLaunchKernel). */
#include <nvrtc.h>
#include <stdlib.h>

#include "jit_common.h"

int main(void)
{
	const char *options[] = {"--gpu-architecture=compute_80"};
	nvrtcProgram program = NULL;
	size_t size = 0;
	char *ptx;

	if (!gpu_call("nvrtcCreateProgram",
		      nvrtcCreateProgram(&program, jit_source, "scale.cu", 0, NULL, NULL),
		      NVRTC_SUCCESS) ||
	    !gpu_call("nvrtcCompileProgram", nvrtcCompileProgram(program, 1, options),
		      NVRTC_SUCCESS) ||
	    !gpu_call("nvrtcGetPTXSize", nvrtcGetPTXSize(program, &size), NVRTC_SUCCESS))
		return gpu_exit();
	ptx = malloc(size);
	if (ptx && gpu_call("nvrtcGetPTX", nvrtcGetPTX(program, ptx), NVRTC_SUCCESS))
		jit_launch(ptx);
	free(ptx);
	nvrtcDestroyProgram(&program);
	return gpu_exit();
}

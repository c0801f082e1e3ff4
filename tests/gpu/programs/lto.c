/* Link-time optimisation: NVRTC compiles a kernel to LTO IR (-dlto) for
 * device 0's architecture, nvJitLink links it to a cubin, and the driver
 * loads and launches it. */
#include <nvJitLink.h>
#include <nvrtc.h>
#include <stdlib.h>

#include "jit_common.h"

int main(void)
{
	char arch[16], nvrtc_arch[48], link_arch[48];
	const char *options[] = {nvrtc_arch, "-dlto"};
	const char *link_options[] = {link_arch, "-lto"};
	nvrtcProgram program = NULL;
	nvJitLinkHandle link = NULL;
	size_t size = 0, cubin_size = 0;
	char *ir = NULL, *cubin = NULL;

	jit_architecture(arch, sizeof arch);
	snprintf(nvrtc_arch, sizeof nvrtc_arch, "--gpu-architecture=%s", arch);
	snprintf(link_arch, sizeof link_arch, "-arch=%s", arch);
	if (!gpu_call("nvrtcCreateProgram",
		      nvrtcCreateProgram(&program, jit_source, "scale.cu", 0, NULL, NULL),
		      NVRTC_SUCCESS) ||
	    !gpu_call("nvrtcCompileProgram -dlto", nvrtcCompileProgram(program, 2, options),
		      NVRTC_SUCCESS) ||
	    !gpu_call("nvrtcGetLTOIRSize", nvrtcGetLTOIRSize(program, &size), NVRTC_SUCCESS) ||
	    !(ir = malloc(size)) ||
	    !gpu_call("nvrtcGetLTOIR", nvrtcGetLTOIR(program, ir), NVRTC_SUCCESS))
		goto out;
	if (!gpu_call("nvJitLinkCreate", nvJitLinkCreate(&link, 2, link_options),
		      NVJITLINK_SUCCESS) ||
	    !gpu_call("nvJitLinkAddData",
		      nvJitLinkAddData(link, NVJITLINK_INPUT_LTOIR, ir, size, "scale"),
		      NVJITLINK_SUCCESS) ||
	    !gpu_call("nvJitLinkComplete", nvJitLinkComplete(link), NVJITLINK_SUCCESS) ||
	    !gpu_call("nvJitLinkGetLinkedCubinSize", nvJitLinkGetLinkedCubinSize(link, &cubin_size),
		      NVJITLINK_SUCCESS) ||
	    !(cubin = malloc(cubin_size)) ||
	    !gpu_call("nvJitLinkGetLinkedCubin", nvJitLinkGetLinkedCubin(link, cubin),
		      NVJITLINK_SUCCESS))
		goto out;
	printf("linked for %s\n", arch);
	jit_launch(cubin);
out:
	if (link)
		nvJitLinkDestroy(&link);
	nvrtcDestroyProgram(&program);
	free(ir);
	free(cubin);
	return gpu_exit();
}

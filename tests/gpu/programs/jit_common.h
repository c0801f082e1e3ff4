/*
 * The driver's side of the two JIT programs (driver_jit.c, lto.c): a
 * context on device 0, a module loaded from an image, and a launch of its
 * kernel "scale" (v[i] *= k over 256 floats), checked on the host.
 */
#ifndef CUDASTUB_GPU_JIT_COMMON_H
#define CUDASTUB_GPU_JIT_COMMON_H

#include <cuda.h>
#include <math.h>

#include "gpu_check.h"

/* The kernel both programs compile, by NVRTC. */
static const char jit_source[] = "extern \"C\" __global__ void scale(float *v, float k)\n"
				 "{\n"
				 "\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
				 "\tv[i] *= k;\n"
				 "}\n";

/* Device 0's compute capability as "sm_XY" (sm_80 where there is none, so
 * that the programs print the same on every machine without a GPU). */
static inline void jit_architecture(char *buf, size_t size)
{
	CUdevice device;
	int major = 8, minor = 0;

	if (cuInit(0) == CUDA_SUCCESS && cuDeviceGet(&device, 0) == CUDA_SUCCESS) {
		cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
		cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
	}
	snprintf(buf, size, "sm_%d%d", major, minor);
}

/* Loads image and runs scale on it; its checks printed. */
static inline void jit_launch(const void *image)
{
	enum { N = 256 };
	float host[N];
	float k = 3.0f;
	CUdevice device;
	CUcontext context = NULL;
	CUmodule module = NULL;
	CUfunction scale = NULL;
	CUdeviceptr v = 0;
	void *args[] = {&v, &k};
	int right = 1;

	for (int i = 0; i < N; i++)
		host[i] = (float)i;
	if (!gpu_call("cuInit", cuInit(0), CUDA_SUCCESS) ||
	    !gpu_call("cuDeviceGet", cuDeviceGet(&device, 0), CUDA_SUCCESS) ||
	    !gpu_call("cuDevicePrimaryCtxRetain", cuDevicePrimaryCtxRetain(&context, device),
		      CUDA_SUCCESS) ||
	    !gpu_call("cuCtxSetCurrent", cuCtxSetCurrent(context), CUDA_SUCCESS) ||
	    !gpu_call("cuModuleLoadData", cuModuleLoadData(&module, image), CUDA_SUCCESS) ||
	    !gpu_call("cuModuleGetFunction", cuModuleGetFunction(&scale, module, "scale"),
		      CUDA_SUCCESS) ||
	    !gpu_call("cuMemAlloc", cuMemAlloc(&v, sizeof host), CUDA_SUCCESS))
		return;
	gpu_call("cuMemcpyHtoD", cuMemcpyHtoD(v, host, sizeof host), CUDA_SUCCESS);
	gpu_call("cuLaunchKernel", cuLaunchKernel(scale, 2, 1, 1, N / 2, 1, 1, 0, NULL, args, NULL),
		 CUDA_SUCCESS);
	gpu_call("cuCtxSynchronize", cuCtxSynchronize(), CUDA_SUCCESS);
	gpu_call("cuMemcpyDtoH", cuMemcpyDtoH(host, v, sizeof host), CUDA_SUCCESS);
	for (int i = 0; i < N; i++)
		right = right && fabsf(host[i] - 3.0f * (float)i) < 1e-5f;
	gpu_result("v[i] = 3 i", right);
	cuMemFree(v);
	cuModuleUnload(module);
	cuDevicePrimaryCtxRelease(device);
}

#endif

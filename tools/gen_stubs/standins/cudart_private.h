/*
 * The runtime's private entry points that nvcc-generated host code calls
 * (kernel registration and launch). NVIDIA declares them only in C++
 * headers (crt/host_runtime.h, crt/device_functions.h), so the generator
 * reads their prototypes from here: the same names, parameters and return
 * types, written as C. Entry points the real library exports with no
 * prototype anywhere (__cudaRegisterHostVar, __cudaRegisterUnifiedTable,
 * __cudaGetProcAddress) are forwarded without one; see the generator.
 */
#ifndef CUDASTUB_CUDART_PRIVATE_H
#define CUDASTUB_CUDART_PRIVATE_H

#include <stddef.h>

#include <cuda_runtime_api.h>

void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **fatCubinHandle);
void __cudaUnregisterFatBinary(void **fatCubinHandle);
void __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress,
		       const char *deviceName, int ext, size_t size, int constant, int global);
void __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress, char *deviceAddress,
			      const char *deviceName, int ext, size_t size, int constant,
			      int global);
char __cudaInitModule(void **fatCubinHandle);
void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun,
			    const char *deviceName, int thread_limit, uint3 *tid, uint3 *bid,
			    dim3 *bDim, dim3 *gDim, int *wSize);
#if CUDART_VERSION < 12000
/* texture and surface references were removed in 12 */
void __cudaRegisterTexture(void **fatCubinHandle, const struct textureReference *hostVar,
			   const void **deviceAddress, const char *deviceName, int dim, int norm,
			   int ext);
void __cudaRegisterSurface(void **fatCubinHandle, const struct surfaceReference *hostVar,
			   const void **deviceAddress, const char *deviceName, int dim, int ext);
#endif
unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
				     struct CUstream_st *stream);
cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
				       void *stream);
#if CUDART_VERSION >= 12000
cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *entryFuncAddr);
cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
			       size_t sharedMem, cudaStream_t stream);
cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
				    size_t sharedMem, cudaStream_t stream);
#endif

#endif

/* A runtime library that calls the CUDA runtime, the driver, NVRTC and
 * cuBLAS: one line each, the code and the version it answered. */
#include <cublas_api.h>
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <nvrtc.h>
#include <stdio.h>

void report(void)
{
	int runtime = 0, driver = 0, major = 0, minor = 0, blas = 0;
	cudaError_t rc = cudaRuntimeGetVersion(&runtime);
	CUresult drc = cuDriverGetVersion(&driver);
	nvrtcResult nrc = nvrtcVersion(&major, &minor);
	cublasStatus_t brc = cublasGetProperty(MAJOR_VERSION, &blas);

	printf("cudart %d %d\n", (int)rc, runtime);
	printf("cuda %d %d\n", (int)drc, driver);
	printf("nvrtc %d %d.%d\n", (int)nrc, major, minor);
	printf("cublas %d %d\n", (int)brc, blas);
}

/* A shared library on CUDA::cudart, CUDA::cuda_driver and CUDA::cublas. */
#include <cublas_api.h>
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <stdio.h>

void report(void)
{
	int runtime = 0, driver = 0, blas = 0;
	cudaError_t rc = cudaRuntimeGetVersion(&runtime);
	CUresult drc = cuDriverGetVersion(&driver);
	cublasStatus_t brc = cublasGetProperty(MAJOR_VERSION, &blas);

	printf("cudart %d %d\n", (int)rc, runtime);
	printf("cuda %d %d\n", (int)drc, driver);
	printf("cublas %d %d\n", (int)brc, blas);
}

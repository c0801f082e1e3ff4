/* cuFFT: the forward transform of a unit impulse is all ones. */
#include <cuda_runtime.h>
#include <cufft.h>
#include <math.h>

#include "gpu_check.h"

#define N 256

int main(void)
{
	static cufftComplex x[N];
	cufftComplex *dx = NULL;
	cufftHandle plan = 0;
	int right = 1;

	x[0].x = 1.0f;
	/* the plan first: without a GPU, cuFFT's own answer is compared */
	if (!gpu_call("cufftPlan1d", cufftPlan1d(&plan, N, CUFFT_C2C, 1), CUFFT_SUCCESS) ||
	    !gpu_call("cudaMalloc", cudaMalloc((void **)&dx, sizeof x), cudaSuccess))
		return gpu_exit();
	gpu_call("cudaMemcpy to the GPU", cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice),
		 cudaSuccess);
	gpu_call("cufftExecC2C", cufftExecC2C(plan, dx, dx, CUFFT_FORWARD), CUFFT_SUCCESS);
	gpu_call("cudaMemcpy to the host", cudaMemcpy(x, dx, sizeof x, cudaMemcpyDeviceToHost),
		 cudaSuccess);
	for (int i = 0; i < N; i++)
		right = right && fabsf(x[i].x - 1.0f) < 1e-5f && fabsf(x[i].y) < 1e-5f;
	gpu_result("FFT of an impulse = 1", right);
	gpu_call("cufftDestroy", cufftDestroy(plan), CUFFT_SUCCESS);
	cudaFree(dx);
	return gpu_exit();
}

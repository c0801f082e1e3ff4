/* cuRAND: 4096 uniform numbers from a seeded generator, in (0, 1]; their
 * sum is printed, so the variants compare the very numbers (one library,
 * one seed). */
#include <cuda_runtime.h>
#include <curand.h>

#include "gpu_check.h"

#define N 4096

int main(void)
{
	static float v[N];
	float *dv = NULL;
	curandGenerator_t gen = NULL;
	double sum = 0;
	int right = 1;

	/* the generator first: without a GPU, cuRAND's own answer is compared */
	if (!gpu_call("curandCreateGenerator",
		      curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_XORWOW),
		      CURAND_STATUS_SUCCESS) ||
	    !gpu_call("cudaMalloc", cudaMalloc((void **)&dv, sizeof v), cudaSuccess))
		return gpu_exit();
	gpu_call("curandSetPseudoRandomGeneratorSeed",
		 curandSetPseudoRandomGeneratorSeed(gen, 20261127ull), CURAND_STATUS_SUCCESS);
	gpu_call("curandGenerateUniform", curandGenerateUniform(gen, dv, N), CURAND_STATUS_SUCCESS);
	gpu_call("cudaMemcpy to the host", cudaMemcpy(v, dv, sizeof v, cudaMemcpyDeviceToHost),
		 cudaSuccess);
	for (int i = 0; i < N; i++) {
		right = right && v[i] > 0.0f && v[i] <= 1.0f;
		sum += v[i];
	}
	gpu_result("every number in (0, 1]", right);
	printf("sum: %.4f\n", sum);
	gpu_call("curandDestroyGenerator", curandDestroyGenerator(gen), CURAND_STATUS_SUCCESS);
	cudaFree(dv);
	return gpu_exit();
}

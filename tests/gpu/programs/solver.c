/* cuSOLVER: A x = b by LU (getrf, then getrs) for a 3x3 system whose
 * answer is (1, 2, 3). */
#include <cuda_runtime.h>
#include <cusolverDn.h>
#include <math.h>

#include "gpu_check.h"

int main(void)
{
	/* column-major: rows (4 1 0), (1 3 1), (0 1 2); b = A (1 2 3) */
	static const float a[9] = {4, 1, 0, 1, 3, 1, 0, 1, 2};
	float b[3] = {6, 10, 8}, *da = NULL, *db = NULL, *work = NULL;
	int *ipiv = NULL, *info = NULL, lwork = 0, host_info = -1, right = 1;
	cusolverDnHandle_t handle = NULL;

	/* the handle first: without a GPU, cuSOLVER's own answer is compared */
	if (!gpu_call("cusolverDnCreate", cusolverDnCreate(&handle), CUSOLVER_STATUS_SUCCESS) ||
	    !gpu_call("cudaMalloc", cudaMalloc((void **)&da, sizeof a), cudaSuccess) ||
	    !gpu_call("cudaMalloc", cudaMalloc((void **)&db, sizeof b), cudaSuccess) ||
	    !gpu_call("cudaMalloc", cudaMalloc((void **)&ipiv, 3 * sizeof *ipiv), cudaSuccess) ||
	    !gpu_call("cudaMalloc", cudaMalloc((void **)&info, sizeof *info), cudaSuccess))
		return gpu_exit();
	cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice);
	cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice);
	gpu_call("cusolverDnSgetrf_bufferSize",
		 cusolverDnSgetrf_bufferSize(handle, 3, 3, da, 3, &lwork), CUSOLVER_STATUS_SUCCESS);
	gpu_call("cudaMalloc the workspace",
		 cudaMalloc((void **)&work, (size_t)(lwork ? lwork : 1) * sizeof *work),
		 cudaSuccess);
	gpu_call("cusolverDnSgetrf", cusolverDnSgetrf(handle, 3, 3, da, 3, work, ipiv, info),
		 CUSOLVER_STATUS_SUCCESS);
	gpu_call("cusolverDnSgetrs",
		 cusolverDnSgetrs(handle, CUBLAS_OP_N, 3, 1, da, 3, ipiv, db, 3, info),
		 CUSOLVER_STATUS_SUCCESS);
	cudaMemcpy(&host_info, info, sizeof host_info, cudaMemcpyDeviceToHost);
	gpu_call("cudaMemcpy to the host", cudaMemcpy(b, db, sizeof b, cudaMemcpyDeviceToHost),
		 cudaSuccess);
	printf("info: %d\n", host_info);
	for (int i = 0; i < 3; i++)
		right = right && fabsf(b[i] - (float)(i + 1)) < 1e-4f;
	gpu_result("x = (1, 2, 3)", right && host_info == 0);
	gpu_call("cusolverDnDestroy", cusolverDnDestroy(handle), CUSOLVER_STATUS_SUCCESS);
	return gpu_exit();
}

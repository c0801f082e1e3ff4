/* cuBLAS: SGEMM of a 64x64 matrix by twice the identity, on the GPU,
 * against the host's own product. */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdlib.h>

#include "gpu_check.h"

#define N 64

int main(void)
{
	static float a[N * N], b[N * N], c[N * N];
	const float one = 1.0f, zero = 0.0f;
	float *da = NULL, *db = NULL, *dc = NULL;
	cublasHandle_t handle = NULL;
	int right = 1;

	for (int i = 0; i < N * N; i++) {
		a[i] = (float)(i % 17) - 8.0f;
		b[i] = (i % (N + 1)) == 0 ? 2.0f : 0.0f; /* 2 I, column-major */
	}
	/* the handle first: without a GPU, cuBLAS's own answer is compared */
	if (!gpu_call("cublasCreate", cublasCreate(&handle), CUBLAS_STATUS_SUCCESS) ||
	    !gpu_call("cudaMalloc", cudaMalloc((void **)&da, sizeof a), cudaSuccess) ||
	    !gpu_call("cudaMalloc", cudaMalloc((void **)&db, sizeof b), cudaSuccess) ||
	    !gpu_call("cudaMalloc", cudaMalloc((void **)&dc, sizeof c), cudaSuccess))
		return gpu_exit();
	gpu_call("cublasSetMatrix A", cublasSetMatrix(N, N, sizeof *a, a, N, da, N),
		 CUBLAS_STATUS_SUCCESS);
	gpu_call("cublasSetMatrix B", cublasSetMatrix(N, N, sizeof *b, b, N, db, N),
		 CUBLAS_STATUS_SUCCESS);
	gpu_call("cublasSgemm",
		 cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &one, da, N, db, N, &zero,
			     dc, N),
		 CUBLAS_STATUS_SUCCESS);
	gpu_call("cublasGetMatrix C", cublasGetMatrix(N, N, sizeof *c, dc, N, c, N),
		 CUBLAS_STATUS_SUCCESS);
	for (int i = 0; i < N * N; i++)
		right = right && fabsf(c[i] - 2.0f * a[i]) < 1e-5f;
	gpu_result("C = A * 2I", right);
	gpu_call("cublasDestroy", cublasDestroy(handle), CUBLAS_STATUS_SUCCESS);
	cudaFree(da);
	cudaFree(db);
	cudaFree(dc);
	return gpu_exit();
}

/* cuSPARSE: y = A x for a diagonal CSR matrix (A[i][i] = i + 1) and x of
 * ones, through the generic SpMV API. */
#include <cuda_runtime.h>
#include <cusparse.h>
#include <math.h>

#include "gpu_check.h"

#define N 32

int main(void)
{
	static int rows[N + 1], cols[N];
	static float vals[N], x[N], y[N];
	int *drows = NULL, *dcols = NULL;
	float *dvals = NULL, *dx = NULL, *dy = NULL;
	const float one = 1.0f, zero = 0.0f;
	cusparseHandle_t handle = NULL;
	cusparseSpMatDescr_t a = NULL;
	cusparseDnVecDescr_t vx = NULL, vy = NULL;
	size_t size = 0;
	void *buffer = NULL;
	int right = 1;

	for (int i = 0; i < N; i++) {
		rows[i] = i;
		cols[i] = i;
		vals[i] = (float)(i + 1);
		x[i] = 1.0f;
	}
	rows[N] = N;
	/* the handle first: without a GPU, cuSPARSE's own answer is compared */
	if (!gpu_call("cusparseCreate", cusparseCreate(&handle), CUSPARSE_STATUS_SUCCESS) ||
	    !gpu_call("cudaMalloc", cudaMalloc((void **)&drows, sizeof rows), cudaSuccess) ||
	    !gpu_call("cudaMalloc", cudaMalloc((void **)&dcols, sizeof cols), cudaSuccess) ||
	    !gpu_call("cudaMalloc", cudaMalloc((void **)&dvals, sizeof vals), cudaSuccess) ||
	    !gpu_call("cudaMalloc", cudaMalloc((void **)&dx, sizeof x), cudaSuccess) ||
	    !gpu_call("cudaMalloc", cudaMalloc((void **)&dy, sizeof y), cudaSuccess))
		return gpu_exit();
	cudaMemcpy(drows, rows, sizeof rows, cudaMemcpyHostToDevice);
	cudaMemcpy(dcols, cols, sizeof cols, cudaMemcpyHostToDevice);
	cudaMemcpy(dvals, vals, sizeof vals, cudaMemcpyHostToDevice);
	cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice);
	gpu_call("cusparseCreateCsr",
		 cusparseCreateCsr(&a, N, N, N, drows, dcols, dvals, CUSPARSE_INDEX_32I,
				   CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F),
		 CUSPARSE_STATUS_SUCCESS);
	gpu_call("cusparseCreateDnVec x", cusparseCreateDnVec(&vx, N, dx, CUDA_R_32F),
		 CUSPARSE_STATUS_SUCCESS);
	gpu_call("cusparseCreateDnVec y", cusparseCreateDnVec(&vy, N, dy, CUDA_R_32F),
		 CUSPARSE_STATUS_SUCCESS);
	gpu_call("cusparseSpMV_bufferSize",
		 cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, a, vx,
					 &zero, vy, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &size),
		 CUSPARSE_STATUS_SUCCESS);
	gpu_call("cudaMalloc the buffer", cudaMalloc(&buffer, size ? size : 1), cudaSuccess);
	gpu_call("cusparseSpMV",
		 cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, a, vx, &zero, vy,
			      CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, buffer),
		 CUSPARSE_STATUS_SUCCESS);
	gpu_call("cudaMemcpy to the host", cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost),
		 cudaSuccess);
	for (int i = 0; i < N; i++)
		right = right && fabsf(y[i] - (float)(i + 1)) < 1e-5f;
	gpu_result("y = A x", right);
	cusparseDestroySpMat(a);
	cusparseDestroyDnVec(vx);
	cusparseDestroyDnVec(vy);
	gpu_call("cusparseDestroy", cusparseDestroy(handle), CUSPARSE_STATUS_SUCCESS);
	return gpu_exit();
}

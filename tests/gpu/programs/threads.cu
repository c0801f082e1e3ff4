// Sixteen threads make their first CUDA call at once (released together
// from a barrier): each launches a kernel on a buffer of its own and
// checks it. Through the stub, the first calls share one search and the
// kernels were registered before it, then replayed.
#include <cstdio>
#include <pthread.h>

#include "gpu_check.h"

enum { THREADS = 16, N = 1024 };

__global__ void fill(int *v, int value)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	v[i] = value + i;
}

static pthread_barrier_t start;

struct outcome {
	cudaError_t malloc_rc, launch_rc, copy_rc;
	int right;
};
static outcome outcomes[THREADS];

static void *worker(void *arg)
{
	int t = (int)(long)arg;
	outcome *o = &outcomes[t];
	static int host[THREADS][N];
	int *v = nullptr;

	pthread_barrier_wait(&start);
	o->malloc_rc = cudaMalloc(&v, N * sizeof(int));
	fill<<<N / 256, 256>>>(v, 1000 * t);
	o->launch_rc = cudaGetLastError();
	o->copy_rc = cudaMemcpy(host[t], v, N * sizeof(int), cudaMemcpyDeviceToHost);
	o->right = 1;
	for (int i = 0; i < N; i++)
		o->right = o->right && host[t][i] == 1000 * t + i;
	cudaFree(v);
	return nullptr;
}

int main()
{
	pthread_t threads[THREADS];

	pthread_barrier_init(&start, nullptr, THREADS);
	for (long t = 0; t < THREADS; t++)
		pthread_create(&threads[t], nullptr, worker, (void *)t);
	for (int t = 0; t < THREADS; t++)
		pthread_join(threads[t], nullptr);
	// in thread order, so that every run prints the same
	for (int t = 0; t < THREADS; t++) {
		char what[64];

		std::snprintf(what, sizeof what, "thread %d cudaMalloc", t);
		gpu_call(what, outcomes[t].malloc_rc, cudaSuccess);
		std::snprintf(what, sizeof what, "thread %d launch", t);
		gpu_call(what, outcomes[t].launch_rc, cudaSuccess);
		std::snprintf(what, sizeof what, "thread %d cudaMemcpy", t);
		gpu_call(what, outcomes[t].copy_rc, cudaSuccess);
		std::snprintf(what, sizeof what, "thread %d v[i] = 1000 t + i", t);
		gpu_result(what, outcomes[t].right);
	}
	return gpu_exit();
}

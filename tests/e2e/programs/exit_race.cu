// exit() while another thread makes the first CUDA call: main starts a
// worker whose first call (cudaGetDeviceCount) loads the runtime and
// replays this file's kernel registration, waits for it to start, waits
// argv[1] microseconds more, and exits 42. Built against the stub by
// tests/e2e/test_exit_race.c; SIGALRM after argv[2] seconds marks a hang.
#include <cuda_runtime.h>
#include <pthread.h>
#include <sched.h>
#include <atomic>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

__global__ void scale(float *x, float by) { x[threadIdx.x] *= by; }

static std::atomic<int> started;

static void *first_call(void *)
{
	int count = -1;

	started.store(1);
	cudaGetDeviceCount(&count);
	return NULL;
}

int main(int argc, char **argv)
{
	long delay_us = argc > 1 ? atol(argv[1]) : 0;
	struct timespec delay = {delay_us / 1000000, (delay_us % 1000000) * 1000};
	pthread_t worker;

	alarm(argc > 2 ? (unsigned)atoi(argv[2]) : 20);
	if (pthread_create(&worker, NULL, first_call, NULL) != 0 || pthread_detach(worker) != 0)
		return 3;
	while (!started.load())
		sched_yield();
	nanosleep(&delay, NULL);
	exit(42);
}

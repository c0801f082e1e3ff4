// A CUDA program as nvcc builds one: a kernel, registered with the runtime
// before main by nvcc's generated code (__cudaRegisterFatBinary, ...), and
// launched with <<<>>>. nvcc_program.c links it once to NVIDIA's libcudart
// and once to the stub, and compares what each prints.
#include <cstdio>
#include <cuda_runtime.h>
#include <cudastub/cudastub.h>

__global__ void touch(int *p)
{
	if (p)
		*p = 1;
}

int main()
{
	const cudastub_library_info *info = cudastub_info(CUDASTUB_LIB_CUDART);
	int count = -7;
	cudaError_t rc;

	// the registration before main made the stub load the runtime
	std::printf("stub_linked=%d\n", info != nullptr);
	std::printf("state_at_main=%d\n", info ? (int)info->state : -1);
	rc = cudaGetDeviceCount(&count);
	std::printf("count_rc=%d\ncount=%d\n", (int)rc, count);
	touch<<<1, 1>>>(nullptr);
	std::printf("launch_rc=%d\n", (int)cudaGetLastError());
	std::printf("sync_rc=%d\n", (int)cudaDeviceSynchronize());
	return 0;
}

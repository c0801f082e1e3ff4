/*
 * A library whose constructor calls the runtime stub, as every nvcc-built
 * library's does (there through __cudaRegisterFatBinary): dlopen() runs it
 * while holding glibc's loader lock. first_call_race.c loads it while
 * another thread makes its own first call.
 *
 * It asks for the runtime's version, which makes the stub search (its first
 * call) but needs none of the runtime's own lazy initialisation. A
 * constructor that calls cudaGetDeviceCount deadlocks NVIDIA's libcudart
 * 13.0 by itself, stub or not: the runtime initialises under a
 * pthread_once that calls dlsym, so a constructor (holding the loader
 * lock) waiting on that once blocks the thread inside it (35 of 300 runs
 * with libcudart linked directly, driver 550 on the path).
 */
#include <cuda_runtime_api.h>

int race_plugin_version = -7;
cudaError_t race_plugin_rc = cudaErrorUnknown;

__attribute__((constructor)) static void first_call_from_a_constructor(void)
{
	race_plugin_rc = cudaRuntimeGetVersion(&race_plugin_version);
}

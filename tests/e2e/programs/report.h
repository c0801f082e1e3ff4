// What every program prints of a runtime call: its code, name and string,
// so that a stub that changed any of them shows in a byte-for-byte diff.
#ifndef CUDASTUB_E2E_REPORT_H
#define CUDASTUB_E2E_REPORT_H

#include <cstdio>
#include <cuda_runtime.h>

static inline void report(const char *what, cudaError_t rc)
{
	std::printf("%s: %d %s (%s)\n", what, (int)rc, cudaGetErrorName(rc),
		    cudaGetErrorString(rc));
	std::fflush(stdout);
}

#endif

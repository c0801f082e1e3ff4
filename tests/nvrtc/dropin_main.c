/*
 * A program built against CUDA 12.4's nvrtc.h and linked against NVIDIA's
 * libnvrtc.so.12 (DT_NEEDED libnvrtc.so.12). nvrtc_matrix runs it with the
 * 12-ABI shim first on LD_LIBRARY_PATH: it must then run on whatever NVRTC
 * the machine has. Prints key=value lines.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>

#include "matrix_kernel.h"

int main(void)
{
	struct matrix_nvrtc n;
	int major = -1, minor = -1;
	size_t size = 0, nvvm = 0;
	char *ptx;

	/* the process's own view of nvrtc*: whatever DT_NEEDED resolved to */
	if (matrix_nvrtc_from(RTLD_DEFAULT, &n) != 0)
		return 3;
	printf("version_rc=%d\n", nvrtcVersion(&major, &minor));
	printf("version=%d.%d\n", major, minor);
	ptx = matrix_compile_ptx(&n, &size);
	printf("ptx_size=%zu\n", ptx ? size : 0);
	/* 12.x has nvrtcGetNVVMSize; 13 removed it, and the shim must say so
	 * with its own code rather than crash */
	printf("nvvm_rc=%d\n", nvrtcGetNVVMSize(NULL, &nvvm));
	printf("stub_marker=%d\n", dlsym(RTLD_DEFAULT, "cudastub_nvrtc_info") != NULL);
	free(ptx);
	return 0;
}

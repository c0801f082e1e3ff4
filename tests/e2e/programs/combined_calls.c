/*
 * One call into each of three libraries, and what each stub loaded: the
 * program of tests/e2e/test_combined.c, linked once against the separate
 * stubs, once against libcudastub.so (every stub in one file), and once
 * against the shims, whose SONAMEs a folder then gives to libcudastub.so.
 * Each prints the same lines when the stubs behave the same. Last (with
 * the argument "count"), the number of the process's objects that are one
 * of the three stubs, which tells the forms apart.
 */
#define _GNU_SOURCE
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <link.h>
#include <nvrtc.h>
#include <stdint.h>
#include <stdio.h>

#include "cudastub/cudastub.h"

static void print_info(const char *name, const cudastub_library_info *info)
{
	printf("%s: %s, CUDA %d.%d, %s\n", name, cudastub_state_name(info->state), info->major,
	       info->minor, info->path ? info->path : "(no path)");
}

/* An object that itself defines one of the three stubs' markers (dlsym
 * also searches what it depends on: the address says whose it is). */
static int count_stubs(struct dl_phdr_info *info, size_t size, void *count)
{
	static const char *const markers[] = {"cudastub_cudart_info", "cudastub_nvrtc_info",
					      "cudastub_cuda_info"};
	void *handle = dlopen(info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD);
	Dl_info where;

	(void)size;
	for (size_t i = 0; handle && i < sizeof markers / sizeof *markers; i++) {
		void *marker = dlsym(handle, markers[i]);

		if (marker && dladdr(marker, &where) &&
		    (uintptr_t)where.dli_fbase == (uintptr_t)info->dlpi_addr) {
			++*(int *)count;
			break;
		}
	}
	if (handle)
		dlclose(handle);
	return 0;
}

int main(int argc, char **argv)
{
	int runtime = 0, driver = 0, major = 0, minor = 0, stubs = 0;
	cudaError_t runtime_rc = cudaRuntimeGetVersion(&runtime);
	CUresult driver_rc = cuDriverGetVersion(&driver);
	nvrtcResult nvrtc_rc = nvrtcVersion(&major, &minor);

	printf("cudaGetErrorName(2): %s\n", cudaGetErrorName(cudaErrorMemoryAllocation));
	printf("cudaRuntimeGetVersion: %d, %d\n", (int)runtime_rc, runtime);
	printf("cuDriverGetVersion: %d, %d\n", (int)driver_rc, driver);
	printf("nvrtcVersion: %d, %d.%d\n", (int)nvrtc_rc, major, minor);
	print_info("cudart", cudastub_cudart_info());
	print_info("nvrtc", cudastub_nvrtc_info());
	if (argc > 1 && argv[1][0] == 'c') {
		dl_iterate_phdr(count_stubs, &stubs);
		printf("cudastub objects: %d\n", stubs);
	}
	return 0;
}

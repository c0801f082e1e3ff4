/*
 * One wheel's extension module, for tests/e2e/test_many_wheels.c: linked to
 * a runtime stub shipped in the wheel's lib/ folder (RUNPATH $ORIGIN/lib),
 * it says which stub file its calls go through and what that stub
 * answers. Two wheels' copies are opened in one process as Python imports
 * extensions (dlopen RTLD_NOW | RTLD_LOCAL).
 */
#define _GNU_SOURCE
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <stdio.h>

__attribute__((visibility("default"))) int wheel_probe_report(char *out, size_t size)
{
	Dl_info where = {0};
	int version = -1;
	cudaError_t rc = cudaRuntimeGetVersion(&version);

	/* the address this module's reference resolved to: the stub it bound */
	if (!dladdr((void *)cudaRuntimeGetVersion, &where) || !where.dli_fname)
		where.dli_fname = "?";
	return snprintf(out, size, "stub=%s rc=%d version=%d", where.dli_fname, (int)rc, version);
}

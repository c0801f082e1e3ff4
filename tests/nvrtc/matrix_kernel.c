#define _GNU_SOURCE
#include "matrix_kernel.h"

#include <dlfcn.h>
#include <stdlib.h>

static const char kernel[] =
	"extern \"C\" __global__ void axpy(float a, const float *x, float *y)\n"
	"{\n"
	"  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
	"  y[i] = a * x[i] + y[i];\n"
	"}\n";

int matrix_nvrtc_from(void *handle, struct matrix_nvrtc *n)
{
	*(void **)&n->version = dlsym(handle, "nvrtcVersion");
	*(void **)&n->create = dlsym(handle, "nvrtcCreateProgram");
	*(void **)&n->compile = dlsym(handle, "nvrtcCompileProgram");
	*(void **)&n->ptx_size = dlsym(handle, "nvrtcGetPTXSize");
	*(void **)&n->ptx = dlsym(handle, "nvrtcGetPTX");
	*(void **)&n->destroy = dlsym(handle, "nvrtcDestroyProgram");
	return n->version && n->create && n->compile && n->ptx_size && n->ptx && n->destroy ? 0
											    : -1;
}

char *matrix_compile_ptx(const struct matrix_nvrtc *n, size_t *size)
{
	const char *options[] = {"--gpu-architecture=compute_75"};
	void *prog = NULL;
	char *ptx = NULL;

	if (n->create(&prog, kernel, "axpy.cu", 0, NULL, NULL) != 0)
		return NULL;
	if (n->compile(prog, 1, options) == 0 && n->ptx_size(prog, size) == 0 &&
	    (ptx = malloc(*size + 1)) != NULL && n->ptx(prog, ptx) != 0) {
		free(ptx);
		ptx = NULL;
	}
	if (ptx)
		ptx[*size] = '\0';
	n->destroy(&prog);
	return ptx;
}

/*
 * cudademo._native: report() asks the runtime and NVRTC what a real
 * extension would, and returns their answers as a dict, codes included,
 * so that a test can tell which library (or none) answered.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <cuda_runtime_api.h>
#include <nvrtc.h>
#include <string.h>

#include <cudastub/cudastub.h>

cudaError_t cudademo_launch(void);

static const char source[] = "extern \"C\" __global__ void scale(float *v) { v[0] *= 2; }\n";

/* 1 when NVRTC compiled the kernel to PTX that holds it, else 0. */
static int compile_kernel(nvrtcResult *rc)
{
	const char *options[] = {"--gpu-architecture=compute_75"};
	nvrtcProgram program = NULL;
	size_t size = 0;
	char *ptx;
	int found = 0;

	*rc = nvrtcCreateProgram(&program, source, "scale.cu", 0, NULL, NULL);
	if (*rc != NVRTC_SUCCESS)
		return 0;
	*rc = nvrtcCompileProgram(program, 1, options);
	if (*rc == NVRTC_SUCCESS && nvrtcGetPTXSize(program, &size) == NVRTC_SUCCESS &&
	    (ptx = PyMem_Malloc(size + 1)) != NULL) {
		if (nvrtcGetPTX(program, ptx) == NVRTC_SUCCESS)
			found = strstr(ptx, ".entry scale") != NULL;
		PyMem_Free(ptx);
	}
	nvrtcDestroyProgram(&program);
	return found;
}

static PyObject *report(PyObject *self, PyObject *args)
{
	const cudastub_library_info *cudart;
	int runtime = 0, count = -1, major = 0, minor = 0, ptx;
	char nvrtc_version[32];
	cudaError_t runtime_rc, count_rc, launch_rc;
	nvrtcResult version_rc, compile_rc;

	(void)self;
	(void)args;
	runtime_rc = cudaRuntimeGetVersion(&runtime);
	count_rc = cudaGetDeviceCount(&count);
	launch_rc = cudademo_launch();
	version_rc = nvrtcVersion(&major, &minor);
	ptx = compile_kernel(&compile_rc);
	snprintf(nvrtc_version, sizeof nvrtc_version, "%d.%d", major, minor);
	cudart = cudastub_info(CUDASTUB_LIB_CUDART); /* after the calls: what they loaded */
	return Py_BuildValue("{s:i,s:i,s:i,s:s,s:i,s:i,s:s,s:i,s:i,s:s,s:s}", "runtime_rc",
			     (int)runtime_rc, "runtime_version", runtime, "device_count_rc",
			     (int)count_rc, "device_count_error", cudaGetErrorName(count_rc),
			     "launch_rc", (int)launch_rc, "nvrtc_rc", (int)version_rc,
			     "nvrtc_version", nvrtc_version, "compile_rc", (int)compile_rc,
			     "ptx_has_kernel", ptx, "runtime_source",
			     cudart ? cudastub_source_name(cudart->source) : "not linked",
			     "runtime_path", cudart && cudart->path ? cudart->path : "");
}

static PyMethodDef methods[] = {
	{"report", report, METH_NOARGS, "What the runtime and NVRTC answer, as a dict."},
	{NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "cudademo._native", NULL, -1, methods};

PyMODINIT_FUNC PyInit__native(void)
{
	return PyModule_Create(&module);
}

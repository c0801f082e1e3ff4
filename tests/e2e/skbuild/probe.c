/*
 * An extension module that calls the CUDA runtime through cudastub's stub
 * of one ABI (PROBE_ABI), built once a module (PROBE_NAME): report()
 * returns what the runtime answered, or the stub's documented codes where
 * no runtime is.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

/*
 * The three functions have one declaration in every CUDA major (the error
 * code is an int-sized enum), so the module needs no CUDA header and
 * builds where there is no CUDA, as the stubs do.
 */
extern int cudaRuntimeGetVersion(int *version);
extern int cudaGetDeviceCount(int *count);
extern const char *cudaGetErrorName(int error);

#define PROBE_TEXT(x)	   #x
#define PROBE_STRING(x)	   PROBE_TEXT(x)
#define PROBE_INIT_NAME(x) PyInit_##x
#define PROBE_INIT(x)	   PROBE_INIT_NAME(x)

static PyObject *report(PyObject *self, PyObject *unused)
{
	int version = -1, count = -1, version_rc, count_rc;

	(void)self;
	(void)unused;
	version_rc = cudaRuntimeGetVersion(&version);
	count_rc = cudaGetDeviceCount(&count);
	return Py_BuildValue("{s:i,s:i,s:i,s:i,s:i,s:s}", "abi", PROBE_ABI, "version_rc",
			     version_rc, "version", version, "count_rc", count_rc, "count", count,
			     "count_error", cudaGetErrorName(count_rc));
}

static PyMethodDef methods[] = {
	{"report", report, METH_NOARGS, "What the CUDA runtime answered, through the stub."},
	{NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
	PyModuleDef_HEAD_INIT, PROBE_STRING(PROBE_NAME), NULL, -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PROBE_INIT(PROBE_NAME)(void);

PyMODINIT_FUNC PROBE_INIT(PROBE_NAME)(void)
{
	return PyModule_Create(&module);
}

/*
 * The programs and machines of the real-programs suite. Every program is
 * Debian bookworm's own build (nvcc 11.8), from fixture programs-11.8, and
 * each invocation is one that reaches CUDA on a machine without a GPU.
 */
#include <stddef.h>

#include "real_programs.h"

#define RP_MATH11 (RP_CUDART11 | RP_CUBLAS11 | RP_CUSPARSE11 | RP_CUFFT10 | RP_CURAND10)

/* The machines, by what the loader can find (the hwloc suite's five).
 * "%F/sub" names a folder under a fixture's library folder. */
const struct rp_machine rp_machines[] = {
	{"11.8", {"cuda-11.8", "mathlibs-11.8"}, 1, RP_MATH11, "/libcudart.so.11.0 (11.8, "},
	{"11.8+550",
	 {"cuda-11.8", "mathlibs-11.8", "driver-550/nvidia/current", "nvml-550/nvidia/current"},
	 1,
	 RP_MATH11 | RP_DRIVER | RP_NVML,
	 "/libcudart.so.11.0 (11.8, "},
	{"no CUDA", {0}, 1, 0, 0},
	/* 12.4 and 13.0 ship cuRAND as libcurand.so.10, as 11.8 does */
	{"12.4 only", {"cuda-12.4", "mathlibs-12.4"}, 1, RP_CURAND10, "/libcudart.so.12 (12.4, "},
	{"13.0 only", {0}, 0, RP_CURAND10, "/libcudart.so.13 (13.0, "},
};
const int rp_machine_count = sizeof rp_machines / sizeof rp_machines[0];

/* PyCUDA's driver module: its version, then cuInit (PyCUDA's error class
 * depends on the code: RuntimeError for CUDA_ERROR_NO_DEVICE). */
#define PYCUDA_SCRIPT                                                                              \
	"import pycuda.driver as drv\n"                                                            \
	"print('pycuda built with CUDA', drv.get_version())\n"                                     \
	"try:\n"                                                                                   \
	"    drv.init()\n"                                                                         \
	"    print('devices:', drv.Device.count())\n"                                              \
	"except drv.Error as e:\n"                                                                 \
	"    print(type(e).__name__, e)\n"

const struct rp_program rp_programs[] = {
	{"MAGMA testing_sgemm",
	 "%R/usr/lib/libmagma-test/testing/testing_sgemm",
	 {"testing_sgemm", "-n", "64"},
	 {0},
	 {0},
	 {"%R/usr/lib"},
	 RP_CUDART11 | RP_CUBLAS11 | RP_CUSPARSE11,
	 0,
	 "magma_init",
	 NULL,
	 NULL,
	 "cudart",
	 "cudaGetDeviceCount: sets its output to 0 and returns 35"},
	{"MAGMA testing_dgetrf_gpu",
	 "%R/usr/lib/libmagma-test/testing/testing_dgetrf_gpu",
	 {"testing_dgetrf_gpu", "-n", "64"},
	 {0},
	 {0},
	 {"%R/usr/lib"},
	 RP_CUDART11 | RP_CUBLAS11 | RP_CUSPARSE11,
	 0,
	 "magma_init",
	 NULL,
	 NULL,
	 "cudart",
	 "cudaGetDeviceCount: sets its output to 0 and returns 35"},
	/* StarPU keeps its bus calibration in STARPU_HOME: a fresh one a run */
	{"StarPU starpu_machine_display",
	 "%R/usr/bin/starpu_machine_display",
	 {"starpu_machine_display"},
	 {"STARPU_HOME=%W"},
	 {0},
	 {"%R/usr/lib/x86_64-linux-gnu", "fixture:hwloc-2.9"},
	 RP_CUDART11 | RP_CUBLAS11 | RP_CUSPARSE11 | RP_NVML,
	 1,
	 "No STARPU_CUDA_WORKER worker",
	 NULL,
	 NULL,
	 "cudart",
	 "cudaGetDeviceCount: sets its output to 0 and returns 35"},
	/* StarPU's own example, on the CPU workers StarPU finds beside no GPU;
	 * its cuBLAS codelet is never run */
	{"StarPU axpy example",
	 "%R/usr/lib/x86_64-linux-gnu/starpu/examples/axpy",
	 {"axpy"},
	 {"STARPU_HOME=%W"},
	 {0},
	 {"%R/usr/lib/x86_64-linux-gnu", "fixture:hwloc-2.9"},
	 RP_CUDART11 | RP_CUBLAS11 | RP_CUSPARSE11 | RP_NVML,
	 1,
	 "AFTER y[0] = 7.41",
	 "timing -> ",
	 NULL,
	 "cudart",
	 "cudaGetDeviceCount: sets its output to 0 and returns 35"},
	/* a reconstruction on the GPU; its inputs made first by BART itself */
	{"BART pics -g",
	 "%R/usr/bin/bart",
	 {"bart", "pics", "-g", "-i", "2", "kspace", "sens", "out"},
	 {0},
	 {"%R/usr/bin/bart phantom -x 16 -k kspace", "%R/usr/bin/bart ones 3 16 16 1 sens"},
	 {0},
	 RP_CUDART11 | RP_CUBLAS11 | RP_CUFFT10,
	 0,
	 "CUDA Error on Device",
	 NULL,
	 "CUDA driver version is insufficient for CUDA runtime version",
	 "cudart",
	 "cudaGetDeviceCount: sets its output to 0 and returns 35"},
	{"PyCUDA driver.init",
	 "/usr/bin/python3",
	 {"python3", "-c", PYCUDA_SCRIPT},
	 {"PYTHONPATH=%R/usr/lib/python3/dist-packages", "PYTHONDONTWRITEBYTECODE=1"},
	 {0},
	 {0},
	 RP_DRIVER | RP_CURAND10,
	 1,
	 "cuInit failed",
	 NULL,
	 "no CUDA-capable device is detected",
	 "cuda",
	 "cuInit: returns 100"},
};
const int rp_program_count = sizeof rp_programs / sizeof rp_programs[0];

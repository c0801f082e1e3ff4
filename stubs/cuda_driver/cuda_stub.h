/* What the driver stub's hand-written and generated halves share. */
#ifndef CUDASTUB_CUDA_STUB_H
#define CUDASTUB_CUDA_STUB_H

/*
 * With this defined, cuda.h declares every name the driver exports with its
 * own prototype (the legacy name, each _vN, each _ptds/_ptsz) and maps none
 * to another: what NVIDIA builds its own driver with. The compiler then
 * checks every row of the table against NVIDIA's declaration of that very
 * name (cuda_checks.c), so a legacy name can never be forwarded with a _v2
 * prototype.
 */
#define __CUDA_API_VERSION_INTERNAL 1

#include <cuda.h>
/* The profiler header ships apart from the driver API's (its own toolkit
 * component and pip wheel): without it, the one type its functions name
 * and their prototypes, as cudaProfiler.h declares them, so that the
 * table's check (cuda_checks.c) still has declarations to compare the
 * records with. */
#if __has_include(<cudaProfiler.h>)
#include <cudaProfiler.h>
#else
typedef enum CUoutput_mode_enum { CU_OUT_KEY_VALUE_PAIR = 0x00, CU_OUT_CSV = 0x01 } CUoutput_mode;
CUresult cuProfilerInitialize(const char *configFile, const char *outputFile,
			      CUoutput_mode outputMode);
CUresult cuProfilerStart(void);
CUresult cuProfilerStop(void);
#endif
#include <cudaGL.h>
#include <cudaEGL.h>
#include <vdpau/vdpau.h>
#include <cudaVDPAU.h>

#include "loader.h"
#include "cuda_generated.h"

extern struct cudastub_library cudastub_cuda_library;

#endif

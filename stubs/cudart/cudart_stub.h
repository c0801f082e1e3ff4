/* What the runtime stub's hand-written and generated halves share. */
#ifndef CUDASTUB_CUDART_STUB_H
#define CUDASTUB_CUDART_STUB_H

#include <cuda_runtime_api.h>
/* The profiler header ships apart from the runtime's (its own toolkit
 * component and pip wheel): a prefix that has only the runtime's headers
 * still builds this stub. cudaProfilerStart and cudaProfilerStop name no
 * type of it; where the header is missing they are declared here as it
 * declares them, so that the table's check (cudart_checks.c) still has a
 * declaration to compare the record with. */
#if __has_include(<cuda_profiler_api.h>)
#include <cuda_profiler_api.h>
#else
cudaError_t cudaProfilerStart(void);
cudaError_t cudaProfilerStop(void);
#endif
/* On Arm, cuda_gl_interop.h includes no GL header and requires that one
 * came first (it checks GL_VERSION): the stand-in of interop/. */
#include <GL/gl.h>
#include <cuda_gl_interop.h>
#include <cuda_egl_interop.h>
#include <cuda_vdpau_interop.h>

#include "cudart_private.h"
#include "loader.h"
#include "cudart_generated.h"

extern struct cudastub_library cudastub_cudart_library;

#endif

/* What the driver stub's hand-written and generated halves share. */
#ifndef CUDASTUB_CUDA_STUB_H
#define CUDASTUB_CUDA_STUB_H

/*
 * The driver's declarations for the stub's ABI, from its record
 * (generated/cuda/cu<major>/): every name the driver exports with its own
 * prototype (the legacy name, each _vN, each _ptds/_ptsz), none mapped to
 * another, as cuda.h declares them for NVIDIA's own build of the driver
 * (__CUDA_API_VERSION_INTERNAL), which the record was read with.
 */
#include "cuda_declarations.h"

#include "loader.h"
#include "cuda_generated.h"

extern struct cudastub_library cudastub_cuda_library;

#endif

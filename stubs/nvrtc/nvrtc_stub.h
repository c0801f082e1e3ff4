/* What the NVRTC stub's hand-written and generated halves share. */
#ifndef CUDASTUB_NVRTC_STUB_H
#define CUDASTUB_NVRTC_STUB_H

/* NVRTC's declarations for the stub's ABI, from its record
 * (generated/nvrtc/cu<major>/). */
#include "nvrtc_declarations.h"

#include "loader.h"
#include "nvrtc_generated.h"

extern struct cudastub_library cudastub_nvrtc_library;

#endif

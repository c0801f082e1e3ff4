/* What the NVRTC stub's hand-written and generated halves share. */
#ifndef CUDASTUB_NVRTC_STUB_H
#define CUDASTUB_NVRTC_STUB_H

#include <nvrtc.h>

#include "loader.h"
#include "nvrtc_generated.h"

extern struct cudastub_library cudastub_nvrtc_library;

#endif

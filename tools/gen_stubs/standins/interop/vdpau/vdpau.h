/* Stand-in for <vdpau/vdpau.h>: only the types CUDA's VDPAU interop names. */
#ifndef CUDASTUB_INTEROP_VDPAU_H
#define CUDASTUB_INTEROP_VDPAU_H
#include <stdint.h>
typedef uint32_t VdpDevice;
typedef uint32_t VdpFuncId;
typedef uint32_t VdpVideoSurface;
typedef uint32_t VdpOutputSurface;
typedef int VdpStatus;
typedef VdpStatus VdpGetProcAddress(VdpDevice device, VdpFuncId function_id,
				    void **function_pointer);
#endif

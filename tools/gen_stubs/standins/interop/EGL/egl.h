/* Stand-in for <EGL/egl.h>: only the types CUDA's EGL interop names. */
#ifndef CUDASTUB_INTEROP_EGL_H
#define CUDASTUB_INTEROP_EGL_H
#include <stdint.h>
typedef int32_t EGLint;
#endif

/* Stand-in for <EGL/eglext.h>: the opaque handles CUDA's EGL interop names. */
#ifndef CUDASTUB_INTEROP_EGLEXT_H
#define CUDASTUB_INTEROP_EGLEXT_H
typedef void *EGLImageKHR;
typedef void *EGLStreamKHR;
typedef void *EGLSyncKHR;
#endif

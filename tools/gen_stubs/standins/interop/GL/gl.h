/* Stand-in for <GL/gl.h>: only the types CUDA's GL interop names. */
#ifndef CUDASTUB_INTEROP_GL_H
#define CUDASTUB_INTEROP_GL_H
typedef unsigned int GLenum;
typedef unsigned int GLuint;
/* What a real <GL/gl.h> defines, and cuda_gl_interop.h checks for on Arm. */
#define GL_VERSION 0x1F02
#endif

/* Stand-in for <GL/gl.h>: only the types CUDA's GL interop names. */
#ifndef CUDASTUB_INTEROP_GL_H
#define CUDASTUB_INTEROP_GL_H
typedef unsigned int GLenum;
typedef unsigned int GLuint;
#endif

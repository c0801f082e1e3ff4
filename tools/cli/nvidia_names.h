/*
 * NVIDIA's library names, and auditwheel's hashed ones (nvidia_names.c).
 */
#ifndef CUDASTUB_CLI_NVIDIA_NAMES_H
#define CUDASTUB_CLI_NVIDIA_NAMES_H

#include <stddef.h>

/* Whether a DT_NEEDED entry names one of NVIDIA's libraries (covered by
 * a stub or not). */
int nvidia_library(const char *name);
/* name without the hash auditwheel puts in the names of the libraries it
 * grafts ("libcudart-96c42e41.so.13": "libcudart.so.13", in buf), or name
 * itself. */
const char *nvidia_unhashed(const char *name, char *buf, size_t size);

#endif

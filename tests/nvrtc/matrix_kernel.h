/* One kernel, compiled through whatever libnvrtc the caller resolves. */
#ifndef CUDASTUB_MATRIX_KERNEL_H
#define CUDASTUB_MATRIX_KERNEL_H

#include <stddef.h>

/* The NVRTC entry points a compile needs, from the stub or the library. */
struct matrix_nvrtc {
	int (*version)(int *, int *);
	int (*create)(void **, const char *, const char *, int, const char *const *,
		      const char *const *);
	int (*compile)(void *, int, const char *const *);
	int (*ptx_size)(void *, size_t *);
	int (*ptx)(void *, char *);
	int (*destroy)(void **);
};

/* Fills n from a dlopen handle; returns 0 when every symbol is there. */
int matrix_nvrtc_from(void *handle, struct matrix_nvrtc *n);

/* Compiles the test kernel to PTX (malloc'd, NUL-ended) or returns NULL. */
char *matrix_compile_ptx(const struct matrix_nvrtc *n, size_t *size);

#endif

/*
 * The dynamic loader's functions as the stub calls them (loader_dl.c):
 * found in the process when first needed, not imported. glibc_floor.h
 * renames every call of dlopen, dlsym, dlclose, dlerror, dladdr1 and
 * dlinfo in a stub's C files to these, which take the same arguments and
 * answer the same.
 */
#ifndef CUDASTUB_LOADER_DL_H
#define CUDASTUB_LOADER_DL_H

#include <dlfcn.h>

#define CUDASTUB_DL_HIDDEN __attribute__((visibility("hidden")))

CUDASTUB_DL_HIDDEN void *cudastub_dl_open(const char *file, int mode);
CUDASTUB_DL_HIDDEN void *cudastub_dl_sym(void *handle, const char *name);
CUDASTUB_DL_HIDDEN int cudastub_dl_close(void *handle);
CUDASTUB_DL_HIDDEN char *cudastub_dl_error(void);
CUDASTUB_DL_HIDDEN int cudastub_dl_addr1(const void *address, Dl_info *info, void **extra,
					 int flags);
CUDASTUB_DL_HIDDEN int cudastub_dl_info(void *handle, int request, void *arg);

#endif /* CUDASTUB_LOADER_DL_H */

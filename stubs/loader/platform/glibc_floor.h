/*
 * The oldest glibc a stub runs on: the one manylinux2014 wheels promise
 * (2.17). Force-included first into every C file of a stub (-include, see
 * cmake/CudastubStub.cmake), before any system header.
 *
 * A stub built on a newer glibc would otherwise import the newest version
 * of each symbol it calls: stat and fstat became functions in 2.33
 * (stat@GLIBC_2.33), and dlopen, dlsym and the other dl functions moved
 * into libc in 2.34 (dlopen@GLIBC_2.34). A wheel holding such a stub
 * installs only where glibc is at least that new. So:
 *
 *   - the dl functions are not imported at all: every call of dlopen,
 *     dlsym, dlclose, dlerror, dladdr1 and dlinfo is renamed below to the
 *     loader's own (loader_dl.c), which finds glibc's at run time, in
 *     libc.so.6 or, before 2.34, in libdl.so.2. So a stub names libc.so.6
 *     alone: naming libdl.so.2 and libpthread.so.0 too, where glibc before
 *     2.34 keeps those functions, made every process that loads a stub
 *     map two more files at start-up. pthread_once, libpthread's, is the
 *     loader's own as well (loader_once.c); a call of any of those that
 *     the loader does not provide fails to link;
 *   - each function whose newer version would be imported is bound to its
 *     first version (.symver), which every glibc since keeps as a
 *     compatibility symbol with the same behaviour;
 *   - stat, fstat and lstat are the __xstat family glibc called them
 *     through before 2.33, which glibc still exports;
 *   - tests/e2e/test_glibc_floor.c checks every stub's imports with
 *     objdump -T and readelf, and runs a stub under an older glibc.
 *
 * The versions are the architecture's first: GLIBC_2.2.5 on x86-64,
 * GLIBC_2.17 on aarch64, whose first glibc was 2.17. Elsewhere nothing changes.
 * Sanitizer builds leave it out (cmake/CudastubStub.cmake): their runtimes
 * intercept the newest versions, and need a newer glibc anyway.
 */
#ifndef CUDASTUB_GLIBC_FLOOR_H
#define CUDASTUB_GLIBC_FLOOR_H

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))

#if defined(__x86_64__)
#define CUDASTUB_GLIBC_FIRST	   "GLIBC_2.2.5"
#define CUDASTUB_GLIBC_STAT_LAYOUT 1 /* _STAT_VER_LINUX */
#else
#define CUDASTUB_GLIBC_FIRST	   "GLIBC_2.17"
#define CUDASTUB_GLIBC_STAT_LAYOUT 0 /* _STAT_VER */
#endif

#define CUDASTUB_GLIBC_FLOOR 1

/* The dl functions, found at run time (loader_dl.c); the rest of them,
 * and libpthread's pthread_once, fail to link rather than import a
 * library the stub does not name. */
#define dlopen	     cudastub_dl_open
#define dlsym	     cudastub_dl_sym
#define dlclose	     cudastub_dl_close
#define dlerror	     cudastub_dl_error
#define dladdr1	     cudastub_dl_addr1
#define dlinfo	     cudastub_dl_info
#define dladdr	     cudastub_dladdr_is_not_provided_use_dladdr1
#define dlvsym	     cudastub_dlvsym_is_not_provided
#define dlmopen	     cudastub_dlmopen_is_not_provided
#define pthread_once cudastub_pthread_once_is_not_provided_use_cudastub_once

#define CUDASTUB_GLIBC_BIND(name, version) __asm__(".symver " #name "," #name "@" version)

CUDASTUB_GLIBC_BIND(__xstat, CUDASTUB_GLIBC_FIRST);
CUDASTUB_GLIBC_BIND(__fxstat, CUDASTUB_GLIBC_FIRST);
CUDASTUB_GLIBC_BIND(__lxstat, CUDASTUB_GLIBC_FIRST);
#if defined(__x86_64__)
/* Not for the floor (2.14 is below it) but for the start-up: memcpy's
 * 2.14 version is the only one of its kind a stub needs, and each version
 * need is checked at every start. The first memcpy behaves as memmove,
 * which no copy of a stub depends on either way. */
CUDASTUB_GLIBC_BIND(memcpy, CUDASTUB_GLIBC_FIRST);
#endif

struct stat;
int __xstat(int layout, const char *path, struct stat *buf);
int __fxstat(int layout, int fd, struct stat *buf);
int __lxstat(int layout, const char *path, struct stat *buf);

static inline int cudastub_glibc_stat(const char *path, struct stat *buf)
{
	return __xstat(CUDASTUB_GLIBC_STAT_LAYOUT, path, buf);
}

static inline int cudastub_glibc_fstat(int fd, struct stat *buf)
{
	return __fxstat(CUDASTUB_GLIBC_STAT_LAYOUT, fd, buf);
}

static inline int cudastub_glibc_lstat(const char *path, struct stat *buf)
{
	return __lxstat(CUDASTUB_GLIBC_STAT_LAYOUT, path, buf);
}

/* Calls only: `struct stat` is not followed by a parenthesis, and
 * <sys/stat.h>'s own declarations of these, renamed, redeclare the
 * functions above with the same prototypes. */
#define stat(path, buf)	 cudastub_glibc_stat(path, buf)
#define fstat(fd, buf)	 cudastub_glibc_fstat(fd, buf)
#define lstat(path, buf) cudastub_glibc_lstat(path, buf)

#endif
#endif /* CUDASTUB_GLIBC_FLOOR_H */

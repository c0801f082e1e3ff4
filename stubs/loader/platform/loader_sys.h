/*
 * The system calls of a search, made directly.
 *
 * A stub links libc lazily: the first call of each libc function in the
 * process costs the dynamic loader a symbol lookup (about 750
 * instructions on x86-64). A first call used some 35 of them, half the
 * loader's own work (docs/performance.md). These are single
 * system calls that libc only passes on, so the loader makes them through
 * syscall(), which is bound once. Like libc's, each returns -1 and sets
 * errno on failure. None is a cancellation point: a search is not
 * cancelled half-way through (loader_exit.c).
 *
 * Only x86-64 and aarch64 Linux are built, where the kernel's struct stat
 * is glibc's, and where the *at calls with AT_FDCWD are the plain ones
 * (aarch64 has only those).
 */
#ifndef CUDASTUB_LOADER_SYS_H
#define CUDASTUB_LOADER_SYS_H

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

static inline int cudastub_sys_stat(const char *path, struct stat *st)
{
	return (int)syscall(SYS_newfstatat, AT_FDCWD, path, st, 0);
}

static inline int cudastub_sys_fstat(int fd, struct stat *st)
{
	return (int)syscall(SYS_fstat, fd, st);
}

static inline int cudastub_sys_open(const char *path, int flags)
{
	return (int)syscall(SYS_openat, AT_FDCWD, path, flags, 0);
}

static inline int cudastub_sys_close(int fd)
{
	return (int)syscall(SYS_close, fd);
}

static inline ssize_t cudastub_sys_read(int fd, void *buf, size_t n)
{
	return (ssize_t)syscall(SYS_read, fd, buf, n);
}

static inline ssize_t cudastub_sys_write(int fd, const void *buf, size_t n)
{
	return (ssize_t)syscall(SYS_write, fd, buf, n);
}

static inline ssize_t cudastub_sys_pread(int fd, void *buf, size_t n, off_t at)
{
	return (ssize_t)syscall(SYS_pread64, fd, buf, n, at);
}

/* whether path exists (access(path, F_OK)) */
static inline int cudastub_sys_exists(const char *path)
{
	return syscall(SYS_faccessat, AT_FDCWD, path, F_OK) == 0;
}

static inline ssize_t cudastub_sys_readlink(const char *path, char *buf, size_t size)
{
	return (ssize_t)syscall(SYS_readlinkat, AT_FDCWD, path, buf, size);
}

/* MAP_FAILED on failure, as mmap() */
static inline void *cudastub_sys_mmap(size_t size, int prot, int flags, int fd)
{
	return (void *)syscall(SYS_mmap, NULL, size, prot, flags, fd, (off_t)0);
}

static inline int cudastub_sys_munmap(void *at, size_t size)
{
	return (int)syscall(SYS_munmap, at, size);
}

static inline int cudastub_sys_madvise(void *at, size_t size, int advice)
{
	return (int)syscall(SYS_madvise, at, size, advice);
}

static inline int cudastub_sys_getpid(void)
{
	return (int)syscall(SYS_getpid);
}

#endif /* CUDASTUB_LOADER_SYS_H */

/*
 * The oldest glibc the cudastub command runs on: 2.17, as its stubs
 * (stubs/loader/platform/glibc_floor.h), so that cudastub's own wheel is a
 * manylinux2014 wheel. Force-included first into every C file of the
 * command (tools/cli/CMakeLists.txt), before any system header.
 *
 * Built on a newer glibc the command would import the newest version of
 * each function: the dl functions moved into libc in 2.34
 * (dlopen@GLIBC_2.34), stat and its kin became functions in 2.33,
 * getrandom appeared in 2.25, and the start files call
 * __libc_start_main@GLIBC_2.34. So:
 *   - each dl function is bound to its first version, which every glibc
 *     keeps (libc.so.6 from 2.34, libdl.so.2 before it, which the command
 *     names for that: tools/cli/CMakeLists.txt);
 *   - stat, fstat, lstat and fstatat are the __xstat family (the floor of
 *     the stubs, plus __fxstatat);
 *   - getrandom is the system call;
 *   - the program's entry is its own (start_<arch>.S), calling the first
 *     __libc_start_main.
 * tests/e2e/test_glibc_floor.c checks the command's imports as the
 * stubs'. Sanitizer builds leave it out: their runtimes need a newer glibc.
 */
#ifndef CUDASTUB_CLI_GLIBC_FLOOR_H
#define CUDASTUB_CLI_GLIBC_FLOOR_H

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))

#if defined(__x86_64__)
#define CLI_GLIBC_FIRST "GLIBC_2.2.5"
#define CLI_GLIBC_2_3_3 "GLIBC_2.3.3"
#define CLI_GLIBC_2_4	"GLIBC_2.4"
#define CLI_STAT_LAYOUT 1 /* _STAT_VER_LINUX */
#else
#define CLI_GLIBC_FIRST "GLIBC_2.17"
#define CLI_GLIBC_2_3_3 "GLIBC_2.17"
#define CLI_GLIBC_2_4	"GLIBC_2.17"
#define CLI_STAT_LAYOUT 0 /* _STAT_VER */
#endif

#define CLI_GLIBC_BIND(name, version) __asm__(".symver " #name "," #name "@" version)

CLI_GLIBC_BIND(dlopen, CLI_GLIBC_FIRST);
CLI_GLIBC_BIND(dlsym, CLI_GLIBC_FIRST);
CLI_GLIBC_BIND(dlclose, CLI_GLIBC_FIRST);
CLI_GLIBC_BIND(dlerror, CLI_GLIBC_FIRST);
CLI_GLIBC_BIND(dladdr, CLI_GLIBC_FIRST);
CLI_GLIBC_BIND(dladdr1, CLI_GLIBC_2_3_3);
CLI_GLIBC_BIND(dlinfo, CLI_GLIBC_2_3_3);
CLI_GLIBC_BIND(__xstat, CLI_GLIBC_FIRST);
CLI_GLIBC_BIND(__fxstat, CLI_GLIBC_FIRST);
CLI_GLIBC_BIND(__lxstat, CLI_GLIBC_FIRST);
CLI_GLIBC_BIND(__fxstatat, CLI_GLIBC_2_4);
#if defined(__x86_64__)
/* memcpy@GLIBC_2.14, the first of its kind above 2.2.5: below the floor,
 * but one version need fewer */
CLI_GLIBC_BIND(memcpy, CLI_GLIBC_FIRST);
#endif

struct stat;
int __xstat(int layout, const char *path, struct stat *buf);
int __fxstat(int layout, int fd, struct stat *buf);
int __lxstat(int layout, const char *path, struct stat *buf);
int __fxstatat(int layout, int dirfd, const char *path, struct stat *buf, int flags);
long syscall(long number, ...);

static inline int cli_glibc_stat(const char *path, struct stat *buf)
{
	return __xstat(CLI_STAT_LAYOUT, path, buf);
}

static inline int cli_glibc_fstat(int fd, struct stat *buf)
{
	return __fxstat(CLI_STAT_LAYOUT, fd, buf);
}

static inline int cli_glibc_lstat(const char *path, struct stat *buf)
{
	return __lxstat(CLI_STAT_LAYOUT, path, buf);
}

static inline int cli_glibc_fstatat(int dirfd, const char *path, struct stat *buf, int flags)
{
	return __fxstatat(CLI_STAT_LAYOUT, dirfd, path, buf, flags);
}

/* getrandom(2): 318 on x86-64, 278 on aarch64 */
static inline long cli_glibc_getrandom(void *buf, unsigned long size, unsigned flags)
{
#if defined(__x86_64__)
	return syscall(318, buf, size, flags);
#else
	return syscall(278, buf, size, flags);
#endif
}

/* Calls only: `struct stat` is not followed by a parenthesis, and the
 * system headers' own declarations of these, renamed, redeclare the
 * functions above with the same prototypes. */
#define stat(path, buf)			 cli_glibc_stat(path, buf)
#define fstat(fd, buf)			 cli_glibc_fstat(fd, buf)
#define lstat(path, buf)		 cli_glibc_lstat(path, buf)
#define fstatat(dirfd, path, buf, flags) cli_glibc_fstatat(dirfd, path, buf, flags)
#define getrandom(buf, size, flags)	 cli_glibc_getrandom(buf, size, flags)

#endif
#endif /* CUDASTUB_CLI_GLIBC_FLOOR_H */

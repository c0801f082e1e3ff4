/*
 * Loads a stub (PROBE_STUB) and calls one of its version functions
 * (PROBE_FUNCTION: int f(int *) or int f(int *, int *)), under whatever
 * glibc runs it: tests/e2e/test_glibc_floor.c runs it under bullseye's
 * 2.31 with that glibc's own dynamic loader.
 *
 * Built here, on a newer glibc, it must itself need nothing newer: it has
 * no C start files (crt1 would import __libc_start_main@GLIBC_2.34), so
 * _start calls run() and _exit() directly, and the dl functions are bound
 * to their first version. The dynamic loader has set up libc by then.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__asm__(".symver dlopen,dlopen@GLIBC_2.2.5");
__asm__(".symver dlsym,dlsym@GLIBC_2.2.5");
__asm__(".symver dlerror,dlerror@GLIBC_2.2.5");

static int run(void)
{
	const char *stub = getenv("PROBE_STUB"), *name = getenv("PROBE_FUNCTION");
	int (*version)(int *, int *);
	int first = -1, second = -1, rc;
	void *handle;

	if (!stub || !name) {
		printf("error=PROBE_STUB and PROBE_FUNCTION must be set\n");
		return 2;
	}
	handle = dlopen(stub, RTLD_NOW);
	if (!handle) {
		printf("error=%s\n", dlerror());
		return 3;
	}
	*(void **)&version = dlsym(handle, name);
	if (!version) {
		printf("error=%s\n", dlerror());
		return 4;
	}
	/* a one-argument function ignores the second (SysV calling convention) */
	rc = version(&first, &second);
	printf("rc=%d\nfirst=%d\nsecond=%d\n", rc, first, second);
	fflush(stdout);
	return 0;
}

__attribute__((force_align_arg_pointer, noreturn)) void _start(void);
void _start(void)
{
	_exit(run());
}

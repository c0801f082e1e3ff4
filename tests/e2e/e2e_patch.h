/*
 * What the suites of `cudastub patch` under attack, under races and on
 * wheels share (test_patch_attacks.c, test_patch_races.c,
 * test_patch_wheels.c): trees laid out as another user's, programs that
 * need NVIDIA's runtime, and runs of the command and of patchelf.
 *
 * E2E_PATCH_CLI names another cudastub command to run instead of
 * the build's (the command before these suites existed, say), so that each
 * suite can be shown to fail on the code it guards against.
 */
#ifndef CUDASTUB_E2E_PATCH_H
#define CUDASTUB_E2E_PATCH_H

#include <stddef.h>

#include "test_support.h"

#define E2E_STR_(x) #x
#define E2E_STR(x)  E2E_STR_(x)
/* the runtime SONAME of the stubs' own major: one the stubs patch */
#define E2E_CUDART_NEEDED "libcudart.so." E2E_STR(E2E_ABI_MAJOR)

/* The user who owns the trees root patches, and the group: no account
 * needs to exist for them. */
enum { E2E_OWNER = 4242, E2E_GROUP = 4343, E2E_NOBODY = 65534 };

/* The cudastub command the suites run. */
const char *e2e_patch_cli(void);

/* Runs a shell command (printf-style) with /bin/sh; its exit status, or
 * -1. On a non-zero status the command and its output go to stderr. */
int e2e_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Runs `cudastub patch args...` (NULL-terminated, at most 12) in the
 * folder cwd (NULL: this one); its exit status, its output in out. */
int e2e_patch(struct ts_child *out, const char *cwd, ...);

/* Whether this runs as root, the only user that can patch another's tree;
 * otherwise a skip is recorded. */
int e2e_root(void);

/* A fresh folder for a test, readable by every user (the trees in it
 * belong to E2E_OWNER, and programs in it run as nobody), its real path
 * in buf; buf, or NULL after a failed assertion. */
const char *e2e_workdir(const char *tag, char *buf, size_t size);

/* path: a dynamic program that needs the runtime (a copy of /bin/true
 * with one DT_NEEDED more); 0 or -1. */
int e2e_cuda_program(const char *path);

/* Whether the two files hold the same bytes. */
int e2e_same_bytes(const char *a, const char *b);

/* A number from the environment variable name, else fallback. */
long e2e_env_number(const char *name, long fallback);

#endif

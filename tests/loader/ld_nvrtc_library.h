/*
 * The fake NVRTC 13 described to a loader compiled into the test itself
 * (test_alloc_retry, test_wait_wakeups), as the generated tables describe
 * the real one: its override is LD_NVRTC_PATH, its pin LD_NVRTC_MAJOR.
 */
#ifndef CUDASTUB_LD_NVRTC_LIBRARY_H
#define CUDASTUB_LD_NVRTC_LIBRARY_H

#include "loader.h"

extern const struct cudastub_soname ld_nvrtc_sonames[];
extern const char *const ld_nvrtc_wheel_dirs[];
/* nvrtcVersion's row: present in 13 */
extern const struct cudastub_function ld_nvrtc_row;

/* nvrtcVersion answers: 0, or -1 when it does not. */
int ld_nvrtc_probe_version(void *handle, const char *path, int *major, int *minor);

/* The library, its version asked by probe (ld_nvrtc_probe_version, or a
 * test's own that calls it): an initializer, as each test keeps its own. */
#define LD_NVRTC_LIBRARY(probe)                                                                    \
	{                                                                                          \
		.name = "nvrtc", .env_path = "LD_NVRTC_PATH", .env_major = "LD_NVRTC_MAJOR",       \
		.family = "libnvrtc", .sonames = ld_nvrtc_sonames,                                 \
		.wheel_dirs = ld_nvrtc_wheel_dirs, .probe_version = probe, .codes = {7, 8, 9, 10}, \
		.abi_major = 13, .not_tried = {.name = "nvrtc", .abi_major = 13},                  \
		.first_claimed = ATOMIC_FLAG_INIT,                                                 \
		.first_search = &(struct cudastub_search){.arena_used = 0},                        \
	}

#endif

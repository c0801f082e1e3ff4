/*
 * Where a real driver is, for the suites that need one (tests/cudart,
 * tests/cuda_driver): Debian's libcuda.so.1 (550, CUDA 12.4) from the
 * driver-550 fixture, NVIDIA's link-time stub from the toolkit, and
 * whether this machine has a driver of its own.
 */
#ifndef CUDASTUB_TS_DRIVER_H
#define CUDASTUB_TS_DRIVER_H

#include <stddef.h>

/* The 550 driver fixture's folder (libcuda.so.1); NULL after reporting. */
const char *ts_driver_dir(char *buf, size_t size);
/* NVIDIA's link-time stub libcuda.so of the toolkit; NULL after reporting
 * it missing, or not applicable where none is configured (aarch64). */
const char *ts_link_stub_libcuda(void);

/* 1 when this machine's loader finds a libcuda.so.1 that reports a
 * version: then "no device" codes are not what to expect. */
int ts_machine_has_driver(void);

#endif

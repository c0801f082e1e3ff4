/*
 * The process id, asked for on every call through the fork gate and every
 * kernel registration: without a system call once known (loader_pid.c).
 */
#ifndef CUDASTUB_LOADER_PID_H
#define CUDASTUB_LOADER_PID_H

/* getpid(), read from memory that a fork leaves zeroed in the child. */
__attribute__((visibility("hidden"))) int cudastub_pid(void);

#endif

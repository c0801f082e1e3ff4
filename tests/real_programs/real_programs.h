/*
 * The real-programs suite's data: Debian bookworm's CUDA 11.8 programs
 * (fixture programs-11.8) and the machines they run on.
 */
#ifndef CUDASTUB_REAL_PROGRAMS_H
#define CUDASTUB_REAL_PROGRAMS_H

/* The NVIDIA libraries a program links, and those a machine has, as bits:
 * the program as shipped starts where every bit it needs is there. */
enum {
	RP_CUDART11 = 1 << 0,	/* libcudart.so.11.0 */
	RP_CUBLAS11 = 1 << 1,	/* libcublas.so.11 */
	RP_CUSPARSE11 = 1 << 2, /* libcusparse.so.11 */
	RP_CUFFT10 = 1 << 3,	/* libcufft.so.10 */
	RP_CURAND10 = 1 << 4,	/* libcurand.so.10 */
	RP_DRIVER = 1 << 5,	/* libcuda.so.1 */
	RP_NVML = 1 << 6,	/* libnvidia-ml.so.1 */
};

#define RP_MAX_ARGS 8

/* One invocation of a program of the fixture. In args, env and the
 * program's path, %R is the fixture's root (its copy, for the patched
 * variant) and %W a folder of the run's own, which is its working folder. */
struct rp_program {
	const char *name;
	const char *path; /* "%R/usr/bin/bart", or a system program */
	const char *args[RP_MAX_ARGS];
	const char *env[4];
	/* shell commands run first in the run's folder, as shipped on the
	 * 11.8 machine: the program's input files */
	const char *setup[2];
	/* on the loader's path before the machine's; "fixture:<name>" is
	 * that fixture's library folder */
	const char *libdirs[3];
	unsigned needs;
	/* The machine (index into rp_machines) whose output as shipped every
	 * variant through the stubs must print on a machine where the program
	 * as shipped cannot start: one with no GPU, as the stubs promise. */
	int no_gpu_reference;
	const char *cuda_said; /* a line a run on no GPU prints */
	/* lines that start so differ from run to run (a time): left out */
	const char *unstable;
	/* NVIDIA's error string that the reference prints, or NULL: where no
	 * library is found, the stub's string for the same code says so, and
	 * how many files were tried, instead (the stub's contract) */
	const char *nvidia_string;
	/* Where the stub of library found none ("cudart"), its log's account
	 * of the probe the program asks: the code NVIDIA's library gives on
	 * the reference machine (35: no driver; 100: no device) */
	const char *library;
	const char *no_library_log;
};

struct rp_machine {
	const char *name;
	const char *fixtures[4]; /* library folders of fixtures on the path */
	int hide_toolkit;	 /* /usr/local hidden: no 13.0 toolkit */
	unsigned has;
	const char *runtime_loaded; /* what the runtime stub's log names */
};

extern const struct rp_program rp_programs[];
extern const int rp_program_count;
extern const struct rp_machine rp_machines[];
extern const int rp_machine_count;

#endif

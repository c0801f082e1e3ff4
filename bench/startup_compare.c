/*
 * Start-up time of two programs, measured in one run so that both see the
 * same machine: each is started RUNS times, alternately, with its output
 * thrown away, and the median wall time of each is printed with their
 * ratio. Used by bench/startup_nvcc.sh.
 *
 *   bench_startup_compare RUNS PROGRAM_A PROGRAM_B [ARG]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* One start of program, to its exit; microseconds, or -1. */
static double one_start(char *program, char *arg)
{
	char *argv[] = {program, arg, NULL};
	posix_spawn_file_actions_t quiet;
	double start;
	int status;
	pid_t pid;

	posix_spawn_file_actions_init(&quiet);
	posix_spawn_file_actions_addopen(&quiet, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&quiet, 2, "/dev/null", O_WRONLY, 0);
	start = now_us();
	if (posix_spawn(&pid, program, &quiet, NULL, argv, environ) != 0 ||
	    waitpid(pid, &status, 0) != pid) {
		posix_spawn_file_actions_destroy(&quiet);
		return -1;
	}
	posix_spawn_file_actions_destroy(&quiet);
	return now_us() - start;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int runs = argc > 3 ? atoi(argv[1]) : 0;
	double *a, *b;

	if (runs <= 0) {
		fprintf(stderr, "usage: %s RUNS PROGRAM_A PROGRAM_B [ARG]\n", argv[0]);
		return 2;
	}
	a = calloc((size_t)runs, sizeof *a);
	b = calloc((size_t)runs, sizeof *b);
	if (!a || !b)
		return 1;
	for (int i = 0; i < runs; i++) {
		a[i] = one_start(argv[2], argc > 4 ? argv[4] : NULL);
		b[i] = one_start(argv[3], argc > 4 ? argv[4] : NULL);
		if (a[i] < 0 || b[i] < 0) {
			fprintf(stderr, "could not run the programs\n");
			return 1;
		}
	}
	qsort(a, (size_t)runs, sizeof *a, by_value);
	qsort(b, (size_t)runs, sizeof *b, by_value);
	printf("%-28s median %8.0f us\n", "A", a[runs / 2]);
	printf("%-28s median %8.0f us\n", "B", b[runs / 2]);
	printf("%-28s %8.3f\n", "ratio B/A", b[runs / 2] / a[runs / 2]);
	free(a);
	free(b);
	return 0;
}

/*
 * Start-up time of several programs, measured in one run so that all see
 * the same machine: each is started RUNS times, in turn (A, B, C, A, B,
 * C, ...) so that a drift of the machine touches all alike, with its
 * output thrown away. Each timed start comes right after an untimed start
 * of the same program, so that no program pays for the one before it: a
 * start that follows one of a program mapping NVIDIA's 109 MB libnvrtc is
 * some 150 us slower on a 2-core machine. Prints one line per program, in
 * the order given:
 *
 *   MEDIAN_US FIRST_QUARTILE_US THIRD_QUARTILE_US PROGRAM
 *
 *   bench_startup_compare RUNS PROGRAM...
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
static double one_start(char *program)
{
	char *argv[] = {program, NULL};
	posix_spawn_file_actions_t quiet;
	double start, elapsed = -1;
	int status;
	pid_t pid;

	posix_spawn_file_actions_init(&quiet);
	posix_spawn_file_actions_addopen(&quiet, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&quiet, 2, "/dev/null", O_WRONLY, 0);
	start = now_us();
	if (posix_spawn(&pid, program, &quiet, NULL, argv, environ) == 0 &&
	    waitpid(pid, &status, 0) == pid)
		elapsed = now_us() - start;
	posix_spawn_file_actions_destroy(&quiet);
	return elapsed;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int runs = argc > 2 ? atoi(argv[1]) : 0;
	int programs = argc - 2;
	double *times; /* times[p * runs + i]: program p, start i */

	if (runs <= 0) {
		fprintf(stderr, "usage: %s RUNS PROGRAM...\n", argv[0]);
		return 2;
	}
	times = calloc((size_t)runs * (size_t)programs, sizeof *times);
	if (!times)
		return 1;
	for (int i = 0; i < runs; i++) {
		for (int p = 0; p < programs; p++) {
			if (one_start(argv[2 + p]) >= 0) /* untimed */
				times[p * runs + i] = one_start(argv[2 + p]);
			else
				times[p * runs + i] = -1;
			if (times[p * runs + i] < 0) {
				fprintf(stderr, "%s: could not run %s\n", argv[0], argv[2 + p]);
				free(times);
				return 1;
			}
		}
	}
	for (int p = 0; p < programs; p++) {
		double *own = times + p * runs;

		qsort(own, (size_t)runs, sizeof *own, by_value);
		printf("%.1f %.1f %.1f %s\n", own[runs / 2], own[runs / 4], own[3 * runs / 4],
		       argv[2 + p]);
	}
	free(times);
	return 0;
}

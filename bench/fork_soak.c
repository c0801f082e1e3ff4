/*
 * fork() during a storm of first calls, through the stubs and linked
 * directly to NVIDIA's libraries:
 *   - THREADS threads (default 255), released together, each make the
 *     first call of one of five libraries (thread i calls library i % 5:
 *     the runtime, NVRTC, the driver, nvJitLink, cuRAND), so that every
 *     stub searches and loads while the others do;
 *   - one more thread forks CHILDREN children (default 4) meanwhile, a
 *     few hundred microseconds apart; each child makes the first call of
 *     each of the five libraries, under an alarm, and exits as a program
 *     does (exit(), its handlers and destructors).
 * One run is one process. It prints how its children ended:
 *
 *   children=4 ok=4 unavailable=0 hung=0 crashed=0 failed=0
 *
 * ok: every call answered success; unavailable: a call answered an error
 * (a stub's library-missing code where the fork left the dynamic loader
 * unusable); hung: the alarm ended it (SOAK_ALARM_S, default 20);
 * crashed: another signal; failed: another exit status. The program's own
 * exit status is 0 when it ran (whatever its children did).
 *
 *   bench_fork_soak_<stub|direct> [THREADS [CHILDREN]]
 *
 * SOAK_CALLS=N makes each storm thread call N times, so that the forks
 * land while threads are inside the libraries' own code, linked directly
 * too: what a direct link is exposed to. bench/measure/fork_soak.sh runs
 * it many times, both ways. With
 * SOAK_BACKTRACE=1 a child that hangs or crashes prints its stack before
 * it ends; each child that does not end well is named on the standard
 * error.
 */
#define _GNU_SOURCE
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <curand.h>
#include <execinfo.h>
#include <nvJitLink.h>
#include <nvrtc.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { LIBRARIES = 5, MAX_THREADS = 1024, MAX_CHILDREN = 64 };
enum { CHILD_OK = 0, CHILD_UNAVAILABLE = 2, CHILD_FAILED = 3 };

/* Library i's cheap call: 0 when it answered success, 1 when it answered
 * an error (a stub's library-missing code, where the fork left the loader
 * unusable: its info says why). */
static int first_call(int i)
{
	int a = 0, b = 0;

	switch (i) {
	case 0: return cudaRuntimeGetVersion(&a) != cudaSuccess;
	case 1: return nvrtcVersion(&a, &b) != NVRTC_SUCCESS;
	case 2: return cuDriverGetVersion(&a) != CUDA_SUCCESS;
	case 3: return nvJitLinkVersion((unsigned *)&a, (unsigned *)&b) != NVJITLINK_SUCCESS;
	default: return curandGetVersion(&a) != CURAND_STATUS_SUCCESS;
	}
}

static void print_stack(int sig)
{
	void *frames[64];
	int n = backtrace(frames, 64);
	static const char hung[] = "fork_soak: a child hung here:\n";
	static const char crashed[] = "fork_soak: a child crashed here:\n";

	if (sig == SIGALRM)
		(void)!write(2, hung, sizeof hung - 1);
	else
		(void)!write(2, crashed, sizeof crashed - 1);
	backtrace_symbols_fd(frames, n, 2);
	_exit(128 + sig);
}

/* The child: each library's first call, then exit() as a program does. */
static void child(void)
{
	const char *bound = getenv("SOAK_ALARM_S");
	int errors = 0;

	if (getenv("SOAK_BACKTRACE"))
		signal(SIGALRM, print_stack);
	alarm(bound ? (unsigned)atoi(bound) : 20);
	for (int i = 0; i < LIBRARIES; i++)
		errors += first_call(i);
	exit(errors ? CHILD_UNAVAILABLE : CHILD_OK);
}

static pthread_barrier_t start;
static int children_wanted;
static pid_t children[MAX_CHILDREN];

static int calls_per_thread = 1;

static void *storm_thread(void *arg)
{
	pthread_barrier_wait(&start);
	for (int i = 0; i < calls_per_thread; i++)
		first_call((int)(size_t)arg % LIBRARIES);
	return NULL;
}

static void *fork_thread(void *unused)
{
	(void)unused;
	pthread_barrier_wait(&start);
	for (int i = 0; i < children_wanted; i++) {
		struct timespec apart = {0, 200000L + 100000L * (rand() % 8)};

		nanosleep(&apart, NULL);
		children[i] = fork();
		if (children[i] == 0)
			child();
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 255;
	int ok = 0, unavailable = 0, hung = 0, crashed = 0, failed = 0;
	pthread_t ids[MAX_THREADS], forker;

	children_wanted = argc > 2 ? atoi(argv[2]) : 4;
	if (getenv("SOAK_CALLS") && atoi(getenv("SOAK_CALLS")) > 0)
		calls_per_thread = atoi(getenv("SOAK_CALLS"));
	if (threads < 1 || threads > MAX_THREADS || children_wanted < 1 ||
	    children_wanted > MAX_CHILDREN) {
		fprintf(stderr, "usage: %s [THREADS (1 to %d) [CHILDREN (1 to %d)]]\n", argv[0],
			MAX_THREADS, MAX_CHILDREN);
		return 2;
	}
	if (getenv("SOAK_BACKTRACE")) {
		/* on an alternate stack, from before the first fork: a child
		 * that crashes in a fork handler says where too */
		static char alternate[1 << 16];
		stack_t stack = {.ss_sp = alternate, .ss_size = sizeof alternate};
		struct sigaction crash = {.sa_handler = print_stack,
					  .sa_flags = SA_ONSTACK | SA_RESETHAND | SA_NODEFER};
		void *frame[1];

		backtrace(frame, 1); /* loads libgcc's unwinder before any fork */
		sigaltstack(&stack, NULL);
		for (int k = 0; k < 4; k++)
			sigaction((int[]){SIGSEGV, SIGBUS, SIGABRT, SIGILL}[k], &crash, NULL);
	}
	srand((unsigned)getpid());
	pthread_barrier_init(&start, NULL, (unsigned)threads + 1);
	for (int i = 0; i < threads; i++)
		if (pthread_create(&ids[i], NULL, storm_thread, (void *)(size_t)i) != 0)
			return 1;
	if (pthread_create(&forker, NULL, fork_thread, NULL) != 0)
		return 1;
	pthread_join(forker, NULL);
	for (int i = 0; i < threads; i++)
		pthread_join(ids[i], NULL);
	for (int i = 0; i < children_wanted; i++) {
		int status = 0;

		if (children[i] <= 0 || waitpid(children[i], &status, 0) != children[i]) {
			failed++;
			continue;
		}
		if (WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) > 128)) {
			int sig =
				WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status) - 128;

			hung += sig == SIGALRM;
			crashed += sig != SIGALRM;
			fprintf(stderr, "fork_soak: child %d ended by signal %d (%s)\n", i, sig,
				strsignal(sig));
			continue;
		}
		switch (WEXITSTATUS(status)) {
		case CHILD_OK: ok++; break;
		case CHILD_UNAVAILABLE: unavailable++; break;
		default:
			failed++;
			fprintf(stderr, "fork_soak: child %d exited %d\n", i, WEXITSTATUS(status));
			break;
		}
	}
	printf("children=%d ok=%d unavailable=%d hung=%d crashed=%d failed=%d\n", children_wanted,
	       ok, unavailable, hung, crashed, failed);
	return 0;
}

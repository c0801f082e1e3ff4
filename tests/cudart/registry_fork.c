/*
 * Cancellation and fork() against the runtime stub's registry lock and
 * replay (stubs/cudart/cudart_registry.c, stubs/loader/process/loader_fork.c), on
 * the fake runtime of the stub's own major:
 *   - a thread cancelled inside fork()'s prepare handlers, while the
 *     loader's handler waits for a slow library load, must not leave the
 *     registry's lock held: the load's replay and a later
 *     __cudaUnregisterFatBinary complete;
 *   - a thread cancelled while its first call loads a slow library leaves
 *     nothing held: the next first call, a fork and an unregistration
 *     complete;
 *   - a fork during a replay that outlasts the fork's wait gives a child
 *     that never registers a module or a function twice.
 * Each scenario runs in a child of its own under alarm(): a hang is a
 * failure (SIGALRM), never a pass.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cudart_test.h"
#include "registry.h"

enum { SCENARIO_ALARM_S = 120 };

static void sleep_ms(long ms)
{
	struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};

	nanosleep(&t, NULL);
}

/* Leaves a forked child at once: not exit(), whose handlers (and, under
 * the sanitizers, leak and thread checks) belong to the parent. */
static void leave_child(int status)
{
	fflush(NULL);
	syscall(SYS_exit_group, status);
}

/* Waits (20 s at most) until the fake runtime's code is mapped into this
 * process (an executable mapping in /proc/self/maps; the stub's checks
 * map the file too, but not executable): dlopen is loading it. */
static int wait_until_mapped(void)
{
	const char *path = getenv("CUDASTUB_CUDART_PATH");
	char *real = path ? realpath(path, NULL) : NULL, line[8192];
	int found = 0;

	for (int i = 0; real && i < 2000 && !found; i++) {
		FILE *maps = fopen("/proc/self/maps", "r");

		while (maps && !found && fgets(line, sizeof line, maps))
			found = strstr(line, real) && strstr(line, " r-xp ");
		if (maps)
			fclose(maps);
		if (!found)
			sleep_ms(10);
	}
	free(real);
	return found;
}

static void *wait_for_cancel(void *arg)
{
	for (;;)
		sleep_ms(10);
	return arg;
}

/* glibc's first pthread_cancel in a process loads the unwinder
 * (libgcc_s, through dlopen), which waits for any dlopen in flight: done
 * once here, so that the cancels below do not. */
static void load_the_unwinder(void)
{
	pthread_t t;

	pthread_create(&t, NULL, wait_for_cancel, NULL);
	pthread_cancel(t);
	pthread_join(t, NULL);
}

/* One module with one kernel, as an nvcc-built constructor registers it. */
static void **register_one_module(void)
{
	static const int wrapper = 7;
	static const char host = 0;
	void **m = rg_stub.fat_binary((void *)&wrapper);

	rg_stub.function(m, &host, (char *)"kF1", "kF1", -1, NULL, NULL, NULL, NULL, NULL);
	rg_stub.fat_binary_end(m);
	return m;
}

/* ---- cancelled inside fork() ---- */

static int first_call_rc = -1;
static _Atomic(pthread_t) forker_thread;

/* Registered after the stub's fork handlers, so it runs before them: the
 * forking thread cancels itself there, and the cancel lands at the first
 * cancellation point of the handlers that follow, the loader's wait for a
 * load in flight among them (the thread is blocked inside fork()). */
static void cancel_the_forker(void)
{
	if (pthread_equal(pthread_self(), atomic_load(&forker_thread)))
		pthread_cancel(pthread_self());
}

static void *first_call(void *arg)
{
	int count = -1;

	(void)arg;
	first_call_rc = (int)rg_stub.device_count(&count);
	pthread_testcancel(); /* a cancel held back by the stub lands here */
	return NULL;
}

static sem_t go_fork;

static void *forker(void *arg)
{
	pid_t child;

	(void)arg;
	sem_wait(&go_fork);
	child = fork();
	if (child == 0)
		leave_child(0);
	if (child > 0)
		waitpid(child, NULL, 0); /* a cancellation point */
	return NULL;
}

int rg_scenario_cancel_in_fork(void)
{
	pthread_t loading, forking;
	void *forker_end = NULL;
	void **module;

	alarm(SCENARIO_ALARM_S);
	if (!rg_open_stub())
		return 3;
	module = register_one_module(); /* installs the stub's fork handlers */
	load_the_unwinder();
	pthread_atfork(cancel_the_forker, NULL, NULL);
	/* created first: a thread cannot be created while dlopen runs a
	 * constructor (glibc holds its TLS lock there) */
	sem_init(&go_fork, 0, 0);
	pthread_create(&forking, NULL, forker, NULL);
	atomic_store(&forker_thread, forking);
	pthread_create(&loading, NULL, first_call, NULL);
	if (!wait_until_mapped())
		return 4;
	/* the load's constructor sleeps (FAKE_CUDART_SLOW_MS), so the fork's
	 * prepare handlers find it in flight and wait */
	sem_post(&go_fork);
	pthread_join(forking, &forker_end);
	printf("forker_cancelled=%d\n", forker_end == PTHREAD_CANCELED);
	fflush(stdout);
	pthread_join(loading, NULL);
	printf("count_rc=%d\n", first_call_rc);
	rg_stub.unregister(module);
	printf("unregistered=1\n");
	rg_print_events();
	return 0;
}

/* ---- cancelled inside the first call ---- */

static int replay_begun(void);

/* The first call's replay calls into the fake runtime, whose
 * __cudaRegisterFunction sleeps (FAKE_CUDART_REGISTER_SLOW_MS): a
 * cancellation point while the registry's lock is held. (A cancel sent
 * while a library's constructor runs inside dlopen is lost by glibc 2.36
 * itself, so the load is not where this can be shown.) */
int rg_scenario_cancel_in_first_call(void)
{
	static const int wrapper = 8;
	static const char hosts[4];
	static const char *const names[] = {"kC0", "kC1", "kC2", "kC3"};
	pthread_t loading;
	void *end = NULL;
	void **module;
	int count = -1, status = -1, begun = 0;
	pid_t child;

	alarm(SCENARIO_ALARM_S);
	if (!rg_open_stub())
		return 3;
	module = rg_stub.fat_binary((void *)&wrapper);
	for (int i = 0; i < 4; i++)
		rg_stub.function(module, &hosts[i], (char *)names[i], names[i], -1, NULL, NULL,
				 NULL, NULL, NULL);
	rg_stub.fat_binary_end(module);
	load_the_unwinder();
	pthread_create(&loading, NULL, first_call, NULL);
	for (int i = 0; i < 2000 && !(begun = replay_begun()); i++)
		sleep_ms(10);
	printf("replay_begun=%d\n", begun);
	pthread_cancel(loading);
	pthread_join(loading, &end);
	printf("first_call_cancelled=%d\n", end == PTHREAD_CANCELED);
	printf("first_call_rc=%d\n", first_call_rc);
	fflush(stdout);
	printf("count_rc=%d\n", (int)rg_stub.device_count(&count));
	fflush(stdout);
	child = fork();
	if (child == 0) {
		alarm(30);
		leave_child(rg_stub.device_count(&count) == cudaSuccess &&
					    dlopen("libm.so.6", RTLD_NOW)
				    ? 0
				    : 1);
	}
	if (child > 0 && waitpid(child, &status, 0) == child)
		printf("fork_child=%d\n",
		       WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status));
	rg_stub.unregister(module);
	printf("unregistered=1\n");
	rg_print_events();
	return 0;
}

/* ---- a fork during a slow replay ---- */

enum { MODULES = 4, FUNCTIONS = 6 };
static char kernel_names[MODULES][FUNCTIONS][16];
static const char kernel_hosts[MODULES][FUNCTIONS];

/* The fake's event log, as this process sees it now. */
static int read_events(char (**events)[RG_EVENT_LEN])
{
	const char *path = getenv("CUDASTUB_CUDART_PATH");
	void *fake = path ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : NULL;
	int *count = fake ? dlsym(fake, "fake_cudart_event_count") : NULL;

	*events = fake ? dlsym(fake, "fake_cudart_events") : NULL;
	if (fake)
		dlclose(fake);
	return *events && count ? *count : 0;
}

/* Prints <prefix>_fatbins, _functions, _twice (functions registered more
 * than once), _missing (never) and _bad_handles, from the fake's log. */
static void print_registrations(const char *prefix)
{
	char(*events)[RG_EVENT_LEN];
	int n = read_events(&events), fatbins = 0, functions = 0, twice = 0, missing = 0, bad = 0;

	for (int i = 0; i < n; i++) {
		fatbins += strncmp(events[i], "fatbin ", 7) == 0;
		functions += strncmp(events[i], "function ", 9) == 0;
		bad += strncmp(events[i], "bad-handle", 10) == 0;
	}
	for (int m = 0; m < MODULES; m++) {
		for (int f = 0; f < FUNCTIONS; f++) {
			int seen = 0;

			for (int i = 0; i < n; i++) {
				const char *space = strrchr(events[i], ' ');

				seen += strncmp(events[i], "function ", 9) == 0 && space &&
					strcmp(space + 1, kernel_names[m][f]) == 0;
			}
			twice += seen > 1 ? seen - 1 : 0;
			missing += seen == 0;
		}
	}
	printf("%s_fatbins=%d\n%s_functions=%d\n%s_twice=%d\n%s_missing=%d\n%s_bad_handles=%d\n",
	       prefix, fatbins, prefix, functions, prefix, twice, prefix, missing, prefix, bad);
}

/* Whether the replay has begun: the fake has seen a function. */
static int replay_begun(void)
{
	char(*events)[RG_EVENT_LEN];
	int n = read_events(&events);

	for (int i = 0; i < n; i++)
		if (strncmp(events[i], "function ", 9) == 0)
			return 1;
	return 0;
}

int rg_scenario_fork_during_replay(void)
{
	pthread_t replaying;
	int count = -1, status = -1, begun = 0;
	pid_t child;

	alarm(SCENARIO_ALARM_S);
	if (!rg_open_stub())
		return 3;
	for (int m = 0; m < MODULES; m++) {
		static const int wrappers[MODULES];
		void **h = rg_stub.fat_binary((void *)&wrappers[m]);

		for (int f = 0; f < FUNCTIONS; f++) {
			snprintf(kernel_names[m][f], sizeof kernel_names[m][f], "k%d_%d", m, f);
			rg_stub.function(h, &kernel_hosts[m][f], kernel_names[m][f],
					 kernel_names[m][f], -1, NULL, NULL, NULL, NULL, NULL);
		}
		rg_stub.fat_binary_end(h);
	}
	/* each replayed function takes FAKE_CUDART_REGISTER_SLOW_MS: the
	 * replay outlasts the second a fork waits for the registry */
	pthread_create(&replaying, NULL, first_call, NULL);
	for (int i = 0; i < 2000 && !(begun = replay_begun()); i++)
		sleep_ms(10);
	printf("replay_begun=%d\n", begun);
	fflush(stdout);
	child = fork();
	if (child == 0) {
		alarm(60);
		printf("child_count_rc=%d\n", (int)rg_stub.device_count(&count));
		print_registrations("child");
		leave_child(0);
	}
	if (child > 0 && waitpid(child, &status, 0) == child)
		printf("child_status=%d\n",
		       WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status));
	pthread_join(replaying, NULL);
	printf("parent_count_rc=%d\n", first_call_rc);
	print_registrations("parent");
	return 0;
}

/* ---- the suite ---- */

static int run_on_fake(const char *label, const char *scenario, const char *slow_variable,
		       int slow_ms, struct ts_child *c)
{
	const char *fake = rg_fake_path(CT_ABI_MAJOR);
	struct ts_env env = {0};

	if (!fake)
		return 0;
	ts_env_add(&env, "RG_STUB=%s", ct_stub());
	ts_env_add(&env, "CUDASTUB_CUDART_PATH=%s", fake);
	ts_env_add(&env, "%s=%d", slow_variable, slow_ms);
	return ts_run_scenario(label, scenario, &env, c);
}

static void test_cancel_in_fork(void)
{
	const char *label = "cancelled in fork()'s prepare handlers";
	struct ts_child c;

	if (!run_on_fake(label, "cancel_in_fork", "FAKE_CUDART_SLOW_MS", 2500, &c))
		return;
	TS_EXPECT_INT(label, &c, "forker_cancelled", 1);
	TS_EXPECT_INT(label, &c, "count_rc", cudaSuccess);
	TS_EXPECT_INT(label, &c, "unregistered", 1);
	TS_EXPECT_HAS(label, &c, "events", "unregister m0");
}

static void test_cancel_in_first_call(void)
{
	const char *label = "cancelled in the first call";
	struct ts_child c;

	if (!run_on_fake(label, "cancel_in_first_call", "FAKE_CUDART_REGISTER_SLOW_MS", 500, &c))
		return;
	/* the cancel lands after the call, which completes */
	TS_EXPECT_INT(label, &c, "replay_begun", 1);
	TS_EXPECT_INT(label, &c, "first_call_cancelled", 1);
	TS_EXPECT_INT(label, &c, "first_call_rc", cudaSuccess);
	TS_EXPECT_INT(label, &c, "count_rc", cudaSuccess);
	TS_EXPECT_INT(label, &c, "fork_child", 0);
	TS_EXPECT_INT(label, &c, "unregistered", 1);
	TS_EXPECT_HAS(label, &c, "events", "unregister m0");
}

static void test_fork_during_replay(void)
{
	const char *label = "fork during a replay longer than the fork's wait";
	struct ts_child c;

	if (!run_on_fake(label, "fork_during_replay", "FAKE_CUDART_REGISTER_SLOW_MS", 60, &c))
		return;
	TS_EXPECT_INT(label, &c, "replay_begun", 1);
	TS_EXPECT_INT(label, &c, "child_status", 0);
	TS_EXPECT_INT(label, &c, "child_count_rc", cudaSuccess);
	TS_EXPECT_INT(label, &c, "child_fatbins", MODULES);
	TS_EXPECT_INT(label, &c, "child_functions", MODULES * FUNCTIONS);
	TS_EXPECT_INT(label, &c, "child_twice", 0);
	TS_EXPECT_INT(label, &c, "child_missing", 0);
	TS_EXPECT_INT(label, &c, "child_bad_handles", 0);
	TS_EXPECT_INT(label, &c, "parent_count_rc", cudaSuccess);
	TS_EXPECT_INT(label, &c, "parent_fatbins", MODULES);
	TS_EXPECT_INT(label, &c, "parent_functions", MODULES * FUNCTIONS);
	TS_EXPECT_INT(label, &c, "parent_twice", 0);
}

void rg_register_fork_suite(void)
{
	CU_pSuite s =
		CU_add_suite("cudart: the registry against cancellation and fork", NULL, NULL);

	CU_add_test(s, "a thread cancelled inside fork() leaves no lock: replay, unregister",
		    test_cancel_in_fork);
	CU_add_test(s, "a thread cancelled inside its first call leaves nothing held",
		    test_cancel_in_first_call);
	CU_add_test(s, "a fork during a slow replay registers nothing twice in the child",
		    test_fork_during_replay);
}

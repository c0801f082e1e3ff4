/*
 * The child side of the first-call race suite (race_main.c). This binary
 * links the runtime stub as a program would; each scenario runs in a fresh
 * process, under an alarm (RACE_BOUND_S), so a hang ends as SIGALRM, never
 * as a stuck test.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "race.h"

/* nvcc's registration entry points, as its generated code declares them */
void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **fatCubinHandle);
void __cudaUnregisterFatBinary(void **fatCubinHandle);
void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun,
			    const char *deviceName, int thread_limit, uint3 *tid, uint3 *bid,
			    dim3 *bDim, dim3 *gDim, int *wSize);

enum { STORM_THREADS = 16, STORM_FORKS = 8 };

void race_bound(void)
{
	const char *s = getenv("RACE_BOUND_S");

	alarm(s ? (unsigned)atoi(s) : 20);
}

/* The widened window: every pthread_atfork (glibc's __register_atfork)
 * waits RACE_SLOW_ATFORK_MS first, so forks land while a stub installs its
 * fork guard. Unset, it only passes the call on. The real function is
 * looked up before any thread runs: dlsym takes the loader lock, which
 * would make this interposer, not the stub, the thing that deadlocks.
 * Not under ThreadSanitizer, whose start-up registers its own fork
 * handlers before an instrumented function may run. */
#ifndef RACE_NO_ATFORK_INTERPOSER
static int (*real_register_atfork)(void (*)(void), void (*)(void), void (*)(void), void *);

__attribute__((constructor)) static void find_register_atfork(void)
{
	*(void **)&real_register_atfork = dlsym(RTLD_NEXT, "__register_atfork");
}

int __register_atfork(void (*prepare)(void), void (*parent)(void), void (*child)(void), void *dso);
int __register_atfork(void (*prepare)(void), void (*parent)(void), void (*child)(void), void *dso)
{
	const char *slow = getenv("RACE_SLOW_ATFORK_MS");
	long ms = slow ? atol(slow) : 0;
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	if (!real_register_atfork) /* called before our constructor ran */
		find_register_atfork();
	if (ms > 0)
		nanosleep(&ts, NULL);
	return real_register_atfork ? real_register_atfork(prepare, parent, child, dso) : -1;
}
#endif

/* The other widened window: every walk of the loaded libraries
 * (dl_iterate_phdr, which holds a loader lock that a child does not get
 * back) stops RACE_SLOW_WALK_MS at its first library, so forks land while
 * the stub asks what is loaded. Not under a sanitizer, whose start-up
 * walks them through this definition before it may run (and which skips
 * the fork storms). */
#ifndef RACE_NO_WALK_INTERPOSER
static int (*real_dl_iterate_phdr)(int (*)(struct dl_phdr_info *, size_t, void *), void *);

struct slowed_walk {
	int (*visit)(struct dl_phdr_info *, size_t, void *);
	void *data;
	long ms;
};

static int visit_slowly(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct slowed_walk *walk = arg;
	struct timespec ts = {walk->ms / 1000, (walk->ms % 1000) * 1000000L};

	if (walk->ms > 0)
		nanosleep(&ts, NULL);
	walk->ms = 0;
	return walk->visit(info, size, walk->data);
}

__attribute__((constructor)) static void find_dl_iterate_phdr(void)
{
	*(void **)&real_dl_iterate_phdr = dlsym(RTLD_NEXT, "dl_iterate_phdr");
}

int dl_iterate_phdr(int (*visit)(struct dl_phdr_info *, size_t, void *), void *data)
{
	const char *slow = getenv("RACE_SLOW_WALK_MS");
	struct slowed_walk walk = {visit, data, slow ? atol(slow) : 0};

	if (!real_dl_iterate_phdr) /* called before our constructor ran */
		find_dl_iterate_phdr();
	if (!real_dl_iterate_phdr)
		return 0;
	return walk.ms > 0 ? real_dl_iterate_phdr(visit_slowly, &walk)
			   : real_dl_iterate_phdr(visit, data);
}
#endif

/* ---- a first call while a constructor calls the stub ---- */

static pthread_barrier_t pair;
static cudaError_t first_rc = cudaErrorUnknown;
static void *plugin;

static void *call_runtime(void *arg)
{
	int count = -7;

	(void)arg;
	pthread_barrier_wait(&pair);
	first_rc = cudaGetDeviceCount(&count);
	return NULL;
}

static void *load_plugin(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&pair);
	plugin = dlopen(getenv("RACE_PLUGIN"), RTLD_NOW | RTLD_LOCAL);
	return NULL;
}

int race_scenario_loader_lock(void)
{
	pthread_t a, b;

	race_bound();
	pthread_barrier_init(&pair, NULL, 2);
	pthread_create(&a, NULL, call_runtime, NULL);
	pthread_create(&b, NULL, load_plugin, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("first_rc=%d\n", (int)first_rc);
	printf("plugin=%d\n", plugin != NULL);
	if (!plugin)
		fprintf(stderr, "dlopen: %s\n", dlerror());
	printf("state=%d\n", (int)cudastub_cudart_info()->state);
	return 0;
}

/* ---- fork ---- */

static int wrappers[STORM_THREADS + 4];
static void host_stub(void)
{
}

/* A module with one kernel, as nvcc's constructor registers it. */
static void **register_module(int i)
{
	void **h = __cudaRegisterFatBinary(&wrappers[i]);

	__cudaRegisterFunction(h, (const char *)host_stub, (char *)"k", "k", -1, NULL, NULL, NULL,
			       NULL, NULL);
	__cudaRegisterFatBinaryEnd(h);
	return h;
}

/* The fake's event log, joined, or "" when the fake is not loaded. */
static const char *fake_events(void)
{
	static char line[65536];
	const char *path = cudastub_cudart_info()->path;
	void *fake = path ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : NULL;
	char(*events)[RACE_EVENT_LEN] = fake ? dlsym(fake, "fake_cudart_events") : NULL;
	int *count = fake ? dlsym(fake, "fake_cudart_event_count") : NULL;

	line[0] = '\0';
	for (int i = 0; events && count && i < *count && i < 512; i++)
		snprintf(line + strlen(line), sizeof line - strlen(line), "%s|", events[i]);
	return line;
}

/* How many times part occurs in text. */
static int occurrences(const char *text, const char *part)
{
	int n = 0;

	for (const char *at = strstr(text, part); at; at = strstr(at + 1, part))
		n++;
	return n;
}

/* The registration was replayed before the first API call got through. */
static int replayed_first(void)
{
	const char *events = fake_events(), *fatbin = strstr(events, "fatbin m0|");
	const char *call = strstr(events, "call cudaGetDeviceCount|");

	return fatbin && call && fatbin < call;
}

/* What a child does, whatever the parent was doing: its calls return and
 * agree with each other. Exit status 0 when they did. */
static void child_calls(void)
{
	const cudastub_library_info *info;
	int count = -7;
	cudaError_t rc;
	void **h;

	race_bound();
	info = cudastub_cudart_info();
	rc = cudaGetDeviceCount(&count);
	h = register_module(STORM_THREADS + 1);
	__cudaUnregisterFatBinary(h);
	info = cudastub_cudart_info();
	_exit(rc == cudaSuccess && count == 1 && info->state == CUDASTUB_STATE_LOADED ? 0 : 1);
}

/* Waits for a child; its exit status, or 128 + signal. */
static int wait_child(pid_t pid)
{
	int status = 0;

	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int race_scenario_fork_before(void)
{
	pid_t pid;
	int count = -7;

	race_bound();
	register_module(0);
	pid = fork();
	if (pid == 0) {
		/* loads and replays on its own */
		cudaGetDeviceCount(&count);
		_exit(replayed_first() && count == 1 ? 0 : 1);
	}
	printf("child=%d\n", wait_child(pid));
	printf("parent_loaded_before=%d\n", fake_events()[0] != '\0');
	cudaGetDeviceCount(&count);
	printf("parent_replayed=%d\n", replayed_first());
	return 0;
}

int race_scenario_fork_after(void)
{
	int count = -7;
	pid_t pid;

	race_bound();
	register_module(0);
	cudaGetDeviceCount(&count);
	pid = fork();
	if (pid == 0)
		child_calls();
	printf("child=%d\n", wait_child(pid));
	return 0;
}

static pthread_barrier_t storm;

static void *storm_thread(void *arg)
{
	int i = (int)(size_t)arg, count = -7, version = 0;

	pthread_barrier_wait(&storm);
	register_module(i);
	if (i % 3 == 0)
		cudaGetDeviceCount(&count);
	else if (i % 3 == 1)
		cudaRuntimeGetVersion(&version);
	else
		cudastub_cudart_load();
	return (void *)(size_t)(cudastub_cudart_info()->state == CUDASTUB_STATE_LOADED);
}

int race_scenario_fork_storm(void)
{
	pthread_t threads[STORM_THREADS];
	pid_t children[STORM_FORKS];
	int threads_ok = 0, children_ok = 0;

	race_bound();
	pthread_barrier_init(&storm, NULL, STORM_THREADS + 1);
	for (int i = 0; i < STORM_THREADS; i++)
		pthread_create(&threads[i], NULL, storm_thread, (void *)(size_t)i);
	pthread_barrier_wait(&storm);
	for (int i = 0; i < STORM_FORKS; i++) {
		children[i] = fork();
		if (children[i] == 0)
			child_calls();
	}
	printf("children_exit=");
	for (int i = 0; i < STORM_FORKS; i++) {
		int status = wait_child(children[i]);

		children_ok += status == 0;
		printf("%d%s", status, i + 1 < STORM_FORKS ? "," : "\n");
	}
	for (int i = 0; i < STORM_THREADS; i++) {
		void *ok;

		pthread_join(threads[i], &ok);
		threads_ok += ok != NULL;
	}
	printf("threads_ok=%d\nchildren_ok=%d\n", threads_ok, children_ok);
	/* every module of the 16 threads reached the runtime, once */
	printf("fatbins=%d\n", occurrences(fake_events(), "fatbin m"));
	printf("bad_handles=%d\n", occurrences(fake_events(), "bad-handle"));
	return 0;
}

/* ---- libraries with kernels loaded by several threads at once ---- */

enum { PLUGINS = 8 };
static pthread_barrier_t plugin_storm;
static void *plugins[PLUGINS];

static void *load_one_plugin(void *arg)
{
	int i = (int)(size_t)arg;
	char path[4096];

	snprintf(path, sizeof path, "%s/libplugin%d.so", getenv("RACE_PLUGIN_DIR"), i);
	pthread_barrier_wait(&plugin_storm);
	plugins[i] = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	return NULL;
}

static void *first_call_of_many(void *arg)
{
	int i = (int)(size_t)arg, count = -7;

	pthread_barrier_wait(&plugin_storm);
	if (i % 2)
		cudaGetDeviceCount(&count);
	else
		cudastub_cudart_load();
	return NULL;
}

/* Copies of an nvcc-built library (RACE_PLUGIN_DIR/libplugin<i>.so, each a
 * module of its own) loaded by 8 threads while 8 more make first calls:
 * each module reaches the runtime exactly once, and each library's kernel
 * then launches, which the fake allows only for a registered one. */
int race_scenario_plugin_storm(void)
{
	pthread_t threads[2 * PLUGINS];
	int loaded = 0;

	race_bound();
	pthread_barrier_init(&plugin_storm, NULL, 2 * PLUGINS);
	for (int i = 0; i < PLUGINS; i++) {
		pthread_create(&threads[i], NULL, load_one_plugin, (void *)(size_t)i);
		pthread_create(&threads[PLUGINS + i], NULL, first_call_of_many, (void *)(size_t)i);
	}
	for (int i = 0; i < 2 * PLUGINS; i++)
		pthread_join(threads[i], NULL);
	for (int i = 0; i < PLUGINS; i++) {
		cudaError_t (*launch)(void);

		*(void **)&launch = plugins[i] ? dlsym(plugins[i], "plugin_launch") : NULL;
		loaded += launch != NULL;
		if (launch)
			launch();
	}
	printf("plugins=%d\n", loaded);
	printf("fatbins=%d\n", occurrences(fake_events(), "fatbin m"));
	printf("launched=%d\n", occurrences(fake_events(), "launch _Z13plugin_kernelPi"));
	printf("unregistered_launches=%d\n", occurrences(fake_events(), "launch unregistered"));
	printf("bad_handles=%d\n", occurrences(fake_events(), "bad-handle"));
	return 0;
}

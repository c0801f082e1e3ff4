/*
 * Children of fork() complete their first call, whatever the parent's
 * other threads were doing in the dynamic loader
 * (stubs/loader/process/loader_fork.c, loader_locks.c):
 *   - during a storm: STORM threads make their first call of the NVRTC
 *     stub at once (the fake is slow to load) while another thread forks
 *     children, SOAK_RUNS processes in all; each child makes its own first
 *     call under an alarm. None may wait for ever or crash (a fork's
 *     wait for the stub's loads in flight that ran out while the waiting
 *     first calls polled would leave its child a loader lock held);
 *   - during walks and loads: a thread walks the loaded objects without
 *     end (dl_iterate_phdr, holding glibc's list lock, which a child does
 *     not get back) and another loads and unloads a plugin, while the main
 *     thread forks children. Each child loads the fake or says why it
 *     cannot (the loader left mid-change, or its list left locked); none
 *     waits for ever.
 * Not labelled threads, and native only, as loader_fork_plugins (see
 * tests/loader/CMakeLists.txt).
 */
#define _GNU_SOURCE
#include "loader_test.h"

#include <CUnit/CUnit.h>
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ts_child.h"

enum { STORM = 32, STORM_FORKS = 4, SOAK_RUNS = 15, WALK_CHILDREN = 30, CHILD_ALARM_S = 20 };

/* Under valgrind, where a child takes a second or more to start, one soak
 * run and a tenth of the walks' children: the same paths, checked for
 * memory errors; the plain and sanitizer builds run them all. */
static int soak_runs(void)
{
	return (int)ts_all_or_one_under_valgrind(SOAK_RUNS);
}

static int walk_children(void)
{
	return ts_under_valgrind() ? WALK_CHILDREN / 10 : WALK_CHILDREN;
}

/* A child's exit statuses: loaded, refused with a fork's reason, failed
 * otherwise. 127 is ld.so's own. */
enum { CHILD_LOADED = 0, CHILD_REFUSED = 2, CHILD_FAILED = 3, LD_SO_STOPPED = 127 };

typedef int (*version_fn)(int *, int *);
typedef const cudastub_library_info *(*info_fn)(void);

static version_fn version;
static info_fn info;

/* The child: its first call, then what became of it, as its exit status
 * (not exit(): the parent's handlers and the sanitizers' checks are not
 * ours to run). */
static void first_call_in_child(void)
{
	int major = 0, minor = 0, status = CHILD_FAILED;
	const char *error;

	alarm(CHILD_ALARM_S); /* a child left waiting is a failure */
	if (version(&major, &minor) == 0)
		status = CHILD_LOADED;
	else if ((error = info()->error) &&
		 (strstr(error, "the dynamic loader was left mid-change by a fork") ||
		  strstr(error, "list of objects was left locked by a fork")))
		status = CHILD_REFUSED;
	syscall(SYS_exit_group, status);
}

struct outcomes {
	int loaded, refused, failed, stopped, killed, hung;
};

static void wait_child(pid_t child, struct outcomes *o)
{
	int status = 0;

	if (child < 0 || waitpid(child, &status, 0) != child) {
		o->failed++;
		return;
	}
	if (WIFSIGNALED(status)) {
		o->hung += WTERMSIG(status) == SIGALRM;
		o->killed += WTERMSIG(status) != SIGALRM;
		return;
	}
	switch (WEXITSTATUS(status)) {
	case CHILD_LOADED: o->loaded++; break;
	case CHILD_REFUSED: o->refused++; break;
	case LD_SO_STOPPED: o->stopped++; break;
	default: o->failed++; break;
	}
}

static void print_outcomes(const struct outcomes *o)
{
	printf("loaded=%d\nrefused=%d\nfailed=%d\nld_so_stopped=%d\nkilled=%d\nhung=%d\n",
	       o->loaded, o->refused, o->failed, o->stopped, o->killed, o->hung);
	fflush(stdout);
}

static int open_stub(void)
{
	void *stub = dlopen(getenv("TEST_STUB"), RTLD_NOW | RTLD_LOCAL);

	if (!stub)
		return -1;
	version = (version_fn)dlsym(stub, "nvrtcVersion");
	info = (info_fn)dlsym(stub, "cudastub_nvrtc_info");
	return version && info ? 0 : -1;
}

/* ---- fork during a storm of first calls ---- */

static pthread_barrier_t storm_start;

static void *storm_call(void *unused)
{
	int major, minor;

	(void)unused;
	pthread_barrier_wait(&storm_start);
	version(&major, &minor);
	return NULL;
}

static int fork_during_storm(void)
{
	pthread_t threads[STORM];
	pid_t children[STORM_FORKS];
	struct outcomes o = {0};

	if (open_stub() != 0)
		return 3;
	pthread_barrier_init(&storm_start, NULL, STORM + 1);
	for (int i = 0; i < STORM; i++)
		pthread_create(&threads[i], NULL, storm_call, NULL);
	pthread_barrier_wait(&storm_start);
	for (int i = 0; i < STORM_FORKS; i++) {
		struct timespec apart = {0, 300000L};

		nanosleep(&apart, NULL);
		if ((children[i] = fork()) == 0)
			first_call_in_child();
	}
	for (int i = 0; i < STORM_FORKS; i++)
		wait_child(children[i], &o);
	for (int i = 0; i < STORM; i++)
		pthread_join(threads[i], NULL);
	print_outcomes(&o);
	return 0;
}

/* ---- fork during walks of the loaded objects and loads ---- */

static atomic_int stop;

/* Holds the list lock a little at each object. */
static int slow_visit(struct dl_phdr_info *i, size_t size, void *data)
{
	struct timespec a_little = {0, 20000L};

	(void)i, (void)size, (void)data;
	nanosleep(&a_little, NULL);
	return 0;
}

static void *walk(void *unused)
{
	(void)unused;
	while (!atomic_load(&stop))
		dl_iterate_phdr(slow_visit, NULL);
	return NULL;
}

static void *load_plugins(void *plugin)
{
	while (!atomic_load(&stop)) {
		void *h = dlopen(plugin, RTLD_NOW | RTLD_LOCAL);

		if (h)
			dlclose(h);
	}
	return NULL;
}

static int fork_during_walks(void)
{
	const char *plugin = getenv("FS_PLUGIN");
	pthread_t walker, loader;
	struct outcomes o = {0};

	if (open_stub() != 0 || !plugin)
		return 3;
	pthread_create(&walker, NULL, walk, NULL);
	pthread_create(&loader, NULL, load_plugins, (void *)plugin);
	for (int i = 0; i < walk_children(); i++) {
		pid_t child = fork();

		if (child == 0)
			first_call_in_child();
		wait_child(child, &o);
	}
	atomic_store(&stop, 1);
	pthread_join(walker, NULL);
	pthread_join(loader, NULL);
	print_outcomes(&o);
	return 0;
}

/* ---- the suite ---- */

/* The scenarios' stub (TEST_STUB), pinned to the fake NVRTC 13. */
static void stub_over_fake(struct ts_env *env)
{
	ts_env_add(env, "TEST_STUB=%s", ld_stub());
	ts_env_add(env, "CUDASTUB_NVRTC_PATH=%s", ld_fake("nvrtc-13"));
}

static void expect_none_lost(const char *label, const struct ts_child *c)
{
	TS_EXPECT_INT(label, c, "hung", 0);
	TS_EXPECT_INT(label, c, "killed", 0);
	TS_EXPECT_INT(label, c, "ld_so_stopped", 0);
	TS_EXPECT_INT(label, c, "failed", 0);
}

static void test_fork_during_a_storm(void)
{
	const char *label = "fork during a 32-thread first-call storm";
	struct ts_env env = {0};
	long loaded = 0, refused = 0;

	stub_over_fake(&env);
	ts_env_add(&env, "FAKE_NVRTC_SLOW_MS=5");
	for (int run = 0; run < soak_runs(); run++) {
		struct ts_child c;

		if (!ts_run_scenario(label, "fork_during_storm", &env, &c))
			return;
		expect_none_lost(label, &c);
		loaded += ts_long(&c, "loaded");
		refused += ts_long(&c, "refused");
	}
	printf("\n  %d runs, %d children: %ld loaded, %ld refused\n", soak_runs(),
	       soak_runs() * STORM_FORKS, loaded, refused);
	CU_ASSERT_EQUAL(loaded + refused, soak_runs() * STORM_FORKS);
}

TS_TEST(test_fork_during_a_storm,
	"children forked during a first-call storm make their first call");

static void test_fork_during_walks_and_loads(void)
{
	const char *label = "fork while threads walk the loaded objects and load a plugin";
	struct ts_env env = {0};
	struct ts_child c;

	stub_over_fake(&env);
	ts_env_add(&env, "FS_PLUGIN=%s", ld_fake("nvrtc-12"));
	if (!ts_run_scenario(label, "fork_during_walks", &env, &c))
		return;
	printf("\n  %d children: %ld loaded, %ld refused\n", walk_children(), ts_long(&c, "loaded"),
	       ts_long(&c, "refused"));
	expect_none_lost(label, &c);
	CU_ASSERT_EQUAL(ts_long(&c, "loaded") + ts_long(&c, "refused"), walk_children());
}

TS_TEST(test_fork_during_walks_and_loads,
	"children forked during walks and loads make their first call");

static const struct ts_scenario scenarios[] = {
	{"fork_during_storm", fork_during_storm},
	{"fork_during_walks", fork_during_walks},
	{NULL, NULL},
};

TS_MAIN_SUITE("loader: fork during first calls, walks and loads", NULL, NULL, scenarios)

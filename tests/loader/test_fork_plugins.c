/*
 * fork() while another thread loads and unloads plugins. The parent has
 * the NVRTC stub open but has made no call (so no fork handler of the
 * stub's is installed); a thread loops dlopen/dlclose of a plugin (one of
 * the fake libraries) while the main thread forks children, and each child
 * makes its first call. A child forked while the loader was mid-change
 * (r_state not RT_CONSISTENT) must not dlopen: glibc stops it there
 * ("Inconsistency detected by ld.so ... r_state == RT_CONSISTENT", exit
 * status 127). The stub then returns the not-available code with the
 * reason (stubs/loader/process/loader_fork.c). Every child either loads the fake
 * or says why not; none is stopped by ld.so, killed, or left waiting.
 *
 * FP_CHILDREN sets the number of children (the suite uses 60); FP_DIRECT
 * names a real libnvrtc to open instead of the stub, which a measurement
 * uses as the baseline of a program linked directly (the library is then
 * loaded before the forks, as a direct link has it).
 */
#define _GNU_SOURCE
#include "loader_test.h"

#include <CUnit/CUnit.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ts_child.h"
#include "ts_exit_lock.h"

enum { SUITE_CHILDREN = 60, CHILD_ALARM_S = 20 };

/* A child's exit statuses: loaded, refused with the fork's reason, failed
 * otherwise. 127 is ld.so's own. */
enum { CHILD_LOADED = 0, CHILD_REFUSED = 2, CHILD_FAILED = 3, LD_SO_STOPPED = 127 };

static atomic_int stop_plugins;

static void *load_plugins(void *plugin)
{
	while (!atomic_load(&stop_plugins)) {
		void *h = dlopen(plugin, RTLD_NOW | RTLD_LOCAL);

		if (h)
			dlclose(h);
	}
	return NULL;
}

/* The child: its first call, then what became of it, as its exit status. */
static void first_call_in_child(void *library, int direct)
{
	int (*version)(int *, int *) = (int (*)(int *, int *))dlsym(library, "nvrtcVersion");
	const cudastub_library_info *(*info)(void) =
		direct ? NULL
		       : (const cudastub_library_info *(*)(void))dlsym(library,
								       "cudastub_nvrtc_info");
	int major = 0, minor = 0, status = CHILD_FAILED;

	alarm(CHILD_ALARM_S); /* a child left waiting is a failure */
	if (version && version(&major, &minor) == 0)
		status = CHILD_LOADED;
	else if (info && info()->error &&
		 (strstr(info()->error, "the dynamic loader was left mid-change by a fork") ||
		  strstr(info()->error, "list of objects was left locked by a fork")))
		status = CHILD_REFUSED;
	/* not exit(): the parent's handlers and the sanitizers' exit checks
	 * (which would count the plugin thread, absent here) are not ours */
	syscall(SYS_exit_group, status);
}

static int fork_during_plugins(void)
{
	const char *direct = getenv("FP_DIRECT"), *plugin = getenv("FP_PLUGIN");
	const char *children_text = getenv("FP_CHILDREN");
	int children = children_text ? atoi(children_text) : SUITE_CHILDREN;
	int loaded = 0, refused = 0, failed = 0, stopped = 0, killed = 0, hung = 0;
	void *library = dlopen(direct ? direct : getenv("TEST_STUB"), RTLD_NOW | RTLD_LOCAL);
	pthread_t loader;

	if (!library || !plugin) {
		fprintf(stderr, "cannot open the library or no plugin: %s\n", dlerror());
		return 3;
	}
	pthread_create(&loader, NULL, load_plugins, (void *)plugin);
	for (int i = 0; i < children; i++) {
		int status = 0;
		pid_t child = fork();

		if (child == 0)
			first_call_in_child(library, direct != NULL);
		if (child < 0 || waitpid(child, &status, 0) != child) {
			failed++;
			continue;
		}
		if (WIFSIGNALED(status)) {
			hung += WTERMSIG(status) == SIGALRM;
			killed += WTERMSIG(status) != SIGALRM;
			continue;
		}
		switch (WEXITSTATUS(status)) {
		case CHILD_LOADED: loaded++; break;
		case CHILD_REFUSED: refused++; break;
		case LD_SO_STOPPED: stopped++; break;
		default: failed++; break;
		}
	}
	atomic_store(&stop_plugins, 1);
	pthread_join(loader, NULL);
	printf("children=%d\nloaded=%d\nrefused=%d\nfailed=%d\nld_so_stopped=%d\nkilled=%d\n"
	       "hung=%d\n",
	       children, loaded, refused, failed, stopped, killed, hung);
	return 0;
}

/* The scenarios' stub (TEST_STUB), pinned to the fake NVRTC 13. */
static void stub_over_fake(struct ts_env *env)
{
	ts_env_add(env, "TEST_STUB=%s", ld_stub());
	ts_env_add(env, "CUDASTUB_NVRTC_PATH=%s", ld_fake("nvrtc-13"));
}

/* ---- a fork while another library registers an exit handler ---- */

#if TS_EXIT_LOCK
/* The stub opened, not called; a thread of the program's own registers an
 * exit handler, held open, while the main thread forks; the child makes
 * its first call. A child registers no exit handler of the stub's, so its
 * search cannot wait on that lock: it loads. */
static int fork_during_registration(void)
{
	void *library = dlopen(getenv("TEST_STUB"), RTLD_NOW | RTLD_LOCAL);
	pthread_t registrar;
	int status = 0;
	pid_t child;

	if (!library)
		return 3;
	ts_exit_start_held_registration(&registrar, atexit);
	child = fork();
	if (child == 0)
		first_call_in_child(library, 0);
	if (child < 0 || waitpid(child, &status, 0) != child)
		return 3;
	pthread_join(registrar, NULL);
	printf("child=%s\n", WIFEXITED(status) && WEXITSTATUS(status) == CHILD_LOADED ? "loaded"
			     : WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM     ? "hung"
										      : "failed");
	return 0;
}

static void test_fork_during_registration(void)
{
	const char *label = "fork while the program registers an exit handler";
	struct ts_env env = {0};
	struct ts_child c;

	stub_over_fake(&env);
	if (!ts_run_scenario(label, "fork_during_registration", &env, &c))
		return;
	TS_EXPECT(label, &c, "child", "loaded");
}
#endif

static void test_fork_during_plugin_loads(void)
{
	const char *label = "fork while a thread loads plugins";
	struct ts_env env = {0};
	struct ts_child c;

	stub_over_fake(&env);
	ts_env_add(&env, "FP_PLUGIN=%s", ld_fake("nvrtc-12"));
	if (!ts_run_scenario(label, "fork_during_plugins", &env, &c))
		return;
	printf("\n  %ld children: %ld loaded, %ld refused (loader caught mid-change or locked)\n",
	       ts_long(&c, "children"), ts_long(&c, "loaded"), ts_long(&c, "refused"));
	TS_EXPECT_INT(label, &c, "ld_so_stopped", 0);
	TS_EXPECT_INT(label, &c, "killed", 0);
	TS_EXPECT_INT(label, &c, "failed", 0);
	/* Until the stub read the loader's list lock (loader_locks.c), a few
	 * children waited for ever in their dlopen, adding the library to the
	 * loader's list, for that list's lock, which the parent's dlopen or
	 * dlclose held while r_state read consistent (2 of 2,100 on a quiet
	 * machine, 3 of 60 beside the rest of the suite); such a child now
	 * says why it loads nothing. None waits. */
	TS_EXPECT_INT(label, &c, "hung", 0);
	CU_ASSERT_EQUAL(ts_long(&c, "loaded") + ts_long(&c, "refused"), SUITE_CHILDREN);
}

static void register_suites(void)
{
	CU_pSuite s = CU_add_suite("loader: fork while plugins load", NULL, NULL);

	CU_add_test(s, "children forked during another thread's dlopen/dlclose make a first call",
		    test_fork_during_plugin_loads);
#if TS_EXIT_LOCK
	CU_add_test(s, "a child forked while the program registers an exit handler loads",
		    test_fork_during_registration);
#endif
}

int main(int argc, char **argv)
{
	static const struct ts_scenario scenarios[] = {
		{"fork_during_plugins", fork_during_plugins},
#if TS_EXIT_LOCK
		{"fork_during_registration", fork_during_registration},
#endif
		{NULL, NULL},
	};

	return ts_main(argc, argv, scenarios, register_suites);
}

#define _GNU_SOURCE
#include "test_support.h"

#include <CUnit/Basic.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static char self_path[4096];

const char *ts_self(void)
{
	return self_path;
}

const char *ts_build_dir(void)
{
	return CUDASTUB_TEST_BUILD_DIR;
}

static int removed_by_default(const char *entry)
{
	static const char *const prefixes[] = {
		"CUDASTUB_", "CUDA_HOME=", "CUDA_PATH=", "LD_LIBRARY_PATH=", "LD_PRELOAD="};
	size_t i;

	for (i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
		if (!strncmp(entry, prefixes[i], strlen(prefixes[i])))
			return 1;
	return 0;
}

static int same_name(const char *a, const char *b)
{
	size_t la = strcspn(a, "="), lb = strcspn(b, "=");

	return la == lb && !strncmp(a, b, la);
}

static char **child_environment(const char *const *env)
{
	size_t n = 0, i, j, k = 0;
	char **out;

	while (environ[n])
		n++;
	for (i = 0; env && env[i]; i++)
		;
	out = calloc(n + i + 1, sizeof *out);
	for (j = 0; j < n; j++) {
		int overridden = 0;

		for (i = 0; env && env[i]; i++)
			overridden |= same_name(environ[j], env[i]);
		if (!removed_by_default(environ[j]) && !overridden)
			out[k++] = environ[j];
	}
	for (i = 0; env && env[i]; i++)
		if (strchr(env[i], '='))
			out[k++] = (char *)env[i];
	out[k] = NULL;
	return out;
}

/* Reads both pipes to the end without letting either fill up. */
static void drain(int out_fd, int err_fd, struct ts_child *child)
{
	size_t used[2] = {0, 0};
	char *buf[2] = {child->out, child->err};
	struct pollfd fds[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
	int open_fds = 2;

	while (open_fds > 0 && poll(fds, 2, -1) > 0) {
		for (int i = 0; i < 2; i++) {
			char scratch[4096];
			ssize_t r;

			if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP)))
				continue;
			r = read(fds[i].fd, scratch, sizeof scratch);
			if (r <= 0) {
				close(fds[i].fd);
				fds[i].fd = -1;
				open_fds--;
				continue;
			}
			size_t room = sizeof child->out - 1 - used[i];
			size_t take = (size_t)r < room ? (size_t)r : room;
			memcpy(buf[i] + used[i], scratch, take);
			used[i] += take;
		}
	}
	child->out[used[0]] = '\0';
	child->err[used[1]] = '\0';
}

int ts_run_program(char *const *argv, const char *const *env, struct ts_child *child)
{
	int out[2], err[2], status;
	posix_spawn_file_actions_t actions;
	char **envp = child_environment(env);
	pid_t pid;

	memset(child, 0, sizeof *child);
	if (pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC))
		return -1;
	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_adddup2(&actions, out[1], 1);
	posix_spawn_file_actions_adddup2(&actions, err[1], 2);
	if (posix_spawn(&pid, argv[0], &actions, NULL, argv, envp) != 0) {
		posix_spawn_file_actions_destroy(&actions);
		free(envp);
		return -1;
	}
	posix_spawn_file_actions_destroy(&actions);
	free(envp);
	close(out[1]);
	close(err[1]);
	drain(out[0], err[0], child);
	waitpid(pid, &status, 0);
	child->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	if (child->exit_code != 0 && getenv("CUDASTUB_TEST_VERBOSE"))
		fprintf(stderr, "%s exited %d:\n%s\n%s\n", argv[0], child->exit_code, child->out,
			child->err);
	return 0;
}

int ts_run_child(const char *scenario, const char *const *env, struct ts_child *child)
{
	char *argv[] = {self_path, "--child", (char *)scenario, NULL};

	return ts_run_program(argv, env, child);
}

const char *ts_value(const struct ts_child *child, const char *key)
{
	static char value[4096];
	size_t klen = strlen(key);
	const char *line = child->out;

	while (line && *line) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);

		if (len > klen && !strncmp(line, key, klen) && line[klen] == '=') {
			size_t vlen = len - klen - 1;

			if (vlen >= sizeof value)
				vlen = sizeof value - 1;
			memcpy(value, line + klen + 1, vlen);
			value[vlen] = '\0';
			return value;
		}
		line = end ? end + 1 : NULL;
	}
	return NULL;
}

static int in_ci(void)
{
	const char *ci = getenv("CI");

	return ci && (!strcmp(ci, "true") || !strcmp(ci, "1"));
}

const char *ts_fixture(const char *name)
{
	static char paths[8][4096];
	static int next;
	const char *root = getenv("CUDASTUB_FIXTURES");
	char stamp[4096];
	char *path = paths[next++ % 8];

	if (!root || !*root)
		root = CUDASTUB_TEST_FIXTURES;
	snprintf(path, 4096, "%s/%s", root, name);
	snprintf(stamp, sizeof stamp, "%s/.stamp", path);
	if (access(stamp, F_OK) == 0)
		return path;
	if (in_ci()) {
		fprintf(stderr, "FAIL: fixture %s missing at %s (CI=true)\n", name, path);
		CU_FAIL("real-library fixture missing in CI; tests/fixtures/fetch.sh must run "
			"first");
	} else {
		fprintf(stderr,
			"SKIP: fixture %s missing at %s; run tests/fixtures/fetch.sh to fetch it\n",
			name, path);
	}
	return NULL;
}

const char *ts_fixture_libdir(const char *name, char *buf, size_t size)
{
	const char *root = ts_fixture(name);

	if (!root)
		return NULL;
	snprintf(buf, size, "%s/usr/lib/x86_64-linux-gnu", root);
	return buf;
}

int ts_main(int argc, char **argv, const struct ts_scenario *scenarios,
	    ts_register_fn register_suites)
{
	ssize_t n = readlink("/proc/self/exe", self_path, sizeof self_path - 1);
	unsigned failures;

	if (n > 0)
		self_path[n] = '\0';
	if (argc == 3 && !strcmp(argv[1], "--child")) {
		for (; scenarios && scenarios->name; scenarios++)
			if (!strcmp(scenarios->name, argv[2]))
				return scenarios->run();
		fprintf(stderr, "unknown scenario %s\n", argv[2]);
		return 127;
	}
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	register_suites();
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	failures = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
	CU_cleanup_registry();
	return failures ? 1 : 0;
}

#define _GNU_SOURCE
#include "test_support.h"

#include <CUnit/Basic.h>
#include <elf.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif

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

/* Whether entry ("NAME=value") stays out of a child's environment: one of
 * the variables every child starts without, or one that env sets or removes. */
static int removed(const char *entry, const char *const *env)
{
	static const char *const prefixes[] = {
		"CUDASTUB_", "CUDA_HOME=", "CUDA_PATH=", "LD_LIBRARY_PATH=", "LD_PRELOAD="};
	size_t name_len = strcspn(entry, "=");

	for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
		if (!strncmp(entry, prefixes[i], strlen(prefixes[i])))
			return 1;
	for (size_t i = 0; env && env[i]; i++)
		if (strcspn(env[i], "=") == name_len && !strncmp(entry, env[i], name_len))
			return 1;
	return 0;
}

/* The child's environment (see ts_run_program); NULL when out of memory. */
static char **child_environment(const char *const *env)
{
	size_t n = 0, extra = 0, k = 0;
	char **out;

	while (environ[n])
		n++;
	while (env && env[extra])
		extra++;
	out = calloc(n + extra + 1, sizeof *out);
	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (!removed(environ[i], env))
			out[k++] = environ[i];
	for (size_t i = 0; i < extra; i++)
		if (strchr(env[i], '='))
			out[k++] = (char *)env[i];
	return out;
}

/* Reads both pipes to their end without letting either fill up. */
static void drain(int out_fd, int err_fd, struct ts_child *child)
{
	char *buf[2] = {child->out, child->err};
	size_t used[2] = {0, 0};
	struct pollfd fds[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
	int open_fds = 2;

	while (open_fds > 0 && poll(fds, 2, -1) > 0) {
		for (int i = 0; i < 2; i++) {
			char scratch[4096];
			ssize_t r;
			size_t room, take;

			if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP)))
				continue;
			r = read(fds[i].fd, scratch, sizeof scratch);
			if (r <= 0) {
				close(fds[i].fd);
				fds[i].fd = -1;
				open_fds--;
				continue;
			}
			room = sizeof child->out - 1 - used[i];
			take = (size_t)r < room ? (size_t)r : room;
			memcpy(buf[i] + used[i], scratch, take);
			used[i] += take;
		}
	}
	child->out[used[0]] = '\0';
	child->err[used[1]] = '\0';
}

/* Starts argv with stdin from stdin_path and stdout, stderr into pipes;
 * their read ends go in out_fd and err_fd. Returns 0 if it started. */
static int start(char *const *argv, char **envp, const char *stdin_path, pid_t *pid, int *out_fd,
		 int *err_fd)
{
	posix_spawn_file_actions_t actions;
	int out[2], err[2], rc;

	if (pipe2(out, O_CLOEXEC))
		return -1;
	if (pipe2(err, O_CLOEXEC)) {
		close(out[0]);
		close(out[1]);
		return -1;
	}
	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_addopen(&actions, 0, stdin_path ? stdin_path : "/dev/null",
					 O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&actions, out[1], 1);
	posix_spawn_file_actions_adddup2(&actions, err[1], 2);
	rc = posix_spawn(pid, argv[0], &actions, NULL, argv, envp);
	posix_spawn_file_actions_destroy(&actions);
	close(out[1]);
	close(err[1]);
	if (rc != 0) {
		close(out[0]);
		close(err[0]);
		fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(rc));
		return -1;
	}
	*out_fd = out[0];
	*err_fd = err[0];
	return 0;
}

/* The emulator's words (CUDASTUB_TEST_EMULATOR, from the toolchain's
 * CMAKE_CROSSCOMPILING_EMULATOR, words separated by spaces). */
#ifndef CUDASTUB_TEST_EMULATOR
#define CUDASTUB_TEST_EMULATOR ""
#endif
enum { EMULATOR_WORDS = 8 };

const char *ts_emulator(void)
{
	return CUDASTUB_TEST_EMULATOR;
}

int ts_under_valgrind(void)
{
#if __has_include(<valgrind/valgrind.h>)
	return RUNNING_ON_VALGRIND != 0;
#else
	return 0;
#endif
}

size_t ts_all_or_one_under_valgrind(size_t all)
{
	return ts_under_valgrind() && all > 1 ? 1 : all;
}

#if defined(__aarch64__)
#define OWN_MACHINE EM_AARCH64
#else
#define OWN_MACHINE EM_X86_64
#endif

/* Whether path is an ELF file of this process's machine: what the host
 * runs only through the emulator. */
static int own_machine_elf(const char *path)
{
	Elf64_Ehdr h;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ok;

	if (fd < 0)
		return 0;
	ok = read(fd, &h, sizeof h) == (ssize_t)sizeof h && !memcmp(h.e_ident, ELFMAG, SELFMAG) &&
	     h.e_machine == OWN_MACHINE;
	close(fd);
	return ok;
}

/* argv, or argv after the emulator's words when it must run under it;
 * words holds the copy. */
static char *const *emulated(char *const *argv, char **words, size_t room, char *text,
			     size_t text_size)
{
	size_t n = 0, i;
	char *save, *word;

	if (!CUDASTUB_TEST_EMULATOR[0] || !own_machine_elf(argv[0]))
		return argv;
	snprintf(text, text_size, "%s", CUDASTUB_TEST_EMULATOR);
	for (word = strtok_r(text, " ", &save); word && n < EMULATOR_WORDS;
	     word = strtok_r(NULL, " ", &save))
		words[n++] = word;
	for (i = 0; argv[i] && n + 1 < room; i++)
		words[n++] = argv[i];
	words[n] = NULL;
	return words;
}

int ts_run_program(char *const *argv, const char *const *env, const char *stdin_path,
		   struct ts_child *child)
{
	char **envp = child_environment(env);
	char *words[256], text[1024];
	int out_fd, err_fd, status, rc;
	pid_t pid;

	memset(child, 0, sizeof *child);
	child->exit_code = -1;
	if (!envp)
		return -1;
	rc = start(emulated(argv, words, sizeof words / sizeof *words, text, sizeof text), envp,
		   stdin_path, &pid, &out_fd, &err_fd);
	free(envp);
	if (rc != 0)
		return -1;
	drain(out_fd, err_fd, child);
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	child->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	if (child->exit_code != 0 && getenv("CUDASTUB_TEST_VERBOSE"))
		fprintf(stderr, "%s exited %d:\n%s\n%s\n", argv[0], child->exit_code, child->out,
			child->err);
	return 0;
}

int ts_run_program_ok(char *const *argv, const char *what, struct ts_child *out)
{
	if (ts_run_program(argv, NULL, NULL, out) != 0) {
		fprintf(stderr, "%s could not be run\n", what);
		return 0;
	}
	if (out->exit_code != 0)
		fprintf(stderr, "%s exited %d:\n%s\n", what, out->exit_code, out->err);
	return out->exit_code == 0;
}

int ts_run_child(const char *scenario, const char *const *env, struct ts_child *child)
{
	char *argv[] = {self_path, "--child", (char *)scenario, NULL};

	return ts_run_program(argv, env, NULL, child);
}

const char *ts_value(const struct ts_child *child, const char *key)
{
	/* A ring, so two values read one after the other are two strings: a
	 * single buffer made every comparison of two values compare a buffer
	 * with itself, and pass. */
	static char values[8][4096];
	static unsigned next;
	char *value = values[next++ % 8];
	size_t klen = strlen(key);
	const char *line = child->out;

	while (line && *line) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);

		if (len > klen && !strncmp(line, key, klen) && line[klen] == '=') {
			size_t vlen = len - klen - 1;

			if (vlen >= sizeof values[0])
				vlen = sizeof values[0] - 1;
			memcpy(value, line + klen + 1, vlen);
			value[vlen] = '\0';
			return value;
		}
		line = end ? end + 1 : NULL;
	}
	return NULL;
}

long ts_number(const struct ts_child *child, const char *key)
{
	const char *value = ts_value(child, key);

	return value ? strtol(value, NULL, 10) : TS_NO_NUMBER;
}

const char *ts_text(const struct ts_child *child, const char *key)
{
	const char *value = ts_value(child, key);

	return value ? value : "";
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	remove(path);
	return 0; /* go on: remove as much as can be removed */
}

void ts_remove_tree(const char *path)
{
	if (path && strstr(path, "cudastub-"))
		nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int ts_in_ci(void)
{
	const char *ci = getenv("CI");

	return ci && (!strcmp(ci, "true") || !strcmp(ci, "1"));
}

/* Things found missing outside CI: the suite then exits TS_SKIP_CODE, which
 * ctest reports as skipped, not passed. */
static unsigned skipped;

void ts_unavailable(const char *why)
{
	if (ts_in_ci()) {
		fprintf(stderr, "FAIL: %s (CI=true)\n", why);
		CU_assertImplementation(CU_FALSE, __LINE__, why, __FILE__, "", CU_FALSE);
	} else {
		fprintf(stderr, "SKIP: %s\n", why);
		skipped++;
	}
}

#ifndef CUDASTUB_TEST_TOOLKIT_LIBDIR
#define CUDASTUB_TEST_TOOLKIT_LIBDIR "/usr/local/cuda/lib64"
#endif

int ts_toolkit_is_native(void)
{
	return CUDASTUB_TEST_TOOLKIT_LIBDIR[0] != '\0';
}

const char *ts_toolkit_file(const char *name, char *buf, size_t size)
{
	char why[512];

	if (!ts_toolkit_is_native()) {
		snprintf(why, sizeof why,
			 "no CUDA 13.0 %s for this architecture here (the toolkit's is x86-64's)",
			 name);
		ts_not_applicable(why);
		return NULL;
	}
	snprintf(buf, size, "%s/%s", CUDASTUB_TEST_TOOLKIT_LIBDIR, name);
	if (access(buf, F_OK) == 0)
		return buf;
	snprintf(why, sizeof why, "%s missing; install the CUDA 13 toolkit", buf);
	ts_unavailable(why);
	return NULL;
}

void ts_not_applicable(const char *why)
{
	printf("N/A: %s\n", why);
}

const char *ts_fixture(const char *name)
{
	static char paths[8][4096];
	static int next;
	const char *root = getenv("CUDASTUB_FIXTURES");
	/* Room for the whole path and its stamp's name, so -O0's
	 * -Wformat-truncation has nothing to report. */
	char stamp[sizeof paths[0] + sizeof "/.stamp"], why[4200];
	char *path = paths[next++ % 8];

	if (!root || !*root)
		root = CUDASTUB_TEST_FIXTURES;
	snprintf(path, 4096, "%s/%s", root, name);
	snprintf(stamp, sizeof stamp, "%s/.stamp", path);
	if (access(stamp, F_OK) == 0)
		return path;
	snprintf(why, sizeof why,
		 "fixture %s missing at %s; run tests/fixtures/fetch.sh to fetch it", name, path);
	ts_unavailable(why);
	return NULL;
}

const char *ts_library_fixture(const char *name)
{
#if defined(__aarch64__)
	static char names[8][256];
	static int next;
	char *out = names[next++ % 8];

	snprintf(out, sizeof names[0], "arm64-%s", name);
	return out;
#else
	return name;
#endif
}

/* The library fixtures fetch.sh has an arm64 copy of. */
static int has_arm64_fixture(const char *name)
{
	static const char *const names[] = {"cuda-11.8", "cuda-12.4", "driver-550"};

	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (!strcmp(name, names[i]))
			return 1;
	return 0;
}

const char *ts_fixture_libdir(const char *name, char *buf, size_t size)
{
	const char *root;

#if defined(__aarch64__)
	if (!has_arm64_fixture(name)) {
		char why[512];

		snprintf(why, sizeof why,
			 "no arm64 %s fixture (tests/fixtures/fetch.sh fetches it for x86-64 only)",
			 name);
		ts_not_applicable(why);
		return NULL;
	}
#else
	(void)has_arm64_fixture;
#endif
	root = ts_fixture(ts_library_fixture(name));

	if (!root)
		return NULL;
	snprintf(buf, size, "%s/usr/lib/" TS_MULTIARCH, root);
	return buf;
}

int ts_main(int argc, char **argv, const struct ts_scenario *scenarios,
	    ts_register_fn register_suites)
{
	ssize_t n = readlink("/proc/self/exe", self_path, sizeof self_path - 1);
	unsigned failures, asserts;

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
	asserts = CU_get_number_of_asserts();
	CU_cleanup_registry();
	if (!failures && !skipped && !asserts) {
		/* every test was not applicable here: nothing was proven, so
		 * ctest must not count it a pass */
		printf("SKIPPED: nothing was asserted (every test not applicable here: the N/A "
		       "lines above)\n");
		return TS_SKIP_CODE;
	}
	if (!failures && skipped) {
		/* what did run passed, but not all of it ran: never a pass */
		printf("SKIPPED: %u thing%s this suite needs %s not on this machine (the SKIP "
		       "lines above); with CI=true each is a failure\n",
		       skipped, skipped == 1 ? "" : "s", skipped == 1 ? "is" : "are");
		return TS_SKIP_CODE;
	}
	return failures ? 1 : 0;
}

CU_pSuite ts_add_suite(const struct ts_suite *suite)
{
	CU_pSuite s = CU_add_suite(suite->name, suite->init, suite->clean);

	for (const struct ts_test *t = suite->tests; s && t->name; t++)
		CU_add_test(s, t->name, t->run);
	return s;
}

/* The one suite ts_main_suite registers: ts_main's register function takes
 * no argument. */
static const struct ts_suite *main_suite;

static void register_main_suite(void)
{
	ts_add_suite(main_suite);
}

int ts_main_suite(int argc, char **argv, const struct ts_scenario *scenarios,
		  const struct ts_suite *suite)
{
	main_suite = suite;
	return ts_main(argc, argv, scenarios, register_main_suite);
}

const char *ts_env_leaks_unnamed(char *buf, size_t size)
{
	const char *now = getenv("ASAN_OPTIONS");

	snprintf(buf, size, "ASAN_OPTIONS=%s%sdetect_leaks=0", now ? now : "",
		 now && *now ? ":" : "");
	return buf;
}

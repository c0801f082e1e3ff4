/*
 * Files that are not files: a FIFO, a socket and a character device (a
 * symbolic link to /dev/null) named as the library, in every step of the
 * search (the override as a file and as a folder, a pip wheel folder beside
 * the stub, CUDA_HOME, LD_LIBRARY_PATH, /usr/local/cuda), for all three
 * stubs (NVRTC's alone under valgrind). Opening a FIFO waits for a writer
 * for ever, so each case runs in a child with an alarm: a hang is a
 * failure (the child dies on SIGALRM), not a stuck suite. Each asserts
 * that the search finished, that the file was skipped with its type as
 * the reason and never handed to dlopen, and, where a healthy library
 * comes later in the search, that it was loaded. The same for `cudastub
 * info`.
 *
 * /usr/local/cuda is replaced inside the child's own mount namespace (a
 * folder of the test bound over /usr/local), which needs root; elsewhere
 * that case is reported as a SKIP.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "loader_test.h"
#include "ts_namespace.h"

/* Seconds a child may take; a search that blocks takes for ever. Generous
 * for valgrind, which runs the first call many times slower. */
enum { CHILD_ALARM = 60 };

struct stub {
	const char *lib;     /* cudastub_<lib>_info */
	const char *path;    /* the stub's file */
	const char *env;     /* CUDASTUB_<LIB> prefix of _PATH */
	const char *healthy; /* a library the stub loads (a test fake) */
	const char *wheel;   /* a wheel folder of the stub's library, or NULL */
};

static struct stub stubs[] = {
	{"nvrtc", LD_STUB_PATH, "CUDASTUB_NVRTC", NULL, "nvidia/cu13/lib"},
	{"cudart", LD_CUDART_STUB, "CUDASTUB_CUDART", LD_FAKE_CUDART, "nvidia/cu13/lib"},
	{"cuda", LD_CUDA_STUB, "CUDASTUB_CUDA", LD_FAKE_DRIVER, NULL},
};

/* The stubs each case runs for: under valgrind, where each child takes a
 * second or more to start, the first alone; the three stubs' searches are
 * the same code, and the plain and sanitizer builds run every case for
 * each. */
#define STUBS_CHECKED ts_all_or_one_under_valgrind(sizeof stubs / sizeof *stubs)

/* ---- child: open the stub, make its first call, report ---- */

static int search_child(void)
{
	const char *tree = getenv("TEST_USR_LOCAL");

	alarm(CHILD_ALARM);
	if (tree && ts_bind_usr_local(tree) != 0)
		exit(TS_NAMESPACE_REFUSED);
	return ld_report_first_call(getenv("TEST_STUB"), getenv("TEST_LIB"));
}

/* `cudastub info` for the three libraries whose files the test places,
 * under the same alarm: it survives execve. Naming them keeps the command
 * from loading the machine's real libraries (cuDNN, NCCL, CUPTI: slow under
 * valgrind, and not this test's), whatever libraries are added later. */
static int cli_child(void)
{
	const char *cli = getenv("TEST_CLI");
	char *argv[] = {(char *)cli, "info", "cudart", "nvrtc", "cuda", NULL};

	alarm(CHILD_ALARM);
	if (!cli)
		return 3;
	execv(cli, argv);
	return 5;
}

/* ---- parent ---- */

/* Runs scenario with env; 0 when the child finished (exit 0), else a
 * failure that names the case: a child killed by its alarm hung. */
static int run(const char *scenario, const char *what, const char *const *env, struct ts_child *c)
{
	char msg[512];

	if (ts_run_child(scenario, env, c) == 0 && c->exit_code == 0)
		return 0;
	if (c->exit_code == TS_NAMESPACE_REFUSED && strstr(c->out, "namespace="))
		return TS_NAMESPACE_REFUSED;
	snprintf(msg, sizeof msg, "%s: the child %s (exit %d)", what,
		 c->exit_code < 0 ? "died on a signal (SIGALRM: the search hung)" : "failed",
		 c->exit_code);
	CU_assertImplementation(CU_FALSE, __LINE__, msg, __FILE__, "", CU_FALSE);
	fprintf(stderr, "%s\n%s%s\n", msg, c->out, c->err);
	return -1;
}

/* One kind of file that is not a library file. */
struct kind {
	const char *name;
	const char *reason; /* the attempt's outcome */
	int (*make)(const char *path);
};

static int make_fifo(const char *path)
{
	return mkfifo(path, 0644);
}

/* A socket's file stays after the socket is closed. */
static int make_socket(const char *path)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	int fd, rc;

	if (strlen(path) >= sizeof addr.sun_path) {
		fprintf(stderr, "socket path too long: %s\n", path);
		return -1;
	}
	strcpy(addr.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0)
		return -1;
	rc = bind(fd, (struct sockaddr *)&addr, sizeof addr);
	close(fd);
	return rc;
}

static int make_char_device(const char *path)
{
	return symlink("/dev/null", path);
}

static const struct kind kinds[] = {
	{"a FIFO", "skipped: a FIFO, not a library file", make_fifo},
	{"a socket", "skipped: a socket, not a library file", make_socket},
	{"a character device", "skipped: a character device, not a library file", make_char_device},
};

/* mkdir -p of path's folder, every folder made 0755 (a folder others can
 * write may be refused by the wheel step), then kind's file at path. */
static int place(const struct kind *k, const char *path)
{
	char dir[PATH_MAX];
	char *slash;

	snprintf(dir, sizeof dir, "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	ld_mkdirs(dir); /* fails when it is there already */
	return k->make(path);
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The folder of a file, in buf. */
static const char *folder_of(const char *path, char *buf, size_t size)
{
	char *slash;

	snprintf(buf, size, "%s", path);
	slash = strrchr(buf, '/');
	if (slash)
		*slash = '\0';
	return buf;
}

/* The healthy library was loaded from a path that ends with where. */
static void expect_healthy(const struct ts_child *c, const char *what, const char *where)
{
	CU_ASSERT_EQUAL(ld_long(c, "state"), CUDASTUB_STATE_LOADED);
	CU_ASSERT_EQUAL(ld_long(c, "rc"), 0);
	CU_ASSERT_TRUE(ld_long(c, "value") > 0);
	if (!ts_value(c, "path") || !strstr(ts_value(c, "path"), where))
		fprintf(stderr, "%s: loaded %s, not the library in %s\n", what,
			ts_value(c, "path") ? ts_value(c, "path") : "nothing", where);
	CU_ASSERT_PTR_NOT_NULL(strstr(ts_text(c, "path"), where));
}

/* A fresh tree, mode 0755, in dir; 0 after a failure. */
static int fresh_tree(char *dir, size_t size)
{
	if (!ts_tmpdir("hf", dir, size)) {
		CU_FAIL("no temporary folder");
		return 0;
	}
	chmod(dir, 0755);
	return 1;
}

/* Steps 1: the override, naming the file and naming its folder. No
 * fallback follows an override: the search fails, having skipped it. */
static void test_override(void)
{
	for (size_t s = 0; s < STUBS_CHECKED; s++) {
		const struct stub *st = &stubs[s];

		for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
			char dir[PATH_MAX], file[PATH_MAX + 64], what[128];
			struct ts_child c;

			if (!fresh_tree(dir, sizeof dir))
				return;
			snprintf(file, sizeof file, "%s/ovr/%s", dir, base_name(st->healthy));
			CU_ASSERT_EQUAL_FATAL(place(&kinds[k], file), 0);
			for (int as_folder = 0; as_folder < 2; as_folder++) {
				const char *env[] = {
					ld_fmt("TEST_LIB=%s", st->lib),
					ld_fmt("TEST_STUB=%s", st->path),
					as_folder ? ld_fmt("%s_PATH=%s/ovr", st->env, dir)
						  : ld_fmt("%s_PATH=%s", st->env, file),
					NULL};

				snprintf(what, sizeof what, "%s, %s as the override%s", st->lib,
					 kinds[k].name, as_folder ? "'s folder" : "");
				if (run("search", what, env, &c) != 0)
					continue;
				CU_ASSERT_EQUAL(ld_long(&c, "finished"), 1);
				CU_ASSERT_EQUAL(ld_long(&c, "state"),
						CUDASTUB_STATE_OVERRIDE_FAILED);
				CU_ASSERT_TRUE(ld_attempted(&c, file, kinds[k].reason));
				CU_ASSERT_EQUAL(ld_long(&c, "dlopen_calls"), 0);
			}
			ts_remove_tree(dir);
		}
	}
}

/* Steps 3 to 5: the file where a step looks, the healthy library on
 * LD_LIBRARY_PATH after it. */
enum step { WHEEL, CUDA_HOME, LD_PATH };

static void run_step(enum step step)
{
	static const char *const names[] = {"a pip wheel folder", "CUDA_HOME", "LD_LIBRARY_PATH"};

	for (size_t s = 0; s < STUBS_CHECKED; s++) {
		const struct stub *st = &stubs[s];
		const char *soname = base_name(st->healthy);
		char healthy_dir[PATH_MAX];

		folder_of(st->healthy, healthy_dir, sizeof healthy_dir);
		if (step == WHEEL && !st->wheel)
			continue; /* the driver comes in no wheel */
		for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
			char dir[PATH_MAX], file[PATH_MAX + 128], stub[PATH_MAX + 128], what[128];
			const char *env[5] = {ld_fmt("TEST_LIB=%s", st->lib)};
			struct ts_child c;

			if (!fresh_tree(dir, sizeof dir))
				return;
			snprintf(stub, sizeof stub, "%s", st->path);
			if (step == WHEEL) {
				/* a copy of the stub, with the wheel folder beside it */
				snprintf(stub, sizeof stub, "%s/site/%s", dir, base_name(st->path));
				snprintf(file, sizeof file, "%s/site/%s/%s", dir, st->wheel,
					 soname);
				CU_ASSERT_EQUAL_FATAL(ld_mkdirs(ld_fmt("%s/site", dir)), 0);
				CU_ASSERT_EQUAL_FATAL(ts_copy_file(st->path, stub), 0);
				env[2] = ld_fmt("LD_LIBRARY_PATH=%s", healthy_dir);
			} else if (step == CUDA_HOME) {
				snprintf(file, sizeof file, "%s/home/lib64/%s", dir, soname);
				env[2] = ld_fmt("CUDA_HOME=%s/home", dir);
				env[3] = ld_fmt("LD_LIBRARY_PATH=%s", healthy_dir);
			} else {
				snprintf(file, sizeof file, "%s/ldp/%s", dir, soname);
				env[2] = ld_fmt("LD_LIBRARY_PATH=%s/ldp:%s", dir, healthy_dir);
			}
			env[1] = ld_fmt("TEST_STUB=%s", stub);
			CU_ASSERT_EQUAL_FATAL(place(&kinds[k], file), 0);
			snprintf(what, sizeof what, "%s, %s in %s", st->lib, kinds[k].name,
				 names[step]);
			if (run("search", what, env, &c) == 0) {
				CU_ASSERT_EQUAL(ld_long(&c, "finished"), 1);
				if (!ld_attempted(&c, file, kinds[k].reason))
					fprintf(stderr, "%s: no attempt of %s skipped as %s:\n%s\n",
						what, file, kinds[k].reason, c.out);
				CU_ASSERT_TRUE(ld_attempted(&c, file, kinds[k].reason));
				expect_healthy(&c, what, healthy_dir);
			}
			ts_remove_tree(dir);
		}
	}
}

static void test_wheel(void)
{
	run_step(WHEEL);
}

static void test_cuda_home(void)
{
	run_step(CUDA_HOME);
}

static void test_ld_library_path(void)
{
	run_step(LD_PATH);
}

/* Step 6: /usr/local/cuda/lib64 holds the file, /usr/local/cuda/lib the
 * healthy library; the rest of /usr/local is gone (so the toolkit that
 * ld.so.cache names is not found first). */
static void test_usr_local_cuda(void)
{
	for (size_t s = 0; s < STUBS_CHECKED; s++) {
		const struct stub *st = &stubs[s];
		const char *soname = base_name(st->healthy);

		for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
			char dir[PATH_MAX], file[PATH_MAX + 64], good[PATH_MAX + 64], what[128];
			struct ts_child c;
			int r;

			if (!fresh_tree(dir, sizeof dir))
				return;
			snprintf(file, sizeof file, "%s/cuda/lib64/%s", dir, soname);
			snprintf(good, sizeof good, "%s/cuda/lib/%s", dir, soname);
			CU_ASSERT_EQUAL_FATAL(place(&kinds[k], file), 0);
			CU_ASSERT_EQUAL_FATAL(ld_mkdirs(ld_fmt("%s/cuda/lib", dir)), 0);
			CU_ASSERT_EQUAL_FATAL(ts_copy_file(st->healthy, good), 0);
			const char *env[] = {ld_fmt("TEST_LIB=%s", st->lib),
					     ld_fmt("TEST_STUB=%s", st->path),
					     ld_fmt("TEST_USR_LOCAL=%s", dir), NULL};

			snprintf(what, sizeof what, "%s, %s in /usr/local/cuda", st->lib,
				 kinds[k].name);
			r = run("search", what, env, &c);
			ts_remove_tree(dir);
			if (r == 4) {
				ts_unavailable(ld_fmt("/usr/local/cuda: no private mount namespace "
						      "(%s); run the suite as root",
						      ts_text(&c, "namespace")));
				return;
			}
			if (r != 0)
				continue;
			CU_ASSERT_EQUAL(ld_long(&c, "finished"), 1);
			CU_ASSERT_TRUE(ld_attempted(&c, ld_fmt("/usr/local/cuda/lib64/%s", soname),
						    kinds[k].reason));
			expect_healthy(&c, what, "/usr/local/cuda/lib/");
		}
	}
}

#ifdef LD_CLI
/* Whether the text table's row of lib (its first word) says "loaded". */
static int cli_row_loaded(const char *out, const char *lib)
{
	size_t n = strlen(lib);

	for (const char *line = out; line;
	     line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		if (strncmp(line, lib, n) || line[n] != ' ')
			continue;
		return !strncmp(line + n + strspn(line + n, " "), "loaded", 6);
	}
	return 0;
}
#endif

/* `cudastub info` with each kind as the runtime's, NVRTC's and the
 * driver's library in CUDA_HOME and the fakes on LD_LIBRARY_PATH: it ends,
 * exit 0, says why each was skipped and loads the fakes. */
static void test_cli_info(void)
{
#ifdef LD_CLI
	for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
		const char *env[16] = {"TEST_CLI=" LD_CLI};
		char dir[PATH_MAX], what[128], fakes[3 * PATH_MAX + 4] = "LD_LIBRARY_PATH=";
		struct ts_child c;
		size_t n = 1;

		if (!fresh_tree(dir, sizeof dir))
			return;
		for (size_t s = 0; s < sizeof stubs / sizeof *stubs; s++) {
			char healthy_dir[PATH_MAX];

			CU_ASSERT_EQUAL_FATAL(place(&kinds[k], ld_fmt("%s/lib64/%s", dir,
								      base_name(stubs[s].healthy))),
					      0);
			if (s)
				strcat(fakes, ":");
			strcat(fakes, folder_of(stubs[s].healthy, healthy_dir, sizeof healthy_dir));
		}
		env[n++] = ld_fmt("CUDA_HOME=%s", dir);
		env[n++] = fakes;
		snprintf(what, sizeof what, "cudastub info, %s in CUDA_HOME", kinds[k].name);
		if (run("cli", what, env, &c) == 0) {
			/* the reason, less "skipped: ", as the text table shows it */
			CU_ASSERT_PTR_NOT_NULL(strstr(c.out, kinds[k].reason + 9));
			for (size_t s = 0; s < sizeof stubs / sizeof *stubs; s++)
				CU_ASSERT_TRUE(cli_row_loaded(c.out, stubs[s].lib));
			/* the libraries not named were neither loaded nor reported */
			CU_ASSERT_PTR_NULL(strstr(c.out, "\ncublas "));
		}
		ts_remove_tree(dir);
	}
#else
	ts_not_applicable("cudastub info: the command is built for native builds only");
#endif
}

static const struct ts_test tests[] = {
	{"the override, as a file and as a folder", test_override},
	{"a pip wheel folder beside the stub", test_wheel},
	{"CUDA_HOME", test_cuda_home},
	{"LD_LIBRARY_PATH", test_ld_library_path},
	{"/usr/local/cuda, in a private mount namespace", test_usr_local_cuda},
	{"cudastub info ends and says why", test_cli_info},
	{NULL, NULL},
};

static const struct ts_suite suite = {"hostile files: a FIFO, a socket, a device, in every step",
				      NULL, NULL, tests};

int main(int argc, char **argv)
{
	static const struct ts_scenario scenarios[] = {
		{"search", search_child}, {"cli", cli_child}, {NULL, NULL}};

	stubs[0].healthy = strdup(ld_fake("nvrtc-13"));
	return ts_main_suite(argc, argv, scenarios, &suite);
}

/*
 * Programs nobody here wrote, through the stubs: Debian bookworm's own
 * CUDA 11.8 packages (real_programs.c lists the invocations) on five
 * machines (real_programs.c: 11.8; 11.8 with the 550 driver; no CUDA;
 * 12.4 only; 13.0 only), each in four variants and each variant also under
 * LD_BIND_NOW=1:
 *   as shipped      the fixture's files, unchanged;
 *   patched         a copy of the fixture, `cudastub patch`ed (with the
 *                   11.8 ABI's stubs) as a packager patches a tree;
 *   shim            as shipped, the 11.8 shims first on the loader's path;
 *   preloaded shim  the same, the shims the program links preloaded.
 *
 * Asserted for every run: it ends within CHILD_ALARM seconds; no loader
 * error and no unresolved symbol. As shipped, a program starts exactly
 * where the machine has every NVIDIA library it links (else exit 127).
 * Through the stubs it always starts, and prints, after normalising the
 * times and the tree's path:
 *   - where it starts as shipped, what it prints as shipped there;
 *   - elsewhere (no CUDA, or a newer runtime only, no driver), what it
 *     prints as shipped on a machine with its runtime and no GPU: a
 *     machine without CUDA is a machine without a GPU to the program;
 * and the stub's log names the runtime the machine has. At main, the
 * patched program and the program through the shims have loaded no
 * NVIDIA library (LD_DEBUG=libs: nothing of NVIDIA's initialised before
 * control reaches the program).
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "real_programs.h"
#include "test_support.h"
#include "ts_files.h"
#include "ts_namespace.h"

/* From CMake: RP_CLI (the cudastub command linked to the 11.8 stubs, or ""
 * with RP_WHY saying why there is none), RP_SHIM_DIR (the 11.8 shims),
 * RP_DRIVER_SHIM_DIR (the 11.8 driver shim, libcuda.so.1; NVML's is in
 * RP_SHIM_DIR/nvml),
 * RP_TOOLKIT_CUDART13 (the toolkit's libcudart.so.13, or ""). */

#define CHILD_ALARM 120
#define VARIANTS    4
#define MACHINES    5
#define FIXTURE	    "programs-11.8"

enum { AS_SHIPPED, PATCHED, SHIM, PRELOADED };
static const char *const variant_names[VARIANTS] = {"as shipped", "patched", "shim",
						    "preloaded shim"};

/* The shims of the 11.8 set, by the library bit they stand in for. */
static const struct {
	unsigned bit;
	const char *soname;
} shims[] = {
	{RP_CUDART11, "libcudart.so.11.0"},
	{RP_CUBLAS11, "libcublas.so.11"},
	{RP_CUSPARSE11, "libcusparse.so.11"},
	{RP_CUFFT10, "libcufft.so.10"},
	{RP_CURAND10, "libcurand.so.10"},
	{RP_NVML, RP_SHIM_DIR "/nvml/libnvidia-ml.so.1"},
	{RP_DRIVER, RP_DRIVER_SHIM_DIR "/libcuda.so.1"},
};

static char work[PATH_MAX], empty[PATH_MAX + 8], fixture_root[PATH_MAX], patched_root[PATH_MAX + 8];
static char machine_path[MACHINES][4 * PATH_MAX];

/* ---- child: the namespace, the loader's variables, then the program ---- */

/* RP_HIDE: an empty folder mounted over /usr/local in a mount namespace of
 * its own (ts_namespace.h: exit 4 when it cannot). RP_SET_<NAME>: set
 * NAME only now, so that the loader's variables reach the program and not
 * this binary's own start. RP_CWD, RP_PROGRAM, RP_ARG0...: the run. The
 * alarm survives execve. */
static int program_child(void)
{
	const char *hide = getenv("RP_HIDE"), *program = getenv("RP_PROGRAM");
	static const char *const loader_vars[] = {"LD_LIBRARY_PATH", "LD_PRELOAD", "LD_BIND_NOW",
						  "LD_DEBUG"};
	char *argv[RP_MAX_ARGS + 1] = {0};

	alarm(CHILD_ALARM);
	if (!program || chdir(getenv("RP_CWD") ? getenv("RP_CWD") : "/") != 0)
		return 3;
	if (hide && ts_bind_usr_local(hide) != 0)
		return TS_NAMESPACE_REFUSED;
	for (int i = 0; i < RP_MAX_ARGS; i++) {
		char name[16];

		snprintf(name, sizeof name, "RP_ARG%d", i);
		argv[i] = getenv(name);
	}
	for (size_t i = 0; i < sizeof loader_vars / sizeof *loader_vars; i++) {
		char name[64];
		const char *value;

		snprintf(name, sizeof name, "RP_SET_%s", loader_vars[i]);
		if ((value = getenv(name)))
			setenv(loader_vars[i], value, 1);
	}
	fflush(stdout);
	execv(program, argv);
	return 5;
}

/* ---- text ---- */

/* Appends s to buf (size), with every %R replaced by root and %W by dir. */
static void expand(char *buf, size_t size, const char *s, const char *root, const char *dir)
{
	size_t n = strlen(buf);

	for (; *s && n + 1 < size; s++) {
		const char *with = s[0] == '%' && s[1] == 'R'	? root
				   : s[0] == '%' && s[1] == 'W' ? dir
								: NULL;

		if (with) {
			n += (size_t)snprintf(buf + n, size - n, "%s", with);
			s++;
		} else {
			buf[n++] = *s;
		}
		buf[n < size ? n : size - 1] = '\0';
	}
}

/* Replaces every occurrence of what in text with by, in place (text has
 * room for size bytes). */
static void replace_all(char *text, size_t size, const char *what, const char *by)
{
	size_t wl = strlen(what), bl = strlen(by);
	char *at = text;

	while (wl && (at = strstr(at, what))) {
		size_t rest = strlen(at + wl);

		if ((size_t)(at - text) + bl + rest + 1 > size)
			return;
		memmove(at + bl, at + wl, rest + 1);
		memcpy(at, by, bl);
		at += bl;
	}
}

/* What a run printed, comparable between runs: stdout then stderr, the
 * stub's own log lines and the program's unstable ones left out, the trees' paths and the run's
 * folder named, clock times (HH:MM:SS) and dates' days made "<time>". */
static void normalise(const struct rp_program *p, const struct ts_child *c, const char *dir,
		      char *out, size_t size)
{
	const char *parts[2] = {c->out, c->err};

	snprintf(out, size, "exit %d\n", c->exit_code);
	for (int part = 0; part < 2; part++) {
		strncat(out, part ? "--- stderr\n" : "--- stdout\n", size - strlen(out) - 1);
		for (const char *line = parts[part]; *line;) {
			const char *end = strchr(line, '\n');
			size_t len = end ? (size_t)(end - line + 1) : strlen(line);

			if (strncmp(line, "cudastub[", 9) &&
			    (!p->unstable || strncmp(line, p->unstable, strlen(p->unstable))) &&
			    strlen(out) + len + 1 < size)
				strncat(out, line, len);
			line += len;
		}
	}
	replace_all(out, size, patched_root, "<tree>");
	replace_all(out, size, fixture_root, "<tree>");
	replace_all(out, size, dir, "<run>");
	for (char *s = out; (s = strchr(s, ':'));) {
		/* HH:MM:SS, as MAGMA's header prints the date */
		if (s - out >= 2 && s[3] == ':' && strspn(s - 2, "0123456789") == 2 &&
		    strspn(s + 1, "0123456789") == 2 && strspn(s + 4, "0123456789") == 2) {
			memcpy(s - 2, "<time>", 6);
			memmove(s + 4, s + 6, strlen(s + 6) + 1);
		}
		s++;
	}
}

/* ---- the fixture and its patched copy ---- */

static int count_lines(const char *text, const char *prefix)
{
	int n = !strncmp(text, prefix, strlen(prefix));

	for (const char *s = text; (s = strchr(s, '\n')); s++)
		n += !strncmp(s + 1, prefix, strlen(prefix));
	return n;
}

static int run_tool(char *const *argv, struct ts_child *c)
{
	return ts_run_program(argv, NULL, NULL, c) == 0 ? c->exit_code : -1;
}

/* What Debian's programs link beside CUDA: bookworm's own packages, which
 * the README's test command installs (the package in parentheses). */
static const char *const system_files[] = {
	"/usr/lib/x86_64-linux-gnu/libblas.so.3 (libblas3)",
	"/usr/lib/x86_64-linux-gnu/liblapack.so.3 (liblapack3)",
	"/usr/lib/x86_64-linux-gnu/liblapacke.so.3 (liblapacke)",
	"/usr/lib/x86_64-linux-gnu/libgomp.so.1 (libgomp1)",
	"/usr/lib/x86_64-linux-gnu/libpng16.so.16 (libpng16-16)",
	"/usr/lib/x86_64-linux-gnu/libfftw3f.so.3 (libfftw3-single3)",
	"/usr/lib/x86_64-linux-gnu/libglpk.so.40 (libglpk40)",
	"/usr/lib/x86_64-linux-gnu/libOpenCL.so.1 (ocl-icd-libopencl1)",
	"/usr/lib/x86_64-linux-gnu/libboost_python311.so.1.74.0 (libboost-python1.74.0)",
	"/usr/lib/x86_64-linux-gnu/libboost_thread.so.1.74.0 (libboost-thread1.74.0)",
	"/usr/lib/python3/dist-packages/numpy (python3-numpy)",
	"/usr/lib/python3/dist-packages/pytools (python3-pytools)",
	"/usr/bin/python3 (python3)",
};

/* 0 when every system file is there; else each missing one reported. */
static int have_system_files(void)
{
	int missing = 0;

	for (size_t i = 0; i < sizeof system_files / sizeof *system_files; i++) {
		char path[PATH_MAX], why[PATH_MAX + 64];

		snprintf(path, sizeof path, "%.*s", (int)strcspn(system_files[i], " "),
			 system_files[i]);
		if (access(path, F_OK) == 0)
			continue;
		snprintf(why, sizeof why, "no %s: apt-get install %s", path,
			 strchr(system_files[i], '(') + 1);
		why[strlen(why) - 1] = '\0'; /* the closing parenthesis */
		ts_unavailable(why);
		missing++;
	}
	return missing ? -1 : 0;
}

static int prepare(void)
{
	static struct ts_child c;
	const char *root;
	char check[] = "--check";

	if (*RP_WHY) {
		char why[256];

		snprintf(why, sizeof why, "no 11.8 stubs for the real programs: %s", RP_WHY);
		if (!strcmp(RP_WHY, "a sanitizer build"))
			ts_not_applicable("a sanitizer build: Debian's programs cannot load its "
					  "stubs (its runtime must come first)");
		else
			ts_unavailable(why);
		return -1;
	}
#if !defined(__x86_64__)
	ts_not_applicable("Debian's x86-64 programs (fixture " FIXTURE ") on another machine");
	return -1;
#endif
	if (have_system_files() != 0 || !(root = ts_fixture(FIXTURE)))
		return -1;
	snprintf(fixture_root, sizeof fixture_root, "%s", root);
	if (!ts_tmpdir("real-programs", work, sizeof work)) {
		CU_FAIL("mkdtemp");
		return -1;
	}
	snprintf(empty, sizeof empty, "%s/empty", work);
	snprintf(patched_root, sizeof patched_root, "%s/patched", work);
	mkdir(empty, 0755);

	/* the packager's step: a copy of the tree, patched as a whole */
	{
		char *cp[] = {"/bin/cp", "-a", fixture_root, patched_root, NULL};
		char *patch[] = {RP_CLI, "patch", patched_root, NULL};
		char *recheck[] = {RP_CLI, "patch", check, patched_root, NULL};

		if (run_tool(cp, &c) != 0) {
			CU_FAIL("could not copy the fixture");
			return -1;
		}
		if (run_tool(patch, &c) != 0) {
			fprintf(stderr, "cudastub patch: exit %d\n%s%s", c.exit_code, c.out, c.err);
			CU_FAIL("cudastub patch failed on Debian's programs");
			return -1;
		}
		printf("\n  cudastub patch (the 11.8 stubs): %d files patched, exit 0\n",
		       count_lines(c.out, "patched "));
		CU_ASSERT_EQUAL(run_tool(recheck, &c), 0); /* nothing left to change */
	}
	return 0;
}

/* The loader's path of machine m (its fixtures' folders), in
 * machine_path[m]; 0, or -1 with the missing fixture reported. */
static int machine_libdirs(int m)
{
	char *buf = machine_path[m];
	size_t size = sizeof machine_path[m];

	*buf = '\0';
	for (int i = 0; i < 4 && rp_machines[m].fixtures[i]; i++) {
		char name[64], dir[PATH_MAX];
		const char *sub;

		snprintf(name, sizeof name, "%s", rp_machines[m].fixtures[i]);
		sub = strchr(rp_machines[m].fixtures[i], '/');
		if (sub)
			name[sub - rp_machines[m].fixtures[i]] = '\0';
		if (!ts_fixture_libdir(name, dir, sizeof dir))
			return -1;
		snprintf(buf + strlen(buf), size - strlen(buf), "%s%s%s", *buf ? ":" : "", dir,
			 sub ? sub : "");
	}
	return 0;
}

/* ---- one run ---- */

/* The program's setup commands, in dir, as shipped on the 11.8 machine;
 * 0, or -1 after a failure. */
static int run_setup(const struct rp_program *p, const char *dir)
{
	static struct ts_child c;
	static char command[2048], path[4 * PATH_MAX + 32];
	char *argv[] = {"/bin/sh", "-c", command, NULL};
	const char *env[] = {path, NULL};

	snprintf(path, sizeof path, "LD_LIBRARY_PATH=%s", machine_path[0]);
	for (int i = 0; i < 2 && p->setup[i]; i++) {
		snprintf(command, sizeof command, "cd '%s' && ", dir);
		expand(command, sizeof command, p->setup[i], fixture_root, dir);
		if (ts_run_program(argv, env, NULL, &c) != 0 || c.exit_code != 0) {
			fprintf(stderr, "%s: exit %d\n%s%s", command, c.exit_code, c.out, c.err);
			CU_FAIL("a setup command failed");
			return -1;
		}
	}
	return 0;
}

struct run {
	const struct rp_program *p;
	int machine, variant, bind_now;
	const char *ld_debug;
};

/* Runs r into c, its own folder in dir; 0 when it ran (its outcome then
 * asserted by the caller), -1 after reporting why not. */
static int run_program(const struct run *r, struct ts_child *c, char *dir, size_t dir_size)
{
	static int serial;
	const struct rp_program *p = r->p;
	const struct rp_machine *m = &rp_machines[r->machine];
	const char *root = r->variant == PATCHED ? patched_root : fixture_root;
	static char path[6 * PATH_MAX], program[PATH_MAX], cwd[PATH_MAX + 64], hide[PATH_MAX + 32];
	static char preload[2048], args[RP_MAX_ARGS][1024], envs[4][PATH_MAX];
	const char *env[32];
	size_t n = 0;

	snprintf(dir, dir_size, "%s/run-%d", work, ++serial);
	mkdir(dir, 0755);
	if (run_setup(p, dir) != 0)
		return -1;
	snprintf(cwd, sizeof cwd, "RP_CWD=%s", dir);
	env[n++] = cwd;
	strcpy(program, "RP_PROGRAM=");
	expand(program, sizeof program, p->path, root, dir);
	env[n++] = program;
	for (int i = 0; i < RP_MAX_ARGS && p->args[i]; i++) {
		snprintf(args[i], sizeof args[i], "RP_ARG%d=", i);
		expand(args[i], sizeof args[i], p->args[i], root, dir);
		env[n++] = args[i];
	}
	for (int i = 0; i < 4 && p->env[i]; i++) {
		envs[i][0] = '\0';
		expand(envs[i], sizeof envs[i], p->env[i], root, dir);
		env[n++] = envs[i];
	}

	/* the loader's path: the shims, the program's folders, the machine's */
	strcpy(path, "RP_SET_LD_LIBRARY_PATH=");
	if (r->variant >= SHIM)
		snprintf(path + strlen(path), sizeof path - strlen(path), "%s:%s:%s:", RP_SHIM_DIR,
			 p->needs & RP_DRIVER ? RP_DRIVER_SHIM_DIR : RP_SHIM_DIR,
			 p->needs & RP_NVML ? RP_SHIM_DIR "/nvml" : RP_SHIM_DIR);
	for (int i = 0; i < 3 && p->libdirs[i]; i++) {
		if (!strncmp(p->libdirs[i], "fixture:", 8)) {
			char dir11[PATH_MAX];

			if (!ts_fixture_libdir(p->libdirs[i] + 8, dir11, sizeof dir11))
				return -1;
			strncat(path, dir11, sizeof path - strlen(path) - 1);
		} else {
			expand(path, sizeof path, p->libdirs[i], root, dir);
		}
		strncat(path, ":", sizeof path - strlen(path) - 1);
	}
	strncat(path, machine_path[r->machine], sizeof path - strlen(path) - 1);
	env[n++] = path;
	if (r->variant == PRELOADED) {
		strcpy(preload, "RP_SET_LD_PRELOAD=");
		for (size_t i = 0; i < sizeof shims / sizeof *shims; i++)
			if (p->needs & shims[i].bit)
				snprintf(preload + strlen(preload),
					 sizeof preload - strlen(preload), "%s%s%s",
					 shims[i].soname[0] == '/' ? "" : RP_SHIM_DIR "/",
					 shims[i].soname, " ");
		env[n++] = preload;
	}
	if (m->hide_toolkit) {
		snprintf(hide, sizeof hide, "RP_HIDE=%s", empty);
		env[n++] = hide;
	}
	if (r->bind_now)
		env[n++] = "RP_SET_LD_BIND_NOW=1";
	if (r->ld_debug) {
		static char debug[64];

		snprintf(debug, sizeof debug, "RP_SET_LD_DEBUG=%s", r->ld_debug);
		env[n++] = debug;
	}
	if (r->variant != AS_SHIPPED)
		env[n++] = "CUDASTUB_DEBUG=1"; /* which runtime the stub chose */
	env[n] = NULL;
	if (ts_run_child("program", env, c) != 0) {
		CU_FAIL("the child could not be run");
		return -1;
	}
	return ts_namespace_refused(c) ? -1 : 0;
}

/* A program that could not start: the loader's exit, or (a Python
 * module) the import's error for a library that is not there. */
static int could_not_start(const struct ts_child *c)
{
	return c->exit_code == 127 || strstr(c->err, "cannot open shared object file");
}

/* The stub's error string where no library was found ("cudastub: no
 * usable <lib> library was found (N tried). ... names it."), and
 * NVIDIA's string the reference printed for the same code, each made
 * "<error string>". */
#define ERROR_STRING "<error string>"
static void name_error_strings(char *text, size_t size, const char *nvidia_string)
{
	static const char start[] = "cudastub: no usable ", end[] = "names it.";

	for (char *s = text; (s = strstr(s, start));) {
		char *e = strstr(s, end);
		size_t cut;

		if (!e)
			break;
		cut = (size_t)(e + strlen(end) - s);
		memmove(s + strlen(ERROR_STRING), s + cut, strlen(s + cut) + 1);
		memcpy(s, ERROR_STRING, strlen(ERROR_STRING));
	}
	if (nvidia_string)
		replace_all(text, size, nvidia_string, ERROR_STRING);
}

static int loader_failed(const struct ts_child *c)
{
	return strstr(c->err, "symbol lookup error") || strstr(c->err, "undefined symbol") ||
	       strstr(c->err, "error while loading shared libraries") || strstr(c->err, "ld.so:") ||
	       strstr(c->err, "version `");
}

static void describe(const struct run *r, char *buf, size_t size)
{
	snprintf(buf, size, "%s, %s, %s%s", r->p->name, rp_machines[r->machine].name,
		 variant_names[r->variant], r->bind_now ? ", LD_BIND_NOW=1" : "");
}

/* Prints the two texts of a failed comparison. */
static void show_difference(const char *what, const char *want, const char *got)
{
	fprintf(stderr, "\n%s: prints other than it should\n=== expected\n%s=== got\n%s===\n", what,
		want, got);
}

/* ---- the tests ---- */

static char shipped_text[MACHINES][16384];
static int shipped_started[MACHINES], shipped_exit[MACHINES];

static int runs, stubbed_runs, without_runtime, no_library_runs;

/* The program as shipped on every machine: it starts exactly where the
 * machine has all it links. */
static int run_as_shipped(const struct rp_program *p)
{
	static struct ts_child c;
	char what[256], dir[PATH_MAX + 32];

	for (int m = 0; m < rp_machine_count; m++) {
		struct run r = {p, m, AS_SHIPPED, 0, NULL};
		int can_start = (p->needs & ~rp_machines[m].has) == 0;

		if (run_program(&r, &c, dir, sizeof dir) != 0)
			return -1;
		runs++;
		describe(&r, what, sizeof what);
		shipped_started[m] = !could_not_start(&c);
		shipped_exit[m] = c.exit_code;
		normalise(p, &c, dir, shipped_text[m], sizeof shipped_text[m]);
		if (can_start) {
			if (loader_failed(&c) || c.exit_code == 127) {
				show_difference(what, "(a start)", shipped_text[m]);
				CU_FAIL("as shipped, it did not start where all it links is there");
			}
		} else {
			CU_ASSERT(!shipped_started[m]);
			without_runtime++;
		}
	}
	if (!shipped_started[p->no_gpu_reference]) {
		CU_FAIL("the reference machine's run as shipped did not start");
		return -1;
	}
	CU_ASSERT_PTR_NOT_NULL(strstr(shipped_text[p->no_gpu_reference], p->cuda_said));
	return 0;
}

/* Runs p through the stubs on machine; returns how many runs printed what
 * they should. */
static int run_through_stubs(const struct rp_program *p, int machine)
{
	static struct ts_child c;
	static char text[16384], no_library[16384];
	const struct rp_machine *m = &rp_machines[machine];
	const char *reference = shipped_started[machine] ? shipped_text[machine]
							 : shipped_text[p->no_gpu_reference];

	int right = 0;

	/* the same, where the stub found no library to answer with */
	snprintf(no_library, sizeof no_library, "%s", reference);
	name_error_strings(no_library, sizeof no_library, p->nvidia_string);

	for (int variant = PATCHED; variant < VARIANTS; variant++)
		for (int bind_now = 0; bind_now <= 1; bind_now++) {
			struct run r = {p, machine, variant, bind_now, NULL};
			char what[256], dir[PATH_MAX + 32];

			if (run_program(&r, &c, dir, sizeof dir) != 0)
				return right;
			runs++;
			stubbed_runs++;
			describe(&r, what, sizeof what);
			const char *want = reference;
			char prefix[64], line[256];
			int same;

			normalise(p, &c, dir, text, sizeof text);
			if (strstr(text, "cudastub: no usable ")) {
				name_error_strings(text, sizeof text, NULL);
				want = no_library;
			}
			same = !loader_failed(&c) && !could_not_start(&c) && !strcmp(text, want);
			if (!same)
				show_difference(what, want, text);
			CU_ASSERT(same); /* through the stubs, what NVIDIA's libraries print */
			right += same;
			/* no library: the log says so, and what the probe returned */
			snprintf(prefix, sizeof prefix, "cudastub[%s]: ", p->library);
			snprintf(line, sizeof line, "%sno usable lib", prefix);
			if (strstr(c.err, line)) {
				snprintf(line, sizeof line, "%s%s\n", prefix, p->no_library_log);
				CU_ASSERT_PTR_NOT_NULL(strstr(c.err, line));
				no_library_runs++;
			}
			/* the runtime the stub loaded: the machine's, any major */
			if ((p->needs & RP_CUDART11) && m->runtime_loaded &&
			    !strstr(c.err, m->runtime_loaded)) {
				fprintf(stderr, "%s: the stub's log does not name %s\n%s", what,
					m->runtime_loaded, c.err);
				CU_FAIL("the stub did not load the machine's runtime");
			}
		}
	return right;
}

/* Whether an object ld.so initialised before the program's own code ran
 * (LD_DEBUG=libs: "calling init: <path>" before "transferring control")
 * is one of NVIDIA's: anything from a machine's library folders or the
 * toolkit; *which names it. */
static int nvidia_at_main(const char *err, int machine, const char **which)
{
	static char path[PATH_MAX];
	const char *end = strstr(err, "transferring control");

	for (const char *s = err; (s = strstr(s, "calling init: ")) && (!end || s < end); s++) {
		size_t len = strcspn(s + 14, "\n");
		const char *folders = machine_path[machine];

		snprintf(path, sizeof path, "%.*s", (int)len, s + 14);
		if (strstr(path, "/usr/local/cuda") || strstr(path, "libcuda.so.5"))
			goto found;
		for (const char *f = folders; *f;) {
			size_t flen = strcspn(f, ":");

			if (flen && !strncmp(path, f, flen))
				goto found;
			f += flen + (f[flen] == ':');
		}
	}
	return 0;
found:
	*which = path;
	return 1;
}

/* Only for a program of the fixture's own (not the system's Python,
 * whose main runs before any module loads CUDA). As shipped, NVIDIA's
 * libraries are loaded before main: the check can see them. */
static void check_nothing_at_main(const struct rp_program *p)
{
	static struct ts_child c;

	if (strncmp(p->path, "%R/", 3))
		return;
	for (int variant = AS_SHIPPED; variant <= SHIM; variant++) {
		/* the machine with every library of NVIDIA's at hand */
		struct run r = {p, 1, variant, 0, "libs"};
		const char *which = NULL;
		char what[256], dir[PATH_MAX + 32];

		if (run_program(&r, &c, dir, sizeof dir) != 0)
			return;
		describe(&r, what, sizeof what);
		CU_ASSERT_PTR_NOT_NULL(strstr(c.err, "transferring control"));
		if (variant == AS_SHIPPED) {
			CU_ASSERT(nvidia_at_main(c.err, 1, &which));
		} else if (nvidia_at_main(c.err, 1, &which)) {
			fprintf(stderr, "%s: %s was loaded before main\n", what, which);
			CU_FAIL("an NVIDIA library was loaded before main");
		}
	}
}

/* One row a program: as shipped, then how many of its six runs through
 * the stubs on each machine printed what they should. */
static char table[16][1024];

static void test_programs(void)
{
	CU_ASSERT_FATAL(rp_program_count <= (int)(sizeof table / sizeof *table));
	if (prepare() != 0)
		goto out;
	for (int m = 0; m < rp_machine_count; m++)
		if (machine_libdirs(m) != 0)
			goto out;
	if (!*RP_TOOLKIT_CUDART13) {
		ts_unavailable("no 13.0 toolkit runtime here (its libcudart.so.13)");
		goto out;
	}
	for (int i = 0; i < rp_program_count; i++) {
		const struct rp_program *p = &rp_programs[i];
		int before = stubbed_runs, before_no_library = no_library_runs;
		char row[1024];

		if (run_as_shipped(p) != 0)
			goto out;
		snprintf(row, sizeof row, "| %s |", p->name);
		for (int m = 0; m < rp_machine_count; m++) {
			int right = run_through_stubs(p, m);

			if (shipped_started[m] && shipped_exit[m] < 0)
				snprintf(row + strlen(row), sizeof row - strlen(row),
					 " ends on a signal; %d of 6 the same |", right);
			else if (shipped_started[m])
				snprintf(row + strlen(row), sizeof row - strlen(row),
					 " exit %d; %d of 6 the same |", shipped_exit[m], right);
			else
				snprintf(row + strlen(row), sizeof row - strlen(row),
					 " cannot start; %d of 6 as on no GPU |", right);
		}
		snprintf(table[i], sizeof table[i], "%s", row);
		check_nothing_at_main(p);
		/* the machine without CUDA: the stub found no library there */
		CU_ASSERT(no_library_runs > before_no_library);
		printf("  %s: %d runs through the stubs print what it prints as shipped "
		       "(or on no GPU), %d of them with no library found (\"%s\")\n",
		       p->name, stubbed_runs - before, no_library_runs - before_no_library,
		       p->no_library_log);
	}
	CU_ASSERT(without_runtime > 0);
	printf("  %d runs in all, none crashed, hung or left a symbol unresolved\n", runs);
	/* the table: as shipped, then the six runs through the stubs */
	printf("\n| program |");
	for (int m = 0; m < rp_machine_count; m++)
		printf(" %s |", rp_machines[m].name);
	printf("\n| --- |");
	for (int m = 0; m < rp_machine_count; m++)
		printf(" --- |");
	printf("\n");
	for (int i = 0; i < rp_program_count; i++)
		printf("%s\n", table[i]);
out:
	if (*work)
		ts_remove_tree(work);
}

TS_TEST(test_programs, "through the stubs, each prints what it prints with NVIDIA's libraries");

static const struct ts_scenario scenarios[] = {{"program", program_child}, {NULL, NULL}};

TS_MAIN_SUITE("Debian's CUDA 11.8 programs, five machines, four variants", NULL, NULL, scenarios)

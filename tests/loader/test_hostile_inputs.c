/*
 * Hostile inputs: what a search may meet in the files and settings it does
 * not control. Each case gets its documented outcome, and never a crash,
 * for all three stubs (NVRTC, runtime, driver; NVRTC's alone under
 * valgrind), once as the override (CUDASTUB_<LIB>_PATH) and once first on
 * LD_LIBRARY_PATH:
 *   truncated copies, an empty file, a text file, an ELF of another
 *   machine, an ELF whose program headers lie past its end (each skipped
 *   before dlopen, with its reason: stubs/loader/search/loader_elf.c);
 *   the stub itself; a directory where the library should be;
 *   a relative path; a 100 KB path; control characters in a path (the
 *   error and every debug line escaped);
 *   bad pins (refused by name, nothing opened);
 *   a library whose version probe's first code is zeros (skipped after
 *   dlopen, before the probe runs: stubs/loader/search/loader_probe.c), the next
 *   copy on the path loaded.
 * The damaged files are made from a fake libnvrtc, named as each stub's
 * library.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ts_symbol_offset.h"
#include "loader_test.h"

struct stub {
	const char *lib;     /* cudastub_<lib>_info */
	const char *path;    /* the stub's file */
	const char *soname;  /* the file name a search looks for */
	const char *env;     /* CUDASTUB_<LIB> prefix of _PATH and _MAJOR */
	int no_library;	     /* the version probe's code without a library */
	const char *pin_err; /* what a refused pin says */
};

static const struct stub stubs[] = {
	{"nvrtc", LD_STUB_PATH, "libnvrtc.so.13", "CUDASTUB_NVRTC", 1034,
	 "give one of the majors this stub loads"},
	/* cudaErrorInsufficientDriver, CUDA_ERROR_NO_DEVICE: what NVIDIA's
	 * libraries answer on a machine without a driver, or a device */
	{"cudart", LD_CUDART_STUB, "libcudart.so.13", "CUDASTUB_CUDART", 35,
	 "give one of the majors this stub loads"},
	{"cuda", LD_CUDA_STUB, "libcuda.so.1", "CUDASTUB_CUDA", 100,
	 "give a CUDA major from 1 to 99"},
};

/* The stubs each case runs for: under valgrind, where each child takes a
 * second or more to start, the first alone; the three stubs' searches are
 * the same code, and the plain and sanitizer builds run every case for
 * each. */
#define STUBS_CHECKED ts_all_or_one_under_valgrind(sizeof stubs / sizeof *stubs)

/* ---- child: open the stub, make its first call, report ---- */

static int hostile_child(void)
{
	return ld_report_first_call(getenv("TEST_STUB"), getenv("TEST_LIB"));
}

/* ---- parent ---- */

/* Runs the child for stub with env (NULL-ended, any length); 0 when it ran
 * and exited 0 (a crash is a failure that names the case). */
static int run(const struct stub *s, const char *what, char **env, struct ts_child *c)
{
	char lib[64], path[4200];
	const char **all;
	size_t n = 0;

	while (env[n])
		n++;
	all = calloc(n + 3, sizeof *all);
	snprintf(lib, sizeof lib, "TEST_LIB=%s", s->lib);
	snprintf(path, sizeof path, "TEST_STUB=%s", s->path);
	all[0] = lib;
	all[1] = path;
	memcpy(all + 2, env, n * sizeof *env);
	if (ts_run_child("hostile", all, c) != 0 || c->exit_code != 0) {
		char msg[512];

		snprintf(msg, sizeof msg, "%s, %s: the child %s (exit %d)", s->lib, what,
			 c->exit_code < 0 ? "died on a signal" : "failed", c->exit_code);
		CU_assertImplementation(CU_FALSE, __LINE__, msg, __FILE__, "", CU_FALSE);
		fprintf(stderr, "%s\n%s%s\n", msg, c->out, c->err);
		free(all);
		return -1;
	}
	free(all);
	return 0;
}

/* A formatted copy for a child's environment (any length); free it. */
static char *str(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *str(const char *fmt, ...)
{
	va_list ap;
	char *out;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&out, fmt, ap);
	va_end(ap);
	return n < 0 ? NULL : out;
}

/* Writes size bytes of from (or, from NULL, of text) to path. */
static int write_file(const char *path, const char *from, size_t size, const char *text)
{
	char buf[65536];
	int in = from ? open(from, O_RDONLY) : -1,
	    out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	ssize_t got = from ? read(in, buf, size < sizeof buf ? size : sizeof buf) : 0;
	int ok = out >= 0 && (!from || got >= 0);

	if (ok && from)
		ok = write(out, buf, (size_t)got) == got;
	else if (ok && text)
		ok = write(out, text, strlen(text)) == (ssize_t)strlen(text);
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return ok ? 0 : -1;
}

/* A copy of the fake with a field of its ELF header changed. */
static int write_patched(const char *path, size_t at, const void *bytes, size_t n)
{
	int fd;
	int ok = ts_copy_file(ld_fake("nvrtc-13"), path) == 0 && (fd = open(path, O_WRONLY)) >= 0;

	if (ok) {
		ok = pwrite(fd, bytes, n, (off_t)at) == (ssize_t)n;
		close(fd);
	}
	return ok ? 0 : -1;
}

static size_t file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (size_t)st.st_size : 0;
}

/* One damaged or foreign file, made in folder under the stub's name. */
struct file_case {
	const char *name;
	const char *reason; /* in the attempt's outcome */
	int (*make)(const char *path);
};

static int make_truncated_1k(const char *path)
{
	return write_file(path, ld_fake("nvrtc-13"), 1024, NULL);
}

static int make_truncated_half(const char *path)
{
	return write_file(path, ld_fake("nvrtc-13"), file_size(ld_fake("nvrtc-13")) / 2, NULL);
}

static int make_empty(const char *path)
{
	return write_file(path, NULL, 0, "");
}

static int make_text(const char *path)
{
	return write_file(path, NULL, 0, "#!/bin/sh\necho not a library\n");
}

/* A machine that is not this build's, and how the stub names both. */
#if defined(__x86_64__)
#define OTHER_MACHINE	    EM_AARCH64
#define OTHER_MACHINE_WORDS "wrong architecture: aarch64 (this process is x86-64)"
#else
#define OTHER_MACHINE	    EM_X86_64
#define OTHER_MACHINE_WORDS "wrong architecture: x86-64 (this process is aarch64)"
#endif

static int make_other_machine(const char *path)
{
	uint16_t machine = OTHER_MACHINE;

	return write_patched(path, offsetof(Elf64_Ehdr, e_machine), &machine, sizeof machine);
}

static int make_headers_past_end(const char *path)
{
	uint64_t phoff = file_size(ld_fake("nvrtc-13")) + 64;

	return write_patched(path, offsetof(Elf64_Ehdr, e_phoff), &phoff, sizeof phoff);
}

static const struct file_case file_cases[] = {
	{"truncated at 1 KiB", "skipped: truncated: a loadable segment ends at", make_truncated_1k},
	{"truncated at half", "skipped: truncated", make_truncated_half},
	{"empty", "skipped: empty file", make_empty},
	{"text", "skipped: not an ELF file", make_text},
	{"another machine", "skipped: " OTHER_MACHINE_WORDS, make_other_machine},
	{"program headers past the end",
	 "skipped: truncated: its program headers end past the end of the file",
	 make_headers_past_end},
};

/* The search failed as an override that could not be loaded fails. */
static void expect_override_failed(const struct stub *s, const struct ts_child *c)
{
	CU_ASSERT_EQUAL(ld_long(c, "state"), CUDASTUB_STATE_OVERRIDE_FAILED);
	CU_ASSERT_EQUAL(ld_long(c, "rc"), s->no_library);
	CU_ASSERT_EQUAL(ld_long(c, "value"), 0);
	CU_ASSERT_TRUE(ld_has(c, "error", "could not be loaded") ||
		       ld_has(c, "error", "is refused"));
	CU_ASSERT_EQUAL(ld_long(c, "error_raw_controls"), 0);
}

static void test_damaged_files(void)
{
	for (size_t k = 0; k < STUBS_CHECKED; k++) {
		const struct stub *s = &stubs[k];

		for (size_t i = 0; i < sizeof file_cases / sizeof *file_cases; i++) {
			const struct file_case *f = &file_cases[i];
			char dir[4096], file[4200];
			struct ts_child c;

			if (!ts_tmpdir("hostile", dir, sizeof dir)) {
				CU_FAIL("no temporary folder");
				return;
			}
			snprintf(file, sizeof file, "%s/%s", dir, s->soname);
			CU_ASSERT_EQUAL_FATAL(f->make(file), 0);
			char *as_override[] = {str("%s_PATH=%s", s->env, file), NULL};
			char *on_path[] = {str("LD_LIBRARY_PATH=%s", dir), NULL};

			if (run(s, f->name, as_override, &c) == 0) {
				expect_override_failed(s, &c);
				CU_ASSERT_TRUE(ld_attempted_within(&c, file, f->reason));
				CU_ASSERT_EQUAL(ld_long(&c, "dlopen_calls"), 0);
			}
			if (run(s, f->name, on_path, &c) == 0) {
				CU_ASSERT_TRUE(ld_attempted_within(&c, file, f->reason));
				CU_ASSERT_FALSE(ld_has(&c, "path", dir));
			}
			free(as_override[0]);
			free(on_path[0]);
			ts_remove_tree(dir);
		}
	}
}

TS_TEST(test_damaged_files, "damaged and foreign files: skipped before dlopen");

/* The stub itself under the library's name, and a directory there. */
static void test_self_and_directory(void)
{
	for (size_t k = 0; k < STUBS_CHECKED; k++) {
		const struct stub *s = &stubs[k];
		char dir[4096], self[4200], folder[4200];
		struct ts_child c;

		if (!ts_tmpdir("hostile", dir, sizeof dir)) {
			CU_FAIL("no temporary folder");
			return;
		}
		snprintf(self, sizeof self, "%s/self/%s", dir, s->soname);
		snprintf(folder, sizeof folder, "%s/folder/%s", dir, s->soname);
		CU_ASSERT_EQUAL_FATAL(ld_mkdirs(folder), 0);
		CU_ASSERT_EQUAL_FATAL(ld_mkdirs(ld_fmt("%s/self", dir)), 0);
		CU_ASSERT_EQUAL_FATAL(ld_link(s->path, self), 0);
		char *self_override[] = {str("%s_PATH=%s", s->env, self), NULL};
		char *self_path[] = {str("LD_LIBRARY_PATH=%s/self", dir), NULL};
		char *dir_override[] = {str("%s_PATH=%s", s->env, folder), NULL};
		char *dir_path[] = {str("LD_LIBRARY_PATH=%s/folder", dir), NULL};

		if (run(s, "the stub itself", self_override, &c) == 0) {
			expect_override_failed(s, &c);
			CU_ASSERT_TRUE(
				ld_attempted_within(&c, self, "skipped: this stub's own file"));
		}
		if (run(s, "the stub itself", self_path, &c) == 0)
			CU_ASSERT_TRUE(
				ld_attempted_within(&c, self, "skipped: this stub's own file"));
		/* an override naming a folder looks inside it */
		if (run(s, "a directory", dir_override, &c) == 0) {
			expect_override_failed(s, &c);
			CU_ASSERT_TRUE(ld_attempted_within(&c, folder, "absent"));
		}
		if (run(s, "a directory", dir_path, &c) == 0)
			CU_ASSERT_TRUE(ld_attempted_within(&c, folder,
							   "skipped: not a file: a directory"));
		free(self_override[0]);
		free(self_path[0]);
		free(dir_override[0]);
		free(dir_path[0]);
		ts_remove_tree(dir);
	}
}

TS_TEST(test_self_and_directory, "the stub itself, a directory");

/* A relative path: refused as an override; a relative LD_LIBRARY_PATH
 * folder is the loader's, relative to the working folder, and its file is
 * checked like any other. */
static void test_relative_path(void)
{
	for (size_t k = 0; k < STUBS_CHECKED; k++) {
		const struct stub *s = &stubs[k];
		char rel[128], file[256];
		struct ts_child c;

		snprintf(rel, sizeof rel, "cudastub-hostile-rel-%d", (int)getpid());
		snprintf(file, sizeof file, "%s/%s", rel, s->soname);
		CU_ASSERT_EQUAL_FATAL(ld_mkdirs(rel), 0);
		CU_ASSERT_EQUAL_FATAL(make_truncated_1k(file), 0);
		char *as_override[] = {str("%s_PATH=%s", s->env, file), NULL};
		char *on_path[] = {str("LD_LIBRARY_PATH=%s", rel), NULL};

		if (run(s, "a relative path", as_override, &c) == 0) {
			expect_override_failed(s, &c);
			CU_ASSERT_TRUE(ld_has(&c, "error", "is not an absolute path"));
			CU_ASSERT_EQUAL(ld_long(&c, "dlopen_calls"), 0);
		}
		if (run(s, "a relative path", on_path, &c) == 0)
			CU_ASSERT_TRUE(ld_attempted_within(&c, file, "skipped: truncated"));
		free(as_override[0]);
		free(on_path[0]);
		ts_remove_tree(rel);
	}
}

TS_TEST(test_relative_path, "a relative path");

/* 100 KB: too long for any file name; the error keeps its head and its
 * end, the log its conclusion. */
static void test_long_path(void)
{
	enum { LONG = 100 * 1024 };
	char *value = malloc(LONG + 1);

	CU_ASSERT_PTR_NOT_NULL_FATAL(value);
	value[0] = '/';
	memset(value + 1, 'a', LONG - 1);
	value[LONG] = '\0';
	for (size_t k = 0; k < STUBS_CHECKED; k++) {
		const struct stub *s = &stubs[k];
		struct ts_child c;
		char *as_override[] = {str("%s_PATH=%s", s->env, value), NULL};
		char *on_path[] = {str("LD_LIBRARY_PATH=%s", value), NULL};

		if (run(s, "a 100 KB path", as_override, &c) == 0) {
			expect_override_failed(s, &c);
			CU_ASSERT_TRUE(ld_has(&c, "error", "...(102400 bytes)..."));
			CU_ASSERT_TRUE(ld_has(&c, "error", "could not be loaded (no fallback"));
			CU_ASSERT_TRUE(ld_attempted_within(&c, "aaaa", "name too long"));
			CU_ASSERT_FALSE(ld_has(&c, "error", "(log full)"));
		}
		/* nothing there to open; the search goes on past it */
		if (run(s, "a 100 KB path", on_path, &c) == 0)
			CU_ASSERT_FALSE(ld_attempted_within(&c, "aaaa", ""));
		free(as_override[0]);
		free(on_path[0]);
	}
	free(value);
}

TS_TEST(test_long_path, "a 100 KB path");

/* Whether every line of a debug log is the stub's own: none starts with
 * the fake line a path tried to print, and no escape character is there. */
static int debug_lines_hold(const char *err, const char *lib)
{
	char fake[64];

	snprintf(fake, sizeof fake, "cudastub[%s] fake", lib);
	if (strchr(err, '\x1b'))
		return 0;
	for (const char *line = err; line && *line; line = strchr(line, '\n')) {
		line += *line == '\n';
		if (!strncmp(line, fake, strlen(fake)))
			return 0;
	}
	return 1;
}

static void test_control_characters(void)
{
	for (size_t k = 0; k < STUBS_CHECKED; k++) {
		const struct stub *s = &stubs[k];
		char dir[4096], inner[4300], file[4400], fake_line[64];
		struct ts_child c;

		if (!ts_tmpdir("hostile", dir, sizeof dir)) {
			CU_FAIL("no temporary folder");
			return;
		}
		/* no colon: LD_LIBRARY_PATH would split the folder there */
		snprintf(fake_line, sizeof fake_line, "cudastub[%s] fake", s->lib);
		snprintf(inner, sizeof inner, "%s/ctl\x1b[2J\n%s", dir, fake_line);
		snprintf(file, sizeof file, "%s/%s", inner, s->soname);
		CU_ASSERT_EQUAL_FATAL(ld_mkdirs(inner), 0);
		CU_ASSERT_EQUAL_FATAL(make_truncated_1k(file), 0);
		char *as_override[] = {str("%s_PATH=%s", s->env, file), "CUDASTUB_DEBUG=1", NULL};
		char *on_path[] = {str("LD_LIBRARY_PATH=%s", inner), "CUDASTUB_DEBUG=1", NULL};

		if (run(s, "control characters", as_override, &c) == 0) {
			expect_override_failed(s, &c);
			CU_ASSERT_TRUE(ld_has(&c, "error", "ctl\\x1b[2J\\x0acudastub["));
			CU_ASSERT_TRUE(ld_attempted_within(&c, "ctl", "skipped: truncated"));
			CU_ASSERT_TRUE(debug_lines_hold(c.err, s->lib));
			CU_ASSERT_PTR_NOT_NULL(strstr(c.err, "ctl\\x1b[2J\\x0acudastub["));
		}
		if (run(s, "control characters", on_path, &c) == 0) {
			CU_ASSERT_TRUE(ld_attempted_within(&c, "ctl", "skipped: truncated"));
			CU_ASSERT_TRUE(debug_lines_hold(c.err, s->lib));
			CU_ASSERT_PTR_NOT_NULL(strstr(c.err, "ctl\\x1b[2J\\x0acudastub["));
		}
		free(as_override[0]);
		free(on_path[0]);
		ts_remove_tree(dir);
	}
}

TS_TEST(test_control_characters, "control characters: escaped in errors and debug lines");

/* Pins that are not a major written plainly: refused by name before any
 * search, whatever the override or the path hold. */
static void test_bad_pins(void)
{
	static const char *const pins[] = {" 12", "+12", "012", "12 ",	"12x",
					   "0",	  "-1",	 "100", "13.0", "1\n2"};

	for (size_t k = 0; k < STUBS_CHECKED; k++) {
		const struct stub *s = &stubs[k];

		for (size_t i = 0; i < sizeof pins / sizeof *pins; i++) {
			struct ts_child c;
			char want[64];
			char *as_override[] = {str("%s_MAJOR=%s", s->env, pins[i]),
					       str("%s_PATH=%s", s->env, ld_fake("nvrtc-13")),
					       NULL};
			char *on_path[] = {str("%s_MAJOR=%s", s->env, pins[i]),
					   str("LD_LIBRARY_PATH=%s", ld_fake_dir("nvrtc-13")),
					   NULL};

			snprintf(want, sizeof want, "_MAJOR=\"%s\" is refused",
				 strchr(pins[i], '\n') ? "1\\x0a2" : pins[i]);
			for (int mode = 0; mode < 2; mode++) {
				if (run(s, pins[i], mode ? on_path : as_override, &c) != 0)
					continue;
				CU_ASSERT_EQUAL(ld_long(&c, "state"), CUDASTUB_STATE_NOT_FOUND);
				CU_ASSERT_EQUAL(ld_long(&c, "rc"), s->no_library);
				CU_ASSERT_TRUE(ld_has(&c, "error", want));
				CU_ASSERT_TRUE(ld_has(&c, "error", s->pin_err));
				CU_ASSERT_EQUAL(ld_long(&c, "dlopen_calls"), 0);
				CU_ASSERT_EQUAL(ld_long(&c, "error_raw_controls"), 0);
			}
			free(as_override[0]);
			free(as_override[1]);
			free(on_path[0]);
			free(on_path[1]);
		}
	}
}

TS_TEST(test_bad_pins, "bad pins: refused by name, nothing opened");

/* Each stub's healthy fake and the function its probe calls first. */
static const struct {
	const char *lib, *fake, *probe;
} probes[] = {
	{"nvrtc", NULL, "nvrtcVersion"},
	{"cudart", LD_FAKE_CUDART, "cudaRuntimeGetVersion"},
	{"cuda", LD_FAKE_DRIVER, "cuDriverGetVersion"},
};

/* A copy of the fake with its probe's first 16 bytes zeroed (a lost
 * sector), first on LD_LIBRARY_PATH, the fake itself after it: the stub
 * refuses the copy before calling into it, says why, and loads the fake. */
static void test_zeroed_probe(void)
{
	static const char zeros[16];

	for (size_t k = 0; k < STUBS_CHECKED; k++) {
		const struct stub *s = &stubs[k];
		const char *fake = probes[k].fake ? probes[k].fake : ld_fake("nvrtc-13");
		const char *name = strrchr(fake, '/') + 1;
		char dir[4096], copy[4200], fake_dir[4096], want[128];
		long at = ts_symbol_offset(fake, probes[k].probe);
		struct ts_child c;
		int fd;

		CU_ASSERT_FATAL(at > 0);
		snprintf(fake_dir, sizeof fake_dir, "%.*s", (int)(name - 1 - fake), fake);
		if (!ts_tmpdir("hostile", dir, sizeof dir)) {
			CU_FAIL("no temporary folder");
			return;
		}
		snprintf(copy, sizeof copy, "%s/%s", dir, name);
		CU_ASSERT_EQUAL_FATAL(ts_copy_file(fake, copy), 0);
		fd = open(copy, O_WRONLY);
		CU_ASSERT_FATAL(fd >= 0);
		CU_ASSERT_EQUAL(pwrite(fd, zeros, sizeof zeros, (off_t)at), (ssize_t)sizeof zeros);
		close(fd);
		char *on_path[] = {str("LD_LIBRARY_PATH=%s:%s", dir, fake_dir), NULL};

		snprintf(want, sizeof want, "skipped: damaged: the code of %s", probes[k].probe);
		if (run(s, "a zeroed probe", on_path, &c) == 0) {
			CU_ASSERT_TRUE(ld_attempted_within(&c, copy, want));
			CU_ASSERT_EQUAL(ld_long(&c, "state"), CUDASTUB_STATE_LOADED);
			CU_ASSERT_EQUAL(ld_long(&c, "rc"), 0);
			CU_ASSERT_TRUE(ld_has(&c, "path", fake_dir));
		}
		free(on_path[0]);
		ts_remove_tree(dir);
	}
}

TS_TEST(test_zeroed_probe, "a probe whose first code is zeros: skipped, the next copy loaded");

static const struct ts_scenario scenarios[] = {{"hostile", hostile_child}, {NULL, NULL}};

TS_MAIN_SUITE("hostile inputs: every stub, as override and on the path", NULL, NULL, scenarios)

/*
 * cudastub patch on whole trees: what it leaves alone (static programs,
 * files patchelf cannot read) and its exit status, the stub folder that
 * does not exist yet, symbolic links, and the NVIDIA libraries no stub
 * covers. The programs are built here (E2E_CC), so each tree is small and
 * its contents known.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_run.h"
#include "cli_suites.h"
#include "ts_files.h"

#define STR_(x) #x
#define STR(x)	STR_(x)
/* the runtime SONAME of the build's ABI, and the stubs a file that needs
 * it gets (their file names, which are their SONAMEs) */
#define CUDART_SONAME "libcudart.so." STR(E2E_ABI_MAJOR)
#define NVRTC_SONAME  "libnvrtc.so." STR(E2E_ABI_MAJOR)
#define CUDART_STUB   E2E_CUDART_STUB_NAME

static struct ts_child out;
static char dir[4096];

/* Runs a shell command (printf-style); its exit status, or -1. */
static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
	char cmd[16384];
	char *argv[] = {"/bin/sh", "-c", cmd, NULL};
	struct ts_child *c = malloc(sizeof *c);
	va_list ap;
	int status = -1;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	if (c && ts_run_program(argv, NULL, NULL, c) == 0)
		status = c->exit_code;
	if (c && status != 0)
		fprintf(stderr, "%s: exit %d\n%s%s\n", cmd, status, c->out, c->err);
	free(c);
	return status;
}

/* Runs `cudastub patch args...` (NULL-terminated) and asserts its exit
 * status; the output stays in out. */
#define patch_expect(status, ...) patch_expect_at(__LINE__, status, __VA_ARGS__, NULL)
static void patch_expect_at(int line, int status, ...)
{
	const char *args[15] = {"patch"};
	va_list ap;
	int n = 1;

	va_start(ap, status);
	while (n < 14 && (args[n] = va_arg(ap, const char *)))
		n++;
	va_end(ap);
	args[n] = NULL;
	CU_ASSERT_EQUAL_FATAL(cli_run(E2E_CLI, args, NULL, &out), 0);
	if (out.exit_code != status)
		fprintf(stderr, "line %d: cudastub patch exited %d, not %d:\n%s%s\n", line,
			out.exit_code, status, out.out, out.err);
	CU_ASSERT_EQUAL(out.exit_code, status);
}

/* The output (stdout then stderr) holds "<dir>/<name><rest>". */
static int said(const char *name, const char *rest)
{
	char want[8192];

	snprintf(want, sizeof want, "%s/%s%s", dir, name, rest);
	if (strstr(out.out, want) || strstr(out.err, want))
		return 1;
	fprintf(stderr, "expected \"%s\" in:\n%s%s\n", want, out.out, out.err);
	return 0;
}

/* A fresh tree in dir; 0, or -1 with the test failed. */
static int fresh_tree(const char *tag)
{
	if (!ts_present("/usr/bin/patchelf", "apt-get install patchelf"))
		return -1;
	char made[4096];

	/* its real path: the command reports links by their targets' */
	if (!ts_tmpdir(tag, made, sizeof made) || !realpath(made, dir)) {
		CU_FAIL("no temporary folder");
		return -1;
	}
	return 0;
}

/* <dir>/<name>: a dynamic program that needs the runtime (a copy of
 * /bin/true with one DT_NEEDED more, never run). */
static int cuda_program(const char *name)
{
	return sh("cp /bin/true '%s/%s' && patchelf --add-needed " CUDART_SONAME " '%s/%s'", dir,
		  name, dir, name);
}

/* A statically linked program (glibc's static libc) beside a patchable
 * one, and a file patchelf cannot read: each is left alone, the run exits
 * 0, and --check passes once the patchable one is patched. */
static void test_static_and_unreadable_left_alone(void)
{
	if (fresh_tree("cli-patch-static") != 0)
		return;
	CU_ASSERT_EQUAL_FATAL(sh("printf 'int main(void){return 0;}\\n' > '%s/m.c' && "
				 "'%s' -static -o '%s/static' '%s/m.c'",
				 dir, E2E_CC, dir, dir),
			      0);
	CU_ASSERT_EQUAL_FATAL(cuda_program("prog"), 0);
	patch_expect(1, "--check", dir); /* prog is not patched yet */
	CU_ASSERT(said("prog", ": " CUDART_SONAME " -> " CUDART_STUB ";"));
	patch_expect(0, dir);
	CU_ASSERT(said("prog", ": " CUDART_SONAME " -> " CUDART_STUB ";"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "1 statically linked"));
	CU_ASSERT_STRING_EQUAL(out.err, "");
	patch_expect(0, "--check", dir);
	{
		char stubs[4200];

		snprintf(stubs, sizeof stubs, "%s/cudastub", dir);
		patch_expect(0, "--check", "--stub-dir", stubs, dir);
	}
	/* named, it is reported by name */
	{
		char file[4200];

		snprintf(file, sizeof file, "%s/static", dir);
		patch_expect(0, file);
		CU_ASSERT(said("static", ": statically linked; left alone"));
		/* an ELF file cut short: its program headers say dynamic, but
		 * patchelf cannot read it */
		CU_ASSERT_EQUAL_FATAL(
			sh("head -c 2048 /bin/true > '%s/cut' && chmod +x '%s/cut'", dir, dir), 0);
		snprintf(file, sizeof file, "%s/cut", dir);
		patch_expect(0, file);
		CU_ASSERT(said("cut", ": patchelf cannot read it; left alone"));
		patch_expect(0, "--check", dir);
		CU_ASSERT(said("cut", ": patchelf cannot read it; left alone"));
	}
	ts_remove_tree(dir);
}

/* --dry-run and --check print the plan for a stub folder that does not
 * exist yet, and leave it unmade; --stub-dir=DIR is --stub-dir DIR; a real
 * run makes the folder, with those above it. */
static void test_stub_folder_to_be(void)
{
	char prog[4200], lib[4200], lib_opt[4300], stub[4300];
	struct stat st;

	if (fresh_tree("cli-patch-stubdir") != 0)
		return;
	CU_ASSERT_EQUAL_FATAL(cuda_program("prog"), 0);
	snprintf(prog, sizeof prog, "%s/prog", dir);
	snprintf(lib, sizeof lib, "%s/new/lib", dir);
	snprintf(lib_opt, sizeof lib_opt, "--stub-dir=%s", lib);
	patch_expect(0, "--dry-run", "--stub-dir", lib, prog);
	CU_ASSERT(said("prog", ": " CUDART_SONAME " -> " CUDART_STUB "; RUNPATH $ORIGIN/new/lib;"
			       " copy " CUDART_STUB ";"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "would patch"));
	patch_expect(1, "--check", lib_opt, dir);
	CU_ASSERT(said("prog", ": " CUDART_SONAME " -> " CUDART_STUB "; RUNPATH $ORIGIN/new/lib;"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "not patched:"));
	CU_ASSERT_NOT_EQUAL(stat(lib, &st), 0); /* neither made the folder */
	patch_expect(0, lib_opt, prog);
	snprintf(stub, sizeof stub, "%s/" CUDART_STUB, lib);
	CU_ASSERT_EQUAL(stat(stub, &st), 0);
	patch_expect(0, "--check", lib_opt, dir);
	/* the option without its value is a usage error that says so */
	patch_expect(2, prog, "--stub-dir");
	CU_ASSERT_PTR_NOT_NULL(strstr(out.err, "--stub-dir needs a folder"));
	patch_expect(2, "--stub-dir=", prog);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.err, "--stub-dir= needs a folder"));
	ts_remove_tree(dir);
}

/* Where ld.so finds the runtime's stub for <dir>/<name> (its trace of the
 * objects a program loads; no program runs), its real path in where
 * (PATH_MAX bytes); 0 or -1. */
static int stub_resolved(const char *name, char *where, size_t size)
{
	char cmd[8400], line[4400], named[4400];
	static const char format[] = " " CUDART_STUB " => %4095s";
	FILE *p;
	int found = -1;

	snprintf(cmd, sizeof cmd, "LD_TRACE_LOADED_OBJECTS=1 '%s/%s' 2>&1", dir, name);
	if (!(p = popen(cmd, "r")))
		return -1;
	while (fgets(line, sizeof line, p))
		/* ld.so prints the path as the RUNPATH spelt it ("bin/../lib") */
		if (found != 0 && sscanf(line, format, named) == 1 && size >= PATH_MAX &&
		    realpath(named, where))
			found = 0;
	pclose(p);
	return found;
}

/* A tree as `dpkg -x` unpacks a package: programs in usr/bin, a library, a
 * folder of plugins, a static program. Without --stub-dir its stubs go into
 * one folder, usr/lib/cudastub, never into a folder of programs or plugins;
 * each patched file finds them there through its own RUNPATH; --dry-run
 * makes nothing and a second run and --check change nothing. */
static void test_one_stub_folder_per_tree(void)
{
	char stubs[4200], where[4200], want[8600], file[4300];
	struct stat st;

	if (fresh_tree("cli-patch-tree") != 0)
		return;
	CU_ASSERT_EQUAL_FATAL(
		sh("mkdir -p '%s/usr/bin' '%s/usr/lib/x86_64-linux-gnu/hwloc'", dir, dir), 0);
	CU_ASSERT_EQUAL_FATAL(cuda_program("usr/bin/prog"), 0);
	CU_ASSERT_EQUAL_FATAL(cuda_program("usr/lib/x86_64-linux-gnu/libuses.so.1"), 0);
	CU_ASSERT_EQUAL_FATAL(cuda_program("usr/lib/x86_64-linux-gnu/hwloc/hwloc_cuda.so"), 0);
	CU_ASSERT_EQUAL_FATAL(sh("printf 'int main(void){return 0;}\\n' > '%s/m.c' && "
				 "'%s' -static -o '%s/usr/bin/static' '%s/m.c' && rm '%s/m.c'",
				 dir, E2E_CC, dir, dir, dir),
			      0);
	snprintf(stubs, sizeof stubs, "%s/usr/lib/cudastub", dir);
	patch_expect(0, "--dry-run", dir);
	CU_ASSERT(said("usr/bin/prog",
		       ": " CUDART_SONAME " -> " CUDART_STUB "; RUNPATH $ORIGIN/../lib/cudastub;"));
	snprintf(want, sizeof want, "%s: the stubs of this tree would go into %s", dir, stubs);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, want));
	CU_ASSERT_NOT_EQUAL(stat(stubs, &st), 0);
	patch_expect(0, dir);
	CU_ASSERT(said("usr/lib/x86_64-linux-gnu/hwloc/hwloc_cuda.so",
		       ": " CUDART_SONAME " -> " CUDART_STUB "; RUNPATH $ORIGIN/../../cudastub;"));
	snprintf(want, sizeof want, "%s: the stubs of this tree are in %s", dir, stubs);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, want));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "1 statically linked"));
	/* one copy of the stub in the whole tree, in its own folder */
	snprintf(file, sizeof file, "%s/" CUDART_STUB, stubs);
	CU_ASSERT_EQUAL(stat(file, &st), 0);
	CU_ASSERT_EQUAL(sh("test $(find '%s' -name 'lib*_stub*.so' | wc -l) = 1", dir), 0);
	snprintf(want, sizeof want, "%s/" CUDART_STUB, stubs);
	CU_ASSERT_EQUAL(stub_resolved("usr/bin/prog", where, sizeof where), 0);
	CU_ASSERT_STRING_EQUAL(where, want);
	CU_ASSERT_EQUAL(stub_resolved("usr/lib/x86_64-linux-gnu/libuses.so.1", where, sizeof where),
			0);
	CU_ASSERT_STRING_EQUAL(where, want);
	patch_expect(0, "--check", dir);
	patch_expect(0, dir);
	CU_ASSERT_PTR_NULL(strstr(out.out, " -> "));
	CU_ASSERT(said("usr/bin/prog", ": already patched"));
	ts_remove_tree(dir);
}

/* How many times the output holds "<dir>/<name><rest>". */
static int times_said(const char *name, const char *rest)
{
	char want[8192];
	int n = 0;

	snprintf(want, sizeof want, "%s/%s%s", dir, name, rest);
	for (const char *p = strstr(out.out, want); p; p = strstr(p + 1, want))
		n++;
	return n;
}

/* A link named on the command line: its target is patched, once, and the
 * link kept. A folder walk reports each link: one to a file in the tree
 * is not patched a second time, one outside is left alone. */
static void test_symbolic_links(void)
{
	char link[4200], prog[4200], link2[4200];
	struct stat st;

	if (fresh_tree("cli-patch-links") != 0)
		return;
	CU_ASSERT_EQUAL_FATAL(sh("mkdir '%s/tree' '%s/outside'", dir, dir), 0);
	CU_ASSERT_EQUAL_FATAL(cuda_program("tree/prog"), 0);
	CU_ASSERT_EQUAL_FATAL(cuda_program("tree/prog2"), 0);
	CU_ASSERT_EQUAL_FATAL(cuda_program("outside/ext"), 0);
	CU_ASSERT_EQUAL_FATAL(sh("cd '%s/tree' && ln -s prog link && ln -s prog2 link2 && "
				 "ln -s ../outside/ext extlink",
				 dir),
			      0);
	snprintf(link, sizeof link, "%s/tree/link", dir);
	snprintf(prog, sizeof prog, "%s/tree/prog", dir);
	snprintf(link2, sizeof link2, "%s/tree/link2", dir);
	patch_expect(0, link);
	CU_ASSERT(said("tree/link", ": a symbolic link to "));
	CU_ASSERT(said("tree/prog", "; the link is kept"));
	CU_ASSERT(said("tree/prog", ": " CUDART_SONAME " -> " CUDART_STUB ";"));
	CU_ASSERT(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
	patch_expect(0, "--check", prog);
	/* named twice, as the link and as the file: planned once */
	patch_expect(0, "--dry-run", link2, prog, link2);
	CU_ASSERT_EQUAL(times_said("tree/prog2", ": " CUDART_SONAME), 1);
	/* walked: prog2 once, each link reported */
	snprintf(link, sizeof link, "%s/tree", dir);
	patch_expect(0, "--dry-run", link);
	CU_ASSERT_EQUAL(times_said("tree/prog2", ": " CUDART_SONAME), 1);
	CU_ASSERT(said("tree/link2", ": a symbolic link to "));
	CU_ASSERT(said("tree/prog2", ", dealt with as itself; the link is kept"));
	CU_ASSERT(said("tree/extlink", ": a symbolic link to "));
	CU_ASSERT(said("outside/ext", ", outside the folders given; left alone"));
	CU_ASSERT_EQUAL(times_said("outside/ext", ": " CUDART_SONAME), 0);
	/* a link to nothing: reported in a walk; named, a failure */
	CU_ASSERT_EQUAL_FATAL(sh("ln -s gone '%s/tree/dangling'", dir), 0);
	patch_expect(0, "--dry-run", link);
	CU_ASSERT(said("tree/dangling", ": a symbolic link to nothing; left alone"));
	snprintf(link, sizeof link, "%s/tree/dangling", dir);
	patch_expect(1, "--dry-run", link);
	CU_ASSERT(said("tree/dangling", ": No such file or directory"));
	ts_remove_tree(dir);
}

/* <dir>/<file>: a fake shared library whose SONAME is soname. */
static int fake_library(const char *file, const char *soname)
{
	return sh("printf 'int %s_fake(void){return 0;}\\n' > '%s/f.c' && '%s' -shared -fPIC "
		  "-Wl,-soname,%s -o '%s/%s' '%s/f.c'",
		  "lib", dir, E2E_CC, soname, dir, file, dir);
}

/* <dir>/prog: a program linked against each library given (file names in
 * dir), needing each whether or not it calls it. */
static int program_linking(const char *a, const char *b)
{
	return sh("printf 'int main(void){return 0;}\\n' > '%s/m.c' && cd '%s' && '%s' -o prog "
		  "m.c -Wl,--no-as-needed -L. -l:%s -l:%s",
		  dir, dir, E2E_CC, a, b);
}

/* A program that needs the runtime (a stub covers it) and cuTENSOR (none
 * does): the plan and the patch name cuTENSOR as still needed; --strict makes
 * that a failure, for --check and for the patch itself. */
static void test_uncovered_named(void)
{
	char prog[4200];

	if (fresh_tree("cli-patch-uncovered") != 0)
		return;
	CU_ASSERT_EQUAL_FATAL(fake_library("libcutensor.so.2", "libcutensor.so.2"), 0);
	CU_ASSERT_EQUAL_FATAL(fake_library(CUDART_SONAME, CUDART_SONAME), 0);
	CU_ASSERT_EQUAL_FATAL(program_linking("libcutensor.so.2", CUDART_SONAME), 0);
	snprintf(prog, sizeof prog, "%s/prog", dir);
	patch_expect(0, "--dry-run", prog);
	CU_ASSERT(said("prog", ": " CUDART_SONAME " -> " CUDART_STUB ";"));
	CU_ASSERT(said("prog", ":") && strstr(out.out, " still needs libcutensor.so.2: no stub;"));
	patch_expect(1, "--check", "--strict", prog);
	patch_expect(1, "--strict", "--dry-run", prog);
	patch_expect(0, prog);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "still needs libcutensor.so.2: no stub"));
	patch_expect(0, "--check", prog); /* patched: nothing would change */
	CU_ASSERT(said("prog", ": already patched; still needs libcutensor.so.2: no stub;"));
	patch_expect(1, "--check", "--strict", prog);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "1 files still need NVIDIA libraries"));
	patch_expect(1, "--strict", prog);
	/* the fake libraries themselves need nothing of NVIDIA's: --strict passes
	 * on them */
	snprintf(prog, sizeof prog, "%s/libcutensor.so.2", dir);
	patch_expect(0, "--check", "--strict", prog);
	ts_remove_tree(dir);
}

/* The NVIDIA name of another CUDA major than the build's */
#if E2E_ABI_MAJOR == 13
#define OTHER_MAJOR "12"
#else
#define OTHER_MAJOR "13"
#endif

/* The line of <dir>/prog in the output, in a static buffer ("" if none). */
static const char *prog_line(void)
{
	static char line[8192];
	char want[4200];
	const char *at;

	snprintf(want, sizeof want, "%s/prog:", dir);
	line[0] = '\0';
	if ((at = strstr(out.out, want)))
		snprintf(line, sizeof line, "%.*s", (int)strcspn(at, "\n"), at);
	return line;
}

/* A program that needs the runtime (a stub stands in), cuTENSOR and a
 * cuDNN sub-library (no stub exists): patched for the runtime, and every
 * other one named on its one line; --strict fails. Given NVRTC of another
 * CUDA major too, it names two majors, which no release's program does:
 * refused, and left as it was. */
static void test_uncovered_one_line(void)
{
	char prog[4200];
	const char *line;

	if (fresh_tree("cli-patch-uncovered-line") != 0)
		return;
	CU_ASSERT_EQUAL_FATAL(cuda_program("prog"), 0);
	snprintf(prog, sizeof prog, "%s/prog", dir);
	CU_ASSERT_EQUAL_FATAL(sh("cp '%s' '%s.two' && patchelf --add-needed libcutensor.so.2 '%s' "
				 "&& patchelf --add-needed libcudnn_ops.so.9 '%s' && patchelf "
				 "--add-needed libnvrtc.so." OTHER_MAJOR " '%s.two'",
				 prog, prog, prog, prog, prog),
			      0);
	patch_expect(1, "--strict", "--dry-run", prog);
	patch_expect(0, prog);
	line = prog_line();
	CU_ASSERT_PTR_NOT_NULL(strstr(line, CUDART_SONAME " -> " CUDART_STUB ";"));
	CU_ASSERT(strstr(line, " still needs libcutensor.so.2, libcudnn_ops.so.9: no stub;") ||
		  strstr(line, " still needs libcudnn_ops.so.9, libcutensor.so.2: no stub;"));
	CU_ASSERT_STRING_EQUAL(out.err, "");
	patch_expect(0, "--check", prog);
	CU_ASSERT_PTR_NOT_NULL(strstr(prog_line(), ": already patched; still needs"));
	patch_expect(1, "--check", "--strict", prog);
	/* two majors: refused, unchanged */
	CU_ASSERT_EQUAL_FATAL(sh("cp '%s.two' '%s.orig'", prog, prog), 0);
	{
		char two[4300];

		snprintf(two, sizeof two, "%s.two", prog);
		patch_expect(1, two);
	}
	CU_ASSERT(said("prog.two", ": it needs libraries of two CUDA majors; left alone"));
	CU_ASSERT_EQUAL(sh("cmp -s '%s.two' '%s.orig'", prog, prog), 0);
	ts_remove_tree(dir);
}

/* Libraries auditwheel grafted under hashed names (their SONAME the
 * hashed name): the runtime's is replaced by its stub, cuTENSOR's named
 * as still needed. */
static void test_auditwheel_names(void)
{
	static const char cudart[] = "libcudart-96c42e41.so." STR(E2E_ABI_MAJOR);
	char prog[4200], needed[4300];

	if (fresh_tree("cli-patch-grafted") != 0)
		return;
	CU_ASSERT_EQUAL_FATAL(fake_library(cudart, cudart), 0);
	CU_ASSERT_EQUAL_FATAL(
		fake_library("libcutensor-0a1b2c3d.so.2", "libcutensor-0a1b2c3d.so.2"), 0);
	CU_ASSERT_EQUAL_FATAL(program_linking(cudart, "libcutensor-0a1b2c3d.so.2"), 0);
	snprintf(prog, sizeof prog, "%s/prog", dir);
	patch_expect(0, prog);
	CU_ASSERT(
		said("prog", ": libcudart-96c42e41.so." STR(E2E_ABI_MAJOR) " -> " CUDART_STUB ";"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, " still needs libcutensor-0a1b2c3d.so.2: no stub;"));
	snprintf(needed, sizeof needed, "patchelf --print-needed '%s' | grep -qx " CUDART_STUB,
		 prog);
	CU_ASSERT_EQUAL(sh("%s", needed), 0);
	patch_expect(0, "--check", prog);
	ts_remove_tree(dir);
}

/* A walk reads each file's DT_NEEDED and RUNPATH itself (elf_dynamic.c):
 * patchelf, which reads a whole file per question, runs only on the files
 * that change. A patchelf on PATH that logs its arguments shows it. */
static void test_patchelf_only_for_changes(void)
{
	char path_var[4200 + 64], log[4200];
	const char *env[] = {path_var, NULL};
	const char *check[] = {"patch", "--check", dir, NULL};
	const char *patch[] = {"patch", dir, NULL};

	if (fresh_tree("cli-patch-reads") != 0)
		return;
	CU_ASSERT_EQUAL_FATAL(sh("mkdir '%s/bin' && printf '#!/bin/sh\\necho \"$*\" >> %s/log\\n"
				 "exec /usr/bin/patchelf \"$@\"\\n' > '%s/bin/patchelf' && "
				 "chmod +x '%s/bin/patchelf' && mkdir '%s/tree' && "
				 "for i in 1 2 3; do cp /bin/true '%s/tree/plain'$i; done",
				 dir, dir, dir, dir, dir, dir),
			      0);
	CU_ASSERT_EQUAL_FATAL(
		sh("cp /bin/true '%s/tree/prog' && patchelf --add-needed " CUDART_SONAME
		   " '%s/tree/prog'",
		   dir, dir),
		0);
	snprintf(path_var, sizeof path_var, "PATH=%s/bin:/usr/bin:/bin", dir);
	snprintf(log, sizeof log, "%s/log", dir);
	strcat(dir, "/tree");
	CU_ASSERT_EQUAL_FATAL(cli_run(E2E_CLI, check, env, &out), 0);
	CU_ASSERT_EQUAL(out.exit_code, 1);	   /* prog would change */
	CU_ASSERT_NOT_EQUAL(access(log, F_OK), 0); /* and patchelf never ran */
	CU_ASSERT_EQUAL_FATAL(cli_run(E2E_CLI, patch, env, &out), 0);
	CU_ASSERT_EQUAL(out.exit_code, 0);
	/* it ran on prog's copy only, never on the plain programs */
	CU_ASSERT_EQUAL(sh("grep -q prog '%s'", log), 0);
	CU_ASSERT_NOT_EQUAL(sh("grep -q plain '%s' 2>/dev/null", log), 0);
	*strrchr(dir, '/') = '\0';
	ts_remove_tree(dir);
}

/* --combined: every CUDA library a file needs becomes libcudastub_cu<major>,
 * copied beside it; the file runs; patched again, with or without the
 * option, nothing changes; a file that needs an earlier cudastub's
 * libcudastub.so (one name every build shared) gets this build's.
 * (test_combined.c runs a program with versioned needs.) */
static void test_combined(void)
{
#ifndef E2E_COMBINED
	ts_not_applicable("this build made no libcudastub.so (CUDASTUB_BUILD_COMBINED=OFF)");
#else
	static const char needs[] =
		"[ \"$(readelf -d '%s/%s' | sed -n "
		"'s/.*(NEEDED).*\\[\\(.*\\)\\]/\\1/p' | LC_ALL=C sort -u | tr '\\n' ' ')\" "
		"= 'libc.so.6 %s ' ]";

	if (fresh_tree("cli-patch-combined") != 0)
		return;
	for (int i = 0; i < 2; i++)
		CU_ASSERT_EQUAL_FATAL(
			sh("cp /bin/true '%s/app%d' && patchelf --add-needed " CUDART_SONAME
			   " '%s/app%d' && patchelf --add-needed " NVRTC_SONAME
			   " '%s/app%d' && patchelf --add-needed "
			   "libcuda.so.1 '%s/app%d'",
			   dir, i, dir, i, dir, i, dir, i),
			0);
	patch_expect(0, "--combined", dir);
	CU_ASSERT(said("app0",
		       ": " CUDART_SONAME " -> " E2E_COMBINED_NAME "; " NVRTC_SONAME
		       " -> " E2E_COMBINED_NAME "; libcuda.so.1 -> " E2E_COMBINED_NAME ";"));
	CU_ASSERT_EQUAL(sh(needs, dir, "app0", E2E_COMBINED_NAME), 0);
	/* /bin/true, patched to a sanitizer build's stub, would need that
	 * sanitizer's runtime first: run only a plain build's */
	if (!*E2E_SANITIZE)
		CU_ASSERT_EQUAL(sh("'%s/app0' && '%s/app1'", dir, dir), 0);
	CU_ASSERT_EQUAL(sh("[ -f '%s/cudastub/" E2E_COMBINED_NAME "' ] && "
			   "[ ! -e '%s/cudastub/" CUDART_STUB "' ]",
			   dir, dir),
			0);
	patch_expect(0, "--check", dir); /* a file that needs it is patched so */
	patch_expect(0, "--combined", "--check", dir);
	ts_remove_tree(dir);

	/* an earlier cudastub's one name: this build's file, of the ABI the
	 * versions the file needs of it say */
	if (fresh_tree("cli-patch-combined-old") != 0)
		return;
	CU_ASSERT_EQUAL_FATAL(sh("cp /bin/true '%s/app' && patchelf --add-needed " CUDART_SONAME
				 " '%s/app' && patchelf --replace-needed " CUDART_SONAME
				 " libcudastub.so '%s/app'",
				 dir, dir, dir),
			      0);
	patch_expect(0, "--stub-dir", dir, dir);
	CU_ASSERT(said("app", ": libcudastub.so -> " E2E_COMBINED_NAME ";"));
	CU_ASSERT_EQUAL(sh(needs, dir, "app", E2E_COMBINED_NAME), 0);
	patch_expect(0, "--check", dir);
	ts_remove_tree(dir);
#endif
}

void register_cli_patch(void)
{
	CU_pSuite s = CU_add_suite("cli_patch", NULL, NULL);

	CU_add_test(s, "static and unreadable files are left alone, exit 0",
		    test_static_and_unreadable_left_alone);
	CU_add_test(s, "--dry-run/--check need no stub folder; --stub-dir=DIR",
		    test_stub_folder_to_be);
	CU_add_test(s, "a tree gets one stub folder, none beside programs or plugins",
		    test_one_stub_folder_per_tree);
	CU_add_test(s, "symbolic links: followed when named, reported when walked",
		    test_symbolic_links);
	CU_add_test(s, "NVIDIA libraries no stub covers are named; --strict fails",
		    test_uncovered_named);
	CU_add_test(s, "every library no stub covers named on one line, the rest patched",
		    test_uncovered_one_line);
	CU_add_test(s, "patchelf runs only on the files that change",
		    test_patchelf_only_for_changes);
	CU_add_test(s, "auditwheel's hashed names: replaced, or named as still needed",
		    test_auditwheel_names);
	CU_add_test(s, "--combined: one libcudastub.so for every library a file needs",
		    test_combined);
}

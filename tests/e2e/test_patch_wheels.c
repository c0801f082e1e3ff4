/*
 * `cudastub patch` on wheels and on every form of path, and what --check
 * proves:
 *
 *   - the README's pipeline as written, from a relative path: a wheel
 *     whose extension module needs NVIDIA's runtime (a stand-in built
 *     here, with its symbol version), patched, installed and imported by
 *     Python with no CUDA and with that runtime;
 *   - every member of a wheel kept with its mode, whatever its name, RECORD
 *     right, and the .whl keeping its owner, group and mode;
 *   - relative paths, "..", a linked working folder and trailing slashes,
 *     for a file, a tree, an unpacked wheel and a .whl: each result loads;
 *   - --check fails on a wheel whose RUNPATH leads nowhere (into a
 *     temporary folder, as one worked out from a relative path would), on
 *     a stub missing a version a file needs, and on the private folders
 *     stopped runs left, which a run then removes (those of its own kind);
 *   - what the command prints through a pipe is what it prints on a
 *     terminal.
 */
#define _GNU_SOURCE
#include <CUnit/CUnit.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e_patch.h"
#include "test_support.h"
#include "ts_files.h"
#include "e2e_tools.h"

#define WHEEL "mypkg-1.0-py3-none-linux_x86_64.whl"

static struct ts_child out;
static char work[PATH_MAX];

/* The Python that builds and imports, with the wheel package and the
 * headers for an extension; 0 after a skip. */
static int python_ready(void)
{
	if (e2e_sh("/usr/bin/python3 -c 'import wheel.wheelfile, sysconfig, os, sys; "
		   "sys.exit(not os.path.exists(sysconfig.get_paths()[\"include\"] + "
		   "\"/Python.h\"))'") == 0)
		return 1;
	ts_unavailable("Python's wheel package and headers: apt-get install python3-wheel "
		       "python3-dev");
	return 0;
}

/*
 * work/rt/libcudart.so.<N>: a stand-in for NVIDIA's runtime, defining its
 * symbol version, its release (which the stub asks before it forwards) and
 * 7 devices; work/src/mypkg-1.0: an unpacked wheel whose module
 * (mypkg/_demo) needs it and calls cudaGetDeviceCount; work/dist/WHEEL,
 * that wheel packed. 0, or -1 after a failed assertion or a skip.
 */
static int lay_out(const char *tag)
{
	static const char module[] =
		"#include <Python.h>\n"
		"int cudaGetDeviceCount(int *count);\n"
		"static PyObject *count(PyObject *self, PyObject *args)\n"
		"{\n\tint n = -1, rc = cudaGetDeviceCount(&n);\n\n"
		"\t(void)self, (void)args;\n\treturn Py_BuildValue(\"(ii)\", rc, n);\n}\n"
		"static PyMethodDef methods[] = {{\"count\", count, METH_NOARGS, NULL},\n"
		"\t\t\t\t{NULL, NULL, 0, NULL}};\n"
		"static struct PyModuleDef demo = {PyModuleDef_HEAD_INIT, \"_demo\", NULL, -1, "
		"methods};\n"
		"PyMODINIT_FUNC PyInit__demo(void) { return PyModule_Create(&demo); }\n";
	char path[PATH_MAX + 32];
	FILE *f;

	if (!ts_present("/usr/bin/patchelf", "apt-get install patchelf") || !python_ready() ||
	    !e2e_workdir(tag, work, sizeof work))
		return -1;
	snprintf(path, sizeof path, "%s/module.c", work);
	if (!(f = fopen(path, "w")) || fputs(module, f) < 0 || fclose(f) != 0) {
		CU_FAIL("could not write the module");
		return -1;
	}
	if (e2e_sh("cd '%s' && mkdir rt && printf '%s { global: cudaGetDeviceCount; "
		   "cudaRuntimeGetVersion; local: *; };\\n' > rt/v.map && "
		   "printf 'int cudaGetDeviceCount(int *n){*n=7;return 0;}\\n"
		   "int cudaRuntimeGetVersion(int *v){*v=" E2E_STR(
			   E2E_ABI_MAJOR) "000;return 0;}\\n' "
					  "> rt/rt.c && '%s' -shared -fPIC -Wl,-soname,%s "
					  "-Wl,--version-script=rt/v.map "
					  "-o rt/%s rt/rt.c && "
					  "mkdir -p src/mypkg-1.0/mypkg "
					  "src/mypkg-1.0/mypkg-1.0.dist-info dist && "
					  "'%s' -shared -fPIC -I\"$(/usr/bin/python3 -c 'import "
					  "sysconfig; "
					  "print(sysconfig.get_paths()[\"include\"])')\" -o "
					  "\"src/mypkg-1.0/mypkg/_demo"
					  "$(/usr/bin/python3 -c 'import sysconfig; "
					  "print(sysconfig.get_config_var(\"EXT_SUFFIX\"))')\" "
					  "module.c -Lrt -l:%s && "
					  "echo 'from . import _demo' > "
					  "src/mypkg-1.0/mypkg/__init__.py && "
					  "printf 'Metadata-Version: 2.1\\nName: mypkg\\nVersion: "
					  "1.0\\n' > "
					  "src/mypkg-1.0/mypkg-1.0.dist-info/METADATA && printf "
					  "'Wheel-Version: "
					  "1.0\\nGenerator: test\\nRoot-Is-Purelib: false\\nTag: "
					  "py3-none-linux_x86_64\\n' > "
					  "src/mypkg-1.0/mypkg-1.0.dist-info/WHEEL && "
					  "/usr/bin/python3 -m wheel pack src/mypkg-1.0 -d dist "
					  ">/dev/null",
		   work, E2E_CUDART_NEEDED, E2E_CC, E2E_CUDART_NEEDED, E2E_CUDART_NEEDED, E2E_CC,
		   E2E_CUDART_NEEDED) != 0) {
		CU_FAIL("could not build the wheel");
		return -1;
	}
	return 0;
}

/* The wheel work/<whl> installed into work/<site> as pip lays it out (its
 * files, their modes); 0 or -1. */
static int install(const char *whl, const char *site)
{
	return e2e_sh("cd '%s' && /usr/bin/python3 -c \"import zipfile, os, sys\n"
		      "z = zipfile.ZipFile(sys.argv[1])\n"
		      "for m in z.infolist():\n"
		      "    p = z.extract(m, sys.argv[2])\n"
		      "    os.chmod(p, (m.external_attr >> 16) & 0o777 or 0o644)\" '%s' '%s'",
		      work, whl, site);
}

/* What `import mypkg; mypkg._demo.count()` prints from work/<site> with
 * the runtime at work/<runtime> (NULL: with no CUDA, the stub's override
 * leading nowhere); "" on failure. */
static const char *import_count_with(const char *site, const char *runtime)
{
	static struct ts_child c;
	char pythonpath[PATH_MAX + 64], override[PATH_MAX + 64];
	char *argv[] = {"/usr/bin/python3", "-c",
			"import mypkg; print('count=%d,%d' % mypkg._demo.count())", NULL};
	const char *env[] = {pythonpath, override, NULL};

	snprintf(pythonpath, sizeof pythonpath, "PYTHONPATH=%s/%s", work, site);
	if (runtime)
		snprintf(override, sizeof override, "CUDASTUB_CUDART_PATH=%s/%s", work, runtime);
	else
		snprintf(override, sizeof override, "CUDASTUB_CUDART_PATH=/nonexistent");
	if (ts_run_program(argv, env, NULL, &c) != 0 || c.exit_code != 0) {
		fprintf(stderr, "import failed:\n%s%s\n", c.out, c.err);
		return "";
	}
	return c.out;
}

static const char *import_count(const char *site)
{
	return import_count_with(site, NULL);
}

/* The README's pipeline, from the folder that holds dist/, exactly as
 * written; the wheel then imports with no CUDA, and with a runtime. */
static void readme_pipeline(void)
{
	const char *said;

	if (*E2E_SANITIZE) {
		ts_not_applicable("a sanitizer build's stub needs its runtime in Python first");
		return;
	}
	if (lay_out("patch-readme") != 0)
		return;
	CU_ASSERT_EQUAL(e2e_sh("cd '%s' && '%s' patch --strict dist/mypkg-1.0-*.whl", work,
			       e2e_patch_cli()),
			0);
	CU_ASSERT_EQUAL(e2e_patch(&out, work, "--check", "dist/" WHEEL, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(install("dist/" WHEEL, "site"), 0);
	said = import_count("site");
	CU_ASSERT_PTR_NOT_NULL(strstr(said, "count=35,0"));
	printf("\n  the README's pipeline, imported with no CUDA: %s", *said ? said : "failed\n");
	/* and with a runtime: the stand-in's answer, 7 devices */
	said = import_count_with("site", "rt/" E2E_CUDART_NEEDED);
	CU_ASSERT_PTR_NOT_NULL(strstr(said, "count=0,7"));
	printf("  with the runtime: %s", *said ? said : "failed\n");
	ts_remove_tree(work);
}

TS_TEST(readme_pipeline,
	"the README's pipeline from a relative path; imports with and without CUDA");

/* ---- members and their modes ---- */

/* Every member of work/dist/WHEEL, "name mode" a line, sorted, in out;
 * RECORD's hashes checked (a line "RECORD bad" when one is wrong). */
static int members(char *out_text, size_t size)
{
	struct ts_child c;
	char script[2048], whl[PATH_MAX + 64];
	char *argv[] = {"/usr/bin/python3", "-c", script, whl, NULL};

	snprintf(whl, sizeof whl, "%s/dist/" WHEEL, work);
	snprintf(script, sizeof script,
		 "import zipfile, hashlib, base64, sys\n"
		 "z = zipfile.ZipFile(sys.argv[1])\n"
		 "record = z.read('mypkg-1.0.dist-info/RECORD').decode().splitlines()\n"
		 "bad = [n for n, h, _ in (l.rsplit(',', 2) for l in record) if h and h != "
		 "'sha256=' + base64.urlsafe_b64encode(hashlib.sha256(z.read(n)).digest())"
		 ".rstrip(b'=').decode()]\n"
		 "listed = set(l.rsplit(',', 2)[0] for l in record)\n"
		 "for m in sorted(z.infolist(), key=lambda m: m.filename):\n"
		 "    if not m.filename.startswith('mypkg.libs/'):\n"
		 "        print(m.filename, oct((m.external_attr >> 16) & 0o7777))\n"
		 "if bad or listed != set(z.namelist()): print('RECORD bad')\n");
	if (ts_run_program(argv, NULL, NULL, &c) != 0 || c.exit_code != 0)
		return -1;
	return snprintf(out_text, size, "%s", c.out) < (int)size ? 0 : -1;
}

/* Members of every mode and of names the command once treated as its own
 * (x.cudastub-tmp, a folder .cudastub-tmp, a folder named as its private
 * folders): after the patch every one is there with its mode, the module
 * in the folder .cudastub-tmp patched too, RECORD right, and the .whl
 * the owner's with its mode. */
static void members_kept(void)
{
	char before[8192], after[8192], whl[PATH_MAX + 64];
	struct stat st;

	if (!e2e_root() || lay_out("patch-members") != 0)
		return;
	CU_ASSERT_EQUAL_FATAL(
		e2e_sh("cd '%s/src/mypkg-1.0/mypkg' && mkdir .cudastub-tmp .cudastub-Ab12Cd && "
		       "cp _demo*.so .cudastub-tmp/inner.so && echo a > x.cudastub-tmp && "
		       "echo b > .cudastub-Ab12Cd/kept && printf '#!/bin/sh\\n' > tool && "
		       "chmod 755 tool _demo*.so .cudastub-tmp/inner.so && chmod 600 "
		       "x.cudastub-tmp "
		       "&& chmod 700 .cudastub-Ab12Cd && cd ../.. && rm ../dist/" WHEEL " && "
		       "/usr/bin/python3 -m wheel pack mypkg-1.0 -d ../dist >/dev/null && "
		       "chown %d:%d ../dist/" WHEEL " && chmod 640 ../dist/" WHEEL,
		       work, E2E_OWNER, E2E_GROUP),
		0);
	CU_ASSERT_EQUAL_FATAL(members(before, sizeof before), 0);
	CU_ASSERT_EQUAL(e2e_patch(&out, work, "dist/" WHEEL, NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "mypkg/.cudastub-tmp/inner.so: " E2E_CUDART_NEEDED));
	CU_ASSERT_EQUAL_FATAL(members(after, sizeof after), 0);
	CU_ASSERT_STRING_EQUAL(after, before);
	CU_ASSERT_PTR_NULL(strstr(after, "RECORD bad"));
	snprintf(whl, sizeof whl, "%s/dist/" WHEEL, work);
	CU_ASSERT(stat(whl, &st) == 0 && st.st_uid == E2E_OWNER && st.st_gid == E2E_GROUP &&
		  (st.st_mode & 07777) == 0640);
	if (strcmp(after, before))
		fprintf(stderr, "members before:\n%safter:\n%s", before, after);
	ts_remove_tree(work);
}

TS_TEST(members_kept, "every member of a wheel kept, with its mode; RECORD right; owner kept");

/* ---- every form of path ---- */

/* work/t (a copy of work/src and work/dist, and a/b/prog), work/link, a
 * link to work/t/a; 0 or -1. */
static int fresh_forms(void)
{
	char prog[PATH_MAX + 32];

	snprintf(prog, sizeof prog, "%s/t/a/b/prog", work);
	return e2e_sh("cd '%s' && rm -rf t link && mkdir -p t/a/b t/sub && cp -a src/mypkg-1.0 "
		      "t/wheel && cp -a dist t/dist && ln -s t/a link",
		      work) == 0 &&
			       e2e_cuda_program(prog) == 0
		       ? 0
		       : -1;
}

/* Whether work/t/<rel>'s RUNPATH is want. */
static int runpath_is(const char *rel, const char *want)
{
	return e2e_sh("[ \"$(patchelf --print-rpath '%s/t/%s')\" = '%s' ]", work, rel, want) == 0;
}

/* One form: patch path from work/<cwd>, then --check the absolute path
 * of what was patched. */
static void one_form(const char *cwd, const char *path, const char *checked, const char *file,
		     const char *runpath)
{
	char dir[PATH_MAX + 32], abs_path[PATH_MAX + 64];

	snprintf(dir, sizeof dir, "%s/%s", work, cwd);
	snprintf(abs_path, sizeof abs_path, "%s/t/%s", work, checked);
	CU_ASSERT_EQUAL_FATAL(fresh_forms(), 0);
	CU_ASSERT_EQUAL(e2e_patch(&out, dir, path, NULL), 0);
	CU_ASSERT_EQUAL(e2e_patch(&out, NULL, "--check", abs_path, NULL), 0);
	if (file && !runpath_is(file, runpath))
		fprintf(stderr, "from %s, %s: %s's RUNPATH is not %s\n", cwd, path, file, runpath);
	CU_ASSERT(!file || runpath_is(file, runpath));
	if (out.exit_code)
		fprintf(stderr, "from %s, %s:\n%s%s\n", cwd, path, out.out, out.err);
}

static void every_path_form(void)
{
	char module[PATH_MAX];

	if (lay_out("patch-forms") != 0)
		return;
	CU_ASSERT_EQUAL_FATAL(e2e_sh("cd '%s/src/mypkg-1.0' && ls mypkg/_demo*.so > ../name", work),
			      0);
	{
		FILE *f;
		char path[PATH_MAX + 16];

		snprintf(path, sizeof path, "%s/src/name", work);
		f = fopen(path, "r");
		CU_ASSERT_FATAL(f && fgets(module, sizeof module, f));
		fclose(f);
		module[strcspn(module, "\n")] = '\0';
	}
	one_form("t", "a/b/prog", "a/b/prog", "a/b/prog", "$ORIGIN");
	one_form("t/a", "../a/b/prog", "a/b/prog", "a/b/prog", "$ORIGIN");
	one_form("link/b", "../b/prog", "a/b/prog", "a/b/prog", "$ORIGIN");
	one_form("t", "a/b//", "a/b", "a/b/prog", "$ORIGIN/cudastub");
	one_form("link", "./b/", "a/b", "a/b/prog", "$ORIGIN/cudastub");
	one_form("t/sub", "../wheel/", "wheel", NULL, NULL);
	CU_ASSERT(e2e_sh("cd '%s/t/wheel' && [ \"$(patchelf --print-rpath %s)\" = "
			 "'$ORIGIN/../mypkg.libs' ]",
			 work, module) == 0);
	one_form("t/sub", "../dist/" WHEEL, "dist/" WHEEL, NULL, NULL);
	one_form("link/b", "../../dist//" WHEEL, "dist/" WHEEL, NULL, NULL);
	ts_remove_tree(work);
}

TS_TEST(every_path_form, "relative, .., a linked folder, trailing slashes: each result loads");

/* ---- what --check proves ---- */

/* The patched wheel, its module's RUNPATH made to lead into a temporary
 * folder (as one worked out from a relative path would), packed again:
 * --check fails, saying the module would not load. */
static void check_fails_on_leaked_runpath(void)
{
	if (lay_out("patch-leaked") != 0)
		return;
	CU_ASSERT_EQUAL_FATAL(e2e_patch(&out, work, "dist/" WHEEL, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(
		e2e_sh("cd '%s' && rm -rf src && mkdir src && cd src && /usr/bin/python3 -m wheel "
		       "unpack ../dist/" WHEEL " >/dev/null && patchelf --set-rpath "
		       "'$ORIGIN/../../../../../dist/.cudastub-wheel-Ab12Cd/unpacked/mypkg-1.0/"
		       "mypkg.libs' mypkg-1.0/mypkg/_demo*.so && /usr/bin/python3 -m wheel pack "
		       "mypkg-1.0 -d ../dist >/dev/null",
		       work),
		0);
	CU_ASSERT_EQUAL(e2e_patch(&out, work, "--check", "dist/" WHEEL, NULL), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "would not load"));
	ts_remove_tree(work);
}

TS_TEST(check_fails_on_leaked_runpath,
	"--check fails on a RUNPATH that leads into a temporary folder");

/* An unpacked wheel, patched: its module needs the version libcudart.so.N
 * of its stub. That stub replaced by a library without the
 * version, then removed: --check fails each time, saying why. */
static void check_proves_versions(void)
{
	if (lay_out("patch-versions") != 0)
		return;
	CU_ASSERT_EQUAL_FATAL(e2e_patch(&out, work, "src/mypkg-1.0", NULL), 0);
	CU_ASSERT_EQUAL(e2e_patch(&out, work, "--check", "src/mypkg-1.0", NULL), 0);
	CU_ASSERT_EQUAL_FATAL(
		e2e_sh("cd '%s' && set -- src/mypkg-1.0/mypkg.libs/libcudart_stub_cu*-*.so "
		       "&& '%s' -shared -fPIC -Wl,-soname,\"${1##*/}\" -o \"$1\" "
		       "rt/rt.c",
		       work, E2E_CC),
		0);
	CU_ASSERT_EQUAL(e2e_patch(&out, work, "--check", "src/mypkg-1.0", NULL), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "defines no version " E2E_CUDART_NEEDED));
	CU_ASSERT_EQUAL_FATAL(
		e2e_sh("rm '%s'/src/mypkg-1.0/mypkg.libs/libcudart_stub_cu*-*.so", work), 0);
	CU_ASSERT_EQUAL(e2e_patch(&out, work, "--check", "src/mypkg-1.0", NULL), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "would not load: its RUNPATH"));
	ts_remove_tree(work);
}

TS_TEST(check_proves_versions, "--check fails on a stub without a version the file needs, or none");

/* Private folders in a tree: one a stopped run of this user left, one
 * another user's, one a run still uses (locked). --check names the first
 * two and fails; a run removes the first and names the second; the one in
 * use is left to its run. */
static void leftovers_reported_and_removed(void)
{
	char in_use[PATH_MAX + 64];
	int fd;

	if (!e2e_root() || lay_out("patch-leftovers") != 0)
		return;
	CU_ASSERT_EQUAL_FATAL(e2e_sh("cd '%s' && mkdir -p t/sub && cp -a src/mypkg-1.0/mypkg t/ && "
				     "mkdir -m 700 t/.cudastub-Ab12Cd t/sub/.cudastub-Zz99Yy "
				     "t/.cudastub-Lk3Lk3 && echo x > t/.cudastub-Ab12Cd/prog && "
				     "chown %d t/sub/.cudastub-Zz99Yy",
				     work, E2E_OWNER),
			      0);
	snprintf(in_use, sizeof in_use, "%s/t/.cudastub-Lk3Lk3", work);
	fd = open(in_use, O_RDONLY | O_DIRECTORY);
	CU_ASSERT_FATAL(fd >= 0 && flock(fd, LOCK_EX) == 0);
	CU_ASSERT_EQUAL(e2e_patch(&out, work, "--check", "t", NULL), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "t/.cudastub-Ab12Cd: left by a cudastub patch"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "t/sub/.cudastub-Zz99Yy: left by"));
	CU_ASSERT_PTR_NULL(strstr(out.out, "Lk3Lk3"));
	CU_ASSERT_EQUAL(e2e_patch(&out, work, "t", NULL), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "t/.cudastub-Ab12Cd: removed"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.out, "t/sub/.cudastub-Zz99Yy: left by"));
	CU_ASSERT_EQUAL(
		e2e_sh("cd '%s/t' && [ ! -e .cudastub-Ab12Cd ] && [ -d sub/.cudastub-Zz99Yy ] "
		       "&& [ -d .cudastub-Lk3Lk3 ]",
		       work),
		0);
	close(fd);
	ts_remove_tree(work);
}

TS_TEST(leftovers_reported_and_removed,
	"leftovers: --check names them, a run removes its own kind");

/* ---- output once ---- */

/* Runs argv in cwd with stdout on a pseudo-terminal (stderr discarded);
 * what it printed, "\r\n" read as "\n", in text. 0 or -1. */
static int on_terminal(char *const *argv, const char *cwd, char *text, size_t size)
{
	int master = posix_openpt(O_RDWR | O_NOCTTY), status;
	size_t used = 0;
	ssize_t n;
	pid_t pid;

	if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0)
		return -1;
	fflush(NULL);
	if ((pid = fork()) == 0) {
		int slave = (setsid(), open(ptsname(master), O_RDWR));
		int null = open("/dev/null", O_RDWR);

		if (slave < 0 || null < 0 || dup2(slave, 1) < 0 || dup2(null, 0) < 0 ||
		    dup2(null, 2) < 0 || chdir(cwd) != 0)
			_exit(127);
		execv(argv[0], argv);
		_exit(127);
	}
	while (pid > 0 && used + 1 < size &&
	       ((n = read(master, text + used, size - used - 1)) > 0 || (n < 0 && errno == EINTR)))
		used += n > 0 ? (size_t)n : 0;
	text[used] = '\0';
	close(master);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	for (char *r; (r = strstr(text, "\r\n"));)
		memmove(r, r + 1, strlen(r));
	return 0;
}

/* A program, then a wheel (for which Python runs): the lines printed
 * through a pipe are those printed on a terminal, each once. */
static void output_once(void)
{
	static char terminal[65536];
	char prog[PATH_MAX + 32];
	char *argv[] = {(char *)e2e_patch_cli(), "patch", "--dry-run", "prog", "dist/" WHEEL, NULL};

	if (lay_out("patch-output") != 0)
		return;
	snprintf(prog, sizeof prog, "%s/prog", work);
	CU_ASSERT_EQUAL_FATAL(e2e_cuda_program(prog), 0);
	CU_ASSERT_EQUAL_FATAL(on_terminal(argv, work, terminal, sizeof terminal), 0);
	CU_ASSERT_EQUAL(e2e_patch(&out, work, "--dry-run", "prog", "dist/" WHEEL, NULL), 0);
	CU_ASSERT_STRING_EQUAL(out.out, terminal);
	if (strcmp(out.out, terminal))
		fprintf(stderr, "through a pipe:\n%s\non a terminal:\n%s\n", out.out, terminal);
	ts_remove_tree(work);
}

TS_TEST(output_once, "output through a pipe is output on a terminal, each line once");

TS_MAIN_SUITE("e2e: cudastub patch on wheels and every form of path", NULL, NULL, NULL)

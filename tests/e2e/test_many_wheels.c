/*
 * Many wheels, one process (issue 18, point 2). Each wheel ships a runtime
 * stub in its own lib/ folder beside an extension module linked to it
 * (programs/wheel_probe.c, RUNPATH $ORIGIN/lib), as the README's pipeline
 * makes them:
 *
 *   pkg13/  the stub built on the 13.0 headers (version node libcudart.so.13)
 *   pkg12/  the stub built on the 12.4 headers (libcudart.so.12)
 *   pkg13b/ a 13.0 stub of another build (the same code with a note of its
 *           own: another commit's stub, as far as names and bytes go)
 *   pkgnv/  no stub: its module needs NVIDIA's libcudart.so.13 (a wheel
 *           built against the runtime, which the patch points at a stub)
 *
 * Two wheels are opened in one process, as Python imports extensions
 * (dlopen RTLD_NOW | RTLD_LOCAL), in both orders. Under the names the stubs
 * are built with, both wheels need "libcudart_stub.so": ld.so takes the
 * second wheel's need as met by the first wheel's copy, so the second
 * import fails (another ABI: "version `libcudart.so.12' not found") or
 * silently calls through the first wheel's stub. After `cudastub patch
 * --unique-names`, each wheel's stub is named by its content (libcudart_stub-<hash>.so, its
 * SONAME too, as auditwheel names what it grafts) and each wheel calls
 * through its own.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_support.h"
#include "ts_child.h"
#include "ts_files.h"

static char tree[PATH_MAX];
static int have_abi12;

/* ---- the child: opens the wheels named in MW_WHEELS, in order ---- */

static int scenario_open(void)
{
	char list[4 * PATH_MAX], *save = NULL;
	const char *wheels = getenv("MW_WHEELS");
	int i = 0;

	snprintf(list, sizeof list, "%s", wheels ? wheels : "");
	for (char *w = strtok_r(list, ":", &save); w; w = strtok_r(NULL, ":", &save), i++) {
		char module[PATH_MAX + 32], report[2 * PATH_MAX];
		int (*probe)(char *, size_t);
		void *h;

		snprintf(module, sizeof module, "%s/_probe.so", w);
		h = dlopen(module, RTLD_NOW | RTLD_LOCAL);
		if (!h) {
			printf("w%d_error=%s\n", i, dlerror());
			continue;
		}
		*(void **)&probe = dlsym(h, "wheel_probe_report");
		if (!probe)
			return 3;
		probe(report, sizeof report);
		printf("w%d=%s\n", i, report);
	}
	return 0;
}

/* ---- the parent ---- */

static int sh(const char *cmd)
{
	int rc = system(cmd);

	if (rc != 0)
		fprintf(stderr, "failed (%d): %s\n", rc, cmd);
	return rc == 0;
}

/* <root>/<pkg>/_probe.so from module, <root>/<pkg>/lib/libcudart_stub.so
 * from stub; note, when given, is added to the stub as a section. */
static int make_wheel(const char *root, const char *pkg, const char *module, const char *stub,
		      const char *note)
{
	char cmd[8 * PATH_MAX];

	snprintf(cmd, sizeof cmd,
		 "mkdir -p '%s/%s/lib' && cp '%s' '%s/%s/_probe.so' && "
		 "cp '%s' '%s/%s/lib/libcudart_stub.so'",
		 root, pkg, module, root, pkg, stub, root, pkg);
	if (!sh(cmd))
		return 0;
	if (!note)
		return 1;
	snprintf(cmd, sizeof cmd,
		 "cd '%s/%s/lib' && printf '%s' >note && '%s' --add-section "
		 ".note.cudastub-build=note "
		 "libcudart_stub.so && rm note",
		 root, pkg, note, E2E_OBJCOPY);
	return sh(cmd);
}

static int suite_init(void)
{
	char root[PATH_MAX + 16], cmd[4 * PATH_MAX];

	if (!ts_tmpdir("many-wheels", tree, sizeof tree))
		return 1;
	snprintf(root, sizeof root, "%s/site", tree);
	have_abi12 = E2E_PROBE12[0] && access(E2E_PROBE12, R_OK) == 0;
	if (!make_wheel(root, "pkg13", E2E_PROBE13, E2E_CUDART_STUB, NULL) ||
	    !make_wheel(root, "pkg13b", E2E_PROBE13, E2E_CUDART_STUB, "another build") ||
	    (have_abi12 && !make_wheel(root, "pkg12", E2E_PROBE12, E2E_CUDART_STUB12, NULL)))
		return 1;
	snprintf(cmd, sizeof cmd,
		 "mkdir -p '%s/pkgnv' && cp '%s' '%s/pkgnv/_probe.so' && "
		 "patchelf --replace-needed libcudart_stub.so libcudart.so.13 '%s/pkgnv/_probe.so'",
		 root, E2E_PROBE13, root, root);
	if (!sh(cmd))
		return 1;
	/* the tree is an unpacked wheel too, whose RECORD the patch makes stale */
	snprintf(cmd, sizeof cmd,
		 "mkdir -p '%s/demo-1.0.dist-info' && cd '%s/demo-1.0.dist-info' && "
		 "printf 'Metadata-Version: 2.1\\nName: demo\\nVersion: 1.0\\n' >METADATA && "
		 "printf 'Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: false\\n"
		 "Tag: py3-none-linux_x86_64\\n' >WHEEL && : >RECORD",
		 root, root);
	return sh(cmd) ? 0 : 1;
}

static int suite_clean(void)
{
	ts_remove_tree(tree);
	return 0;
}

/* Opens site/<first> then site/<second> in one child. */
static int open_pair(const char *site, const char *first, const char *second, struct ts_child *c)
{
	struct ts_env env = {0};
	char label[128];

	snprintf(label, sizeof label, "%s then %s", first, second);
	ts_env_add(&env, "MW_WHEELS=%s/%s/%s:%s/%s/%s", tree, site, first, tree, site, second);
	return ts_run_scenario(label, "open", &env, c);
}

/* Whether the child's report key names a runtime stub of <site>/<pkg>/. */
static int calls_own_stub(const struct ts_child *c, const char *key, const char *site,
			  const char *pkg)
{
	char want[PATH_MAX + 64];
	const char *line = ts_value(c, key);

	snprintf(want, sizeof want, "stub=%s/%s/%s/", tree, site, pkg);
	if (!line || strncmp(line, want, strlen(want)) != 0 || !strstr(line, "/libcudart_stub")) {
		fprintf(stderr, "%s: want %s..., got %s\n%s", key, want, line ? line : "(none)",
			c->out);
		return 0;
	}
	return 1;
}

static void test_unpatched(void)
{
	struct ts_child c;

	/* the same ABI: the second wheel quietly calls through the first's */
	if (open_pair("site", "pkg13", "pkg13b", &c)) {
		CU_ASSERT(calls_own_stub(&c, "w0", "site", "pkg13"));
		CU_ASSERT(calls_own_stub(&c, "w1", "site", "pkg13"));
	}
	if (!have_abi12) {
		ts_unavailable("the 12.4 ABI stub (the headers-12.4 fixture)");
		return;
	}
	/* another ABI: the second import fails */
	if (open_pair("site", "pkg13", "pkg12", &c)) {
		CU_ASSERT(calls_own_stub(&c, "w0", "site", "pkg13"));
		CU_ASSERT_PTR_NOT_NULL(strstr(c.out, "w1_error="));
		CU_ASSERT_PTR_NOT_NULL(strstr(c.out, "libcudart.so.12"));
	}
}

/* The patch cases give a CUDA 13 program the stubs of this build's
 * cudastub command: a build of another ABI has none to give. */
static int patches_cuda13(void)
{
	if (E2E_ABI_MAJOR == 13)
		return 1;
	ts_not_applicable("this build's cudastub command carries 12-ABI stubs, and the case "
			  "patches a CUDA 13 program");
	return 0;
}

static void test_patched(void)
{
	static const char *const pairs[][2] = {{"pkg13", "pkg13b"}, {"pkg13b", "pkg13"},
					       {"pkg13", "pkg12"},  {"pkg12", "pkg13"},
					       {"pkgnv", "pkg13b"}, {"pkg13b", "pkgnv"}};
	char cmd[4 * PATH_MAX], dir[PATH_MAX + 16];
	char *argv[] = {(char *)E2E_CLI, "patch", "--unique-names", "--strict", dir, NULL};
	struct ts_child c;

	if (!patches_cuda13())
		return;
	snprintf(cmd, sizeof cmd, "cp -r '%s/site' '%s/patched'", tree, tree);
	CU_ASSERT_FATAL(sh(cmd));
	snprintf(dir, sizeof dir, "%s/patched", tree);
	CU_ASSERT_FATAL(ts_run_program(argv, NULL, NULL, &c) == 0);
	CU_ASSERT_EQUAL(c.exit_code, 0);
	/* an unpacked wheel: one stub folder, beside its .dist-info */
	CU_ASSERT_PTR_NOT_NULL(strstr(c.out, "its stubs go into"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.out, "/patched/demo.libs"));
	/* it says that the wheel's RECORD is stale, and how to write it again */
	CU_ASSERT_PTR_NOT_NULL(strstr(c.out, "repack it with: python3 -m wheel pack"));
	for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
		if ((!strcmp(pairs[i][0], "pkg12") || !strcmp(pairs[i][1], "pkg12")) && !have_abi12)
			continue;
		if (!open_pair("patched", pairs[i][0], pairs[i][1], &c))
			continue;
		CU_ASSERT(calls_own_stub(&c, "w0", "patched", pairs[i][0]));
		CU_ASSERT(calls_own_stub(&c, "w1", "patched", pairs[i][1]));
		CU_ASSERT_PTR_NULL(strstr(c.out, "_error="));
		/* the two wheels' stubs differ, so each went through a file of its own */
		{
			char w0[PATH_MAX + 64];

			snprintf(w0, sizeof w0, "%s", ts_text(&c, "w0"));
			CU_ASSERT_STRING_NOT_EQUAL(w0, ts_text(&c, "w1"));
		}
	}
	/* wheel pack writes RECORD again: every file's hash is right */
	snprintf(cmd, sizeof cmd,
		 "cd '%s' && mkdir -p dist && /usr/bin/python3 -m wheel pack patched -d dist "
		 ">/dev/null && "
		 "/usr/bin/python3 -c \"import zipfile, hashlib, base64, glob, sys\n"
		 "z = zipfile.ZipFile(glob.glob('dist/demo-1.0-*.whl')[0])\n"
		 "bad = [n for n, h, _ in (l.split(',') for l in "
		 "z.read('demo-1.0.dist-info/RECORD').decode().splitlines()) if h and h != "
		 "'sha256=' + base64.urlsafe_b64encode(hashlib.sha256(z.read(n)).digest())"
		 ".rstrip(b'=').decode()]\n"
		 "sys.exit(1 if bad or len(z.namelist()) < 8 else 0)\"",
		 tree);
	CU_ASSERT(sh(cmd));
	/* patched again: nothing changes (the names are already unique) */
	snprintf(cmd, sizeof cmd, "'%s' patch --unique-names --check '%s/patched'", E2E_CLI, tree);
	CU_ASSERT(sh(cmd));
}

/* A .whl patched whole: demo-1.0 ships pkg13 (linked to the stub it ships)
 * and pkgnv, linked to NVIDIA's runtime that auditwheel grafted as
 * demo.libs/libcudart-96c42e41.so.13. After `cudastub patch demo.whl` the
 * wheel holds content-named stubs in demo.libs, no grafted runtime, and a
 * RECORD whose every hash is right, and both modules call through them. */
static void test_whl(void)
{
	char runtime[PATH_MAX], cmd[8 * PATH_MAX], wheel[PATH_MAX + 64];
	char *argv[] = {(char *)E2E_CLI, "patch", wheel, NULL};
	char *check[] = {(char *)E2E_CLI, "patch", "--check", wheel, NULL};
	struct ts_child c;

	if (!patches_cuda13())
		return;
	if (!ts_toolkit_file("libcudart.so.13", runtime, sizeof runtime))
		return;
	snprintf(cmd, sizeof cmd,
		 "cd '%s' && mkdir -p whl/demo-1.0 && cd whl/demo-1.0 && "
		 "cp -r ../../site/pkg13 ../../site/demo-1.0.dist-info . && mkdir pkgnv demo.libs "
		 "&& "
		 "cp '%s' demo.libs/libcudart-96c42e41.so.13 && "
		 "patchelf --set-soname libcudart-96c42e41.so.13 "
		 "demo.libs/libcudart-96c42e41.so.13 && "
		 "cp '%s' pkgnv/_probe.so && "
		 "patchelf --replace-needed libcudart_stub.so libcudart-96c42e41.so.13 "
		 "pkgnv/_probe.so "
		 "&& patchelf --set-rpath '$ORIGIN/../demo.libs' pkgnv/_probe.so && cd .. && "
		 "/usr/bin/python3 -m wheel pack demo-1.0 -d . >/dev/null && rm -r demo-1.0",
		 tree, runtime, E2E_PROBE13);
	CU_ASSERT_FATAL(sh(cmd));
	snprintf(wheel, sizeof wheel, "%s/whl/demo-1.0-py3-none-linux_x86_64.whl", tree);
	CU_ASSERT_FATAL(ts_run_program(argv, NULL, NULL, &c) == 0);
	CU_ASSERT_EQUAL(c.exit_code, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.out, "removed libcudart-96c42e41.so.13"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.out, "packed again"));
	/* what the wheel holds now, and whether RECORD says so */
	snprintf(cmd, sizeof cmd,
		 "cd '%s/whl' && /usr/bin/python3 -c \"import zipfile, hashlib, base64, sys\n"
		 "z = zipfile.ZipFile('demo-1.0-py3-none-linux_x86_64.whl')\n"
		 "names = z.namelist()\n"
		 "bad = [n for n, h, _ in (l.split(',') for l in "
		 "z.read('demo-1.0.dist-info/RECORD').decode().splitlines()) if h and h != "
		 "'sha256=' + base64.urlsafe_b64encode(hashlib.sha256(z.read(n)).digest())"
		 ".rstrip(b'=').decode()]\n"
		 "stubs = [n for n in names if n.startswith('demo.libs/libcudart_stub-')]\n"
		 "grafted = [n for n in names if 'libcudart-96c42e41' in n]\n"
		 "z.extractall('out')\n"
		 "sys.exit(1 if bad or not stubs or grafted else 0)\"",
		 tree);
	CU_ASSERT(sh(cmd));
	if (open_pair("whl/out", "pkgnv", "pkg13", &c)) {
		/* both from demo.libs (pkg13's shipped stub is this build's: the same
		 * content, so the same name and one file) */
		CU_ASSERT_PTR_NOT_NULL(strstr(c.out, "w0=stub="));
		CU_ASSERT_PTR_NOT_NULL(strstr(c.out, "/demo.libs/libcudart_stub-"));
		CU_ASSERT_PTR_NULL(strstr(c.out, "_error="));
	}
	/* the wheel patched has nothing left to do */
	CU_ASSERT_FATAL(ts_run_program(check, NULL, NULL, &c) == 0);
	CU_ASSERT_EQUAL(c.exit_code, 0);
}

static void register_suites(void)
{
	CU_pSuite s = CU_add_suite("e2e: many wheels, one process", suite_init, suite_clean);

	CU_add_test(s, "as built: the second wheel fails to import or uses the first's stub",
		    test_unpatched);
	CU_add_test(s, "after cudastub patch: each wheel calls through its own stub, both orders",
		    test_patched);
	CU_add_test(s, "a .whl patched whole: its own stub folder, no grafted runtime, RECORD",
		    test_whl);
}

int main(int argc, char **argv)
{
	static const struct ts_scenario scenarios[] = {{"open", scenario_open}, {NULL, NULL}};

	return ts_main(argc, argv, scenarios, register_suites);
}

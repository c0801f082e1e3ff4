/*
 * Many wheels, one process. Each wheel ships a runtime stub in its own
 * lib/ folder beside an extension module linked to it
 * (programs/wheel_probe.c, RUNPATH $ORIGIN/lib), as the README's pipeline
 * and cudastub_link(... DESTINATION) make them:
 *
 *   pkg13/  the 13 ABI's stub (libcudart_stub_cu13-<tag>.so)
 *   pkg12/  the 12 ABI's stub (libcudart_stub_cu12-<tag>.so)
 *   pkg13b/ a 13-ABI stub of another build (its bytes and its tag its own,
 *           as a build from records of another minor has them)
 *   pkgnv/  no stub: its module needs NVIDIA's libcudart.so.13 (a wheel
 *           built against the runtime, which the patch points at a stub)
 *
 * Two wheels are opened in one process, as Python imports extensions
 * (dlopen RTLD_NOW | RTLD_LOCAL), in both orders. ld.so takes a DT_NEEDED
 * entry as met by any object already loaded under that SONAME; a stub's
 * SONAME says its ABI and carries a tag of its build's release, ABI and
 * exports, so each wheel loads and calls through its own, as built, with
 * no `cudastub patch` step; and the generator gives another tag to
 * another set of exports.
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

/* The SONAME of a 13-ABI runtime stub of another build */
#define OTHER_BUILD "libcudart_stub_cu13-00000001.so"

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

/* <root>/<pkg>/_probe.so from module and, in <root>/<pkg>/lib, the stub
 * file it needs (stub, under its own name). With other (a SONAME), the
 * stub is another build's: its copy takes that name and a section of its
 * own, and the module needs it under that name. */
static int make_wheel(const char *root, const char *pkg, const char *module, const char *stub,
		      const char *other)
{
	char cmd[8 * PATH_MAX];
	const char *name = strrchr(stub, '/') + 1;

	snprintf(cmd, sizeof cmd,
		 "mkdir -p '%s/%s/lib' && cp '%s' '%s/%s/_probe.so' && cp '%s' '%s/%s/lib/%s'",
		 root, pkg, module, root, pkg, stub, root, pkg, other ? other : name);
	if (!sh(cmd))
		return 0;
	if (!other)
		return 1;
	snprintf(cmd, sizeof cmd,
		 "cd '%s/%s' && printf 'another build' >note && '%s' --add-section "
		 ".note.cudastub-build=note 'lib/%s' && rm note && "
		 "patchelf --set-soname '%s' 'lib/%s' && "
		 "patchelf --replace-needed '%s' '%s' _probe.so",
		 root, pkg, E2E_OBJCOPY, other, other, other, name, other);
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
	    !make_wheel(root, "pkg13b", E2E_PROBE13, E2E_CUDART_STUB, OTHER_BUILD) ||
	    (have_abi12 && !make_wheel(root, "pkg12", E2E_PROBE12, E2E_CUDART_STUB12, NULL)))
		return 1;
	snprintf(cmd, sizeof cmd,
		 "mkdir -p '%s/pkgnv' && cp '%s' '%s/pkgnv/_probe.so' && "
		 "patchelf --replace-needed '%s' libcudart.so.13 '%s/pkgnv/_probe.so'",
		 root, E2E_PROBE13, root, strrchr(E2E_CUDART_STUB, '/') + 1, root);
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

/* The name of the stub a wheel's module calls through: one name for one
 * build's stub of one ABI, wherever its copies lie. */
static const char *stub_of(const char *pkg)
{
	if (!strcmp(pkg, "pkg13b"))
		return OTHER_BUILD;
	if (!strcmp(pkg, "pkg12"))
		return strrchr(E2E_CUDART_STUB12, '/') + 1;
	return strrchr(E2E_CUDART_STUB, '/') + 1;
}

/* Whether the child's report key names pkg's stub, in a folder of <site>
 * (however the loader spelled its path). */
static int calls_own_stub(const struct ts_child *c, const char *key, const char *site,
			  const char *pkg)
{
	char want[PATH_MAX + 64], path[PATH_MAX], real[PATH_MAX];
	const char *line = ts_value(c, key), *base;

	snprintf(want, sizeof want, "%s/%s/", tree, site);
	path[0] = real[0] = '\0';
	if (line && sscanf(line, "stub=%4095s", path) == 1 && !realpath(path, real))
		real[0] = '\0';
	base = strrchr(real, '/');
	if (strncmp(real, want, strlen(want)) != 0 || !base || strcmp(base + 1, stub_of(pkg))) {
		fprintf(stderr, "%s: want %s.../%s, got %s\n%s", key, want, stub_of(pkg),
			line ? line : "(none)", c->out);
		return 0;
	}
	return 1;
}

static void test_as_built(void)
{
	static const char *const pairs[][2] = {{"pkg13", "pkg13b"}, {"pkg13b", "pkg13"},
					       {"pkg13", "pkg12"},  {"pkg12", "pkg13"},
					       {"pkg12", "pkg13b"}, {"pkg13b", "pkg12"}};
	struct ts_child c;

	if (!have_abi12)
		ts_unavailable("the 12 ABI's probe (the headers-12.4 fixture)");
	for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
		char w0[PATH_MAX + 64];

		if ((!strcmp(pairs[i][0], "pkg12") || !strcmp(pairs[i][1], "pkg12")) && !have_abi12)
			continue;
		if (!open_pair("site", pairs[i][0], pairs[i][1], &c))
			continue;
		CU_ASSERT(calls_own_stub(&c, "w0", "site", pairs[i][0]));
		CU_ASSERT(calls_own_stub(&c, "w1", "site", pairs[i][1]));
		CU_ASSERT_PTR_NULL(strstr(c.out, "_error="));
		snprintf(w0, sizeof w0, "%s", ts_text(&c, "w0"));
		CU_ASSERT_STRING_NOT_EQUAL(w0, ts_text(&c, "w1"));
	}
}

TS_TEST(test_as_built, "as built: each wheel calls through its own stub, both orders");

/* The unpacked wheel patched: pkgnv's module gets the stub of its ABI in
 * the wheel's stub folder, and opens beside every other wheel. */
static void test_patched(void)
{
	static const char *const pairs[][2] = {{"pkgnv", "pkg13"},  {"pkg13", "pkgnv"},
					       {"pkgnv", "pkg13b"}, {"pkg13b", "pkgnv"},
					       {"pkgnv", "pkg12"},  {"pkg12", "pkgnv"}};
	char cmd[4 * PATH_MAX], dir[PATH_MAX + 16];
	char *argv[] = {(char *)E2E_CLI, "patch", "--strict", dir, NULL};
	char *check[] = {(char *)E2E_CLI, "patch", "--check", dir, NULL};
	struct ts_child c;

	snprintf(cmd, sizeof cmd, "cp -r '%s/site' '%s/patched'", tree, tree);
	CU_ASSERT_FATAL(sh(cmd));
	snprintf(dir, sizeof dir, "%s/patched", tree);
	CU_ASSERT_FATAL(ts_run_program(argv, NULL, NULL, &c) == 0);
	CU_ASSERT_EQUAL(c.exit_code, 0);
	/* an unpacked wheel: one stub folder, beside its .dist-info */
	CU_ASSERT_PTR_NOT_NULL(strstr(c.out, "its stubs go into"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.out, "/patched/demo.libs"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.out, "libcudart.so.13 -> libcudart_stub_cu13-"));
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
	}
	/* patched again: nothing changes, and every module finds its stub */
	CU_ASSERT_FATAL(ts_run_program(check, NULL, NULL, &c) == 0);
	CU_ASSERT_EQUAL(c.exit_code, 0);
}

TS_TEST(test_patched, "an unpacked wheel patched: its stub beside every other wheel's");

/* A .whl patched whole: demo-1.0 ships pkg13 (linked to the stub it ships),
 * pkgnv, linked to NVIDIA's runtime that auditwheel grafted as
 * demo.libs/libcudart-96c42e41.so.13, and pkgold, linked to an earlier
 * cudastub's demo.libs/libcudart_stub.so (one name every build shared).
 * After `cudastub patch demo.whl` the wheel holds this build's stub of the
 * 13 ABI in demo.libs, neither the grafted runtime nor the old stub, a
 * RECORD whose every hash is right, and every module calls through it. */
static void test_whl(void)
{
	char runtime[PATH_MAX], cmd[8 * PATH_MAX], wheel[PATH_MAX + 64];
	char *argv[] = {(char *)E2E_CLI, "patch", "--unique-names", wheel, NULL};
	char *check[] = {(char *)E2E_CLI, "patch", "--check", wheel, NULL};
	const char *stub = strrchr(E2E_CUDART_STUB, '/') + 1;
	struct ts_child c;

	if (!ts_toolkit_file("libcudart.so.13", runtime, sizeof runtime))
		return;
	snprintf(cmd, sizeof cmd,
		 "cd '%s' && mkdir -p whl/demo-1.0 && cd whl/demo-1.0 && "
		 "cp -r ../../site/pkg13 ../../site/demo-1.0.dist-info . && "
		 "mkdir pkgnv pkgold demo.libs && "
		 "cp '%s' demo.libs/libcudart-96c42e41.so.13 && "
		 "patchelf --set-soname libcudart-96c42e41.so.13 "
		 "demo.libs/libcudart-96c42e41.so.13 && "
		 "cp '%s' pkgnv/_probe.so && "
		 "patchelf --replace-needed '%s' libcudart-96c42e41.so.13 pkgnv/_probe.so && "
		 "patchelf --set-rpath '$ORIGIN/../demo.libs' pkgnv/_probe.so && "
		 "cp '%s' demo.libs/libcudart_stub.so && "
		 "patchelf --set-soname libcudart_stub.so demo.libs/libcudart_stub.so && "
		 "cp '%s' pkgold/_probe.so && "
		 "patchelf --replace-needed '%s' libcudart_stub.so pkgold/_probe.so && "
		 "patchelf --set-rpath '$ORIGIN/../demo.libs' pkgold/_probe.so && cd .. && "
		 "/usr/bin/python3 -m wheel pack demo-1.0 -d . >/dev/null && rm -r demo-1.0",
		 tree, runtime, E2E_PROBE13, stub, E2E_CUDART_STUB, E2E_PROBE13, stub);
	CU_ASSERT_FATAL(sh(cmd));
	snprintf(wheel, sizeof wheel, "%s/whl/demo-1.0-py3-none-linux_x86_64.whl", tree);
	CU_ASSERT_FATAL(ts_run_program(argv, NULL, NULL, &c) == 0);
	CU_ASSERT_EQUAL(c.exit_code, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.out, "removed libcudart-96c42e41.so.13"));
	CU_ASSERT_PTR_NOT_NULL(strstr(c.out, "removed libcudart_stub.so: a stub nothing needs"));
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
		 "stubs = [n for n in names if n.startswith('demo.libs/libcudart_stub')]\n"
		 "grafted = [n for n in names if 'libcudart-96c42e41' in n]\n"
		 "z.extractall('out')\n"
		 "sys.exit(1 if bad or stubs != ['demo.libs/%s'] or grafted else 0)\"",
		 tree, stub);
	CU_ASSERT(sh(cmd));
	if (open_pair("whl/out", "pkgnv", "pkgold", &c)) {
		CU_ASSERT(calls_own_stub(&c, "w0", "whl/out", "pkgnv"));
		CU_ASSERT(calls_own_stub(&c, "w1", "whl/out", "pkgold"));
		CU_ASSERT_PTR_NULL(strstr(c.out, "_error="));
	}
	/* the wheel patched has nothing left to do */
	CU_ASSERT_FATAL(ts_run_program(check, NULL, NULL, &c) == 0);
	CU_ASSERT_EQUAL(c.exit_code, 0);
}

TS_TEST(test_whl, "a .whl patched whole: its stub folder, no grafted runtime, no old stub");

/* Another set of exports, another tag: the generator run on the records
 * with a function new in the 13.0 runtime taken out (as a build from
 * another minor's headers would have it) names the 13 ABI's runtime stub
 * differently, and the 12 ABI's as before. */
static void test_tags_follow_exports(void)
{
	char cmd[8 * PATH_MAX];

	snprintf(cmd, sizeof cmd,
		 "cd '%s' && cp -r '%s/data' data && "
		 "sed -i '/^fn\\tcudaDeviceGetHostAtomicCapabilities\\t/d; "
		 "/^arg\\tcudaDeviceGetHostAtomicCapabilities\\t/d' data/abi/cudart-13.0.abi && "
		 "sed -i '/^cudaDeviceGetHostAtomicCapabilities$/d' "
		 "data/exports/libcudart-13.0.exports && "
		 "n=0; for d in data '%s/data'; do n=$((n+1)); '%s' "
		 "'%s/tools/gen_stubs/gen_stubs.py' build "
		 "--specs '%s/specs' --data \"$d\" --out gen-data-$n --version %s "
		 "--library cudart >/dev/null || exit 1; done && "
		 "set -- gen-data-*/cmake/libraries.cmake && [ $# = 2 ] && "
		 "[ \"$(grep cudart_cu13_tag \"$1\")\" != \"$(grep cudart_cu13_tag \"$2\")\" ] && "
		 "[ \"$(grep cudart_cu12_tag \"$1\")\" = \"$(grep cudart_cu12_tag \"$2\")\" ]",
		 tree, CUDASTUB_TEST_SOURCE_DIR, CUDASTUB_TEST_SOURCE_DIR, E2E_PYTHON,
		 CUDASTUB_TEST_SOURCE_DIR, CUDASTUB_TEST_SOURCE_DIR, E2E_PROJECT_VERSION);
	CU_ASSERT(sh(cmd));
}

TS_TEST(test_tags_follow_exports, "another set of exports gets another tag");

static const struct ts_scenario scenarios[] = {{"open", scenario_open}, {NULL, NULL}};

TS_MAIN_SUITE("e2e: many wheels, one process", suite_init, suite_clean, scenarios)

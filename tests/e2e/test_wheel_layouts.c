/*
 * Search step 3 on the folder trees pip's NVIDIA wheels really make, holding
 * the real libraries (links to the fixtures and the toolkit), with the
 * stubs in a package folder of their own beside them, as a wheel ships
 * them:
 *
 *   cu13/site-packages/nvidia/cu13/lib/         libcudart.so.13, libnvrtc.so.13
 *   cu12/site-packages/nvidia/cuda_runtime/lib/ libcudart.so.12
 *   cu12/site-packages/nvidia/cuda_nvrtc/lib/   libnvrtc.so.12 (and builtins)
 *   cu11/site-packages/...                      the same for 11.8
 *   each tree's site-packages/mypkg/lib/        libcudart_stub.so, libnvrtc_stub.so
 *
 * Each stub finds its library there (source "pip wheel", the right
 * version) with nothing else set, and NVRTC compiles a kernel, so its
 * builtins were found beside it too.
 *
 * Then the 12.4 wheels away from the stubs, which sit in a folder of
 * their own with no nvidia/ above them: found only where Python would
 * import from, through PYTHONPATH naming a `pip install --target` folder,
 * VIRTUAL_ENV's site-packages, and CONDA_PREFIX's lib/ (NVRTC) and
 * targets/<arch>/lib (the runtime), as conda's CUDA packages lay them out.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_support.h"
#include "ts_child.h"
#include "ts_files.h"

static char tree[PATH_MAX];

/* One wheel layout: where each real library goes, and where it comes from
 * (a fixture's libdir, or the toolkit's folder when fixture is NULL). */
static const struct layout {
	const char *name, *fixture, *version;
	const char *cudart_dir, *cudart, *nvrtc_dir, *nvrtc, *builtins;
} layouts[] = {
	{"cu13", NULL, "13.0", "nvidia/cu13/lib", "libcudart.so.13", "nvidia/cu13/lib",
	 "libnvrtc.so.13", "libnvrtc-builtins.so.13.0"},
	{"cu12", "cuda-12.4", "12.4", "nvidia/cuda_runtime/lib", "libcudart.so.12",
	 "nvidia/cuda_nvrtc/lib", "libnvrtc.so.12", "libnvrtc-builtins.so.12.4"},
	{"cu11", "cuda-11.8", "11.8", "nvidia/cuda_runtime/lib", "libcudart.so.11.0",
	 "nvidia/cuda_nvrtc/lib", "libnvrtc.so.11.2", "libnvrtc-builtins.so.11.8"},
};

static int mkdirs(const char *path)
{
	char cmd[4 * PATH_MAX];

	snprintf(cmd, sizeof cmd, "mkdir -p '%s'", path);
	return system(cmd) == 0 ? 0 : -1;
}

/* dir/file -> from/file, dir made first. */
static int link_at(const char *dir, const char *from, const char *file)
{
	char target[PATH_MAX + 256], at[2 * PATH_MAX];

	snprintf(target, sizeof target, "%s/%s", from, file);
	snprintf(at, sizeof at, "%s/%s", dir, file);
	return mkdirs(dir) == 0 && symlink(target, at) == 0 ? 0 : -1;
}

/* <tree>/<layout>/site-packages/<rel>/<file> -> from/<file>. */
static int link_in(const struct layout *l, const char *rel, const char *from, const char *file)
{
	char dir[2 * PATH_MAX];

	snprintf(dir, sizeof dir, "%s/%s/site-packages/%s", tree, l->name, rel);
	return link_at(dir, from, file);
}

/* The runtime and NVRTC stubs, copied into pkg (made first). */
static int copy_stubs(const char *pkg)
{
	char stub[PATH_MAX + 64];

	if (mkdirs(pkg))
		return -1;
	snprintf(stub, sizeof stub, "%s/libcudart_stub.so", pkg);
	if (ts_copy_file(E2E_CUDART_STUB, stub))
		return -1;
	snprintf(stub, sizeof stub, "%s/libnvrtc_stub.so", pkg);
	return ts_copy_file(E2E_NVRTC_STUB, stub);
}

/* Lays out one tree; 0 when done, 1 when its fixture is missing. */
static int lay_out(const struct layout *l)
{
	char from[PATH_MAX], pkg[2 * PATH_MAX];

	if (l->fixture && !ts_fixture_libdir(l->fixture, from, sizeof from))
		return 1;
	if (!l->fixture)
		snprintf(from, sizeof from, "%s", E2E_TOOLKIT_LIB);
	if (link_in(l, l->cudart_dir, from, l->cudart) ||
	    link_in(l, l->nvrtc_dir, from, l->nvrtc) || link_in(l, l->nvrtc_dir, from, l->builtins))
		return -1;
	snprintf(pkg, sizeof pkg, "%s/%s/site-packages/mypkg/lib", tree, l->name);
	return copy_stubs(pkg);
}

/* Child: opens the two stubs of WL_PKG, loads, compiles a kernel. */
static int scenario_load(void)
{
	static const char source[] = "extern \"C\" __global__ void k(int *p) { *p = 1; }\n";
	const char *pkg = getenv("WL_PKG");
	char path[PATH_MAX + 32];
	void *cudart, *nvrtc;
	const cudastub_library_info *(*info)(void);
	cudastub_state (*load)(void);
	int (*create)(void **, const char *, const char *, int, const char *const *,
		      const char *const *);
	int (*compile)(void *, int, const char *const *);
	const char *options[] = {"--gpu-architecture=compute_75"};
	void *program = NULL;

	snprintf(path, sizeof path, "%s/libcudart_stub.so", pkg ? pkg : ".");
	cudart = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	snprintf(path, sizeof path, "%s/libnvrtc_stub.so", pkg ? pkg : ".");
	nvrtc = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!cudart || !nvrtc)
		return 3;
	for (int i = 0; i < 2; i++) {
		void *stub = i ? nvrtc : cudart;
		const char *name = i ? "nvrtc" : "cudart";
		char sym[64];

		snprintf(sym, sizeof sym, "cudastub_%s_load", name);
		*(void **)&load = dlsym(stub, sym);
		snprintf(sym, sizeof sym, "cudastub_%s_info", name);
		*(void **)&info = dlsym(stub, sym);
		if (!load || !info)
			return 4;
		load();
		printf("%s_source=%s\n", name, cudastub_source_name(info()->source));
		printf("%s_version=%d.%d\n", name, info()->major, info()->minor);
		printf("%s_path=%s\n", name, info()->path ? info()->path : "(none)");
	}
	*(void **)&create = dlsym(nvrtc, "nvrtcCreateProgram");
	*(void **)&compile = dlsym(nvrtc, "nvrtcCompileProgram");
	if (!create || !compile)
		return 5;
	printf("create=%d\n", create(&program, source, "k.cu", 0, NULL, NULL));
	printf("compile=%d\n", compile(program, 1, options));
	return 0;
}

static int suite_init(void)
{
	return ts_tmpdir("wheel-layouts", tree, sizeof tree) ? 0 : 1;
}

static int suite_clean(void)
{
	ts_remove_tree(tree);
	return 0;
}

static void test_layouts(void)
{
	for (size_t i = 0; i < sizeof layouts / sizeof *layouts; i++) {
		const struct layout *l = &layouts[i];
		struct ts_env env = {0};
		struct ts_child c;
		char where[PATH_MAX + 64];
		int laid = lay_out(l);

		if (laid == 1)
			continue;
		CU_ASSERT_EQUAL_FATAL(laid, 0);
		ts_env_add(&env, "WL_PKG=%s/%s/site-packages/mypkg/lib", tree, l->name);
		if (!ts_run_scenario(l->name, "load", &env, &c))
			continue;
		TS_EXPECT(l->name, &c, "cudart_source", "pip wheel");
		TS_EXPECT(l->name, &c, "nvrtc_source", "pip wheel");
		TS_EXPECT(l->name, &c, "cudart_version", l->version);
		TS_EXPECT(l->name, &c, "nvrtc_version", l->version);
		snprintf(where, sizeof where, "%s/site-packages/%s/%s", l->name, l->cudart_dir,
			 l->cudart);
		TS_EXPECT_HAS(l->name, &c, "cudart_path", where);
		snprintf(where, sizeof where, "%s/site-packages/%s/%s", l->name, l->nvrtc_dir,
			 l->nvrtc);
		TS_EXPECT_HAS(l->name, &c, "nvrtc_path", where);
		TS_EXPECT_INT(l->name, &c, "create", 0);
		TS_EXPECT_INT(l->name, &c, "compile", 0);
	}
}

TS_TEST(test_layouts, "cu13, cuda_runtime/cuda_nvrtc for 12.4 and 11.8: found, and compiles");

#if defined(__aarch64__)
#define CONDA_TARGET "sbsa-linux"
#else
#define CONDA_TARGET "x86_64-linux"
#endif

/* Where each case puts the 12.4 runtime and NVRTC, relative to the tree,
 * and the variable that leads there (its value relative to the tree). */
static const struct python_case {
	const char *name, *cudart_dir, *nvrtc_dir, *variable, *value;
} python_cases[] = {
	{"PYTHONPATH naming a pip --target folder", "target/nvidia/cuda_runtime/lib",
	 "target/nvidia/cuda_nvrtc/lib", "PYTHONPATH", "target"},
	{"VIRTUAL_ENV", "venv/lib/python3.12/site-packages/nvidia/cuda_runtime/lib",
	 "venv/lib/python3.12/site-packages/nvidia/cuda_nvrtc/lib", "VIRTUAL_ENV", "venv"},
	{"CONDA_PREFIX", "conda/targets/" CONDA_TARGET "/lib", "conda/lib", "CONDA_PREFIX",
	 "conda"},
};

/* The stubs, in a folder whose ancestors hold no nvidia/ folder. */
static int stubs_away(char *pkg, size_t size)
{
	if (snprintf(pkg, size, "%.*s/away/pkg/x/lib", (int)(size - 32), tree) >= (int)size)
		return -1;
	return copy_stubs(pkg);
}

static void test_python_roots(void)
{
	char from[PATH_MAX], pkg[PATH_MAX], dir[2 * PATH_MAX];

	if (!ts_fixture_libdir("cuda-12.4", from, sizeof from))
		return;
	CU_ASSERT_EQUAL_FATAL(stubs_away(pkg, sizeof pkg), 0);
	for (size_t i = 0; i < sizeof python_cases / sizeof *python_cases; i++) {
		const struct python_case *p = &python_cases[i];
		static const char *const unset[] = {"PYTHONPATH", "VIRTUAL_ENV", "CONDA_PREFIX"};
		struct ts_env env = {0};
		struct ts_child c;
		char where[PATH_MAX];

		snprintf(dir, sizeof dir, "%s/%s", tree, p->cudart_dir);
		CU_ASSERT_EQUAL_FATAL(link_at(dir, from, "libcudart.so.12"), 0);
		snprintf(dir, sizeof dir, "%s/%s", tree, p->nvrtc_dir);
		CU_ASSERT_EQUAL_FATAL(link_at(dir, from, "libnvrtc.so.12"), 0);
		CU_ASSERT_EQUAL_FATAL(link_at(dir, from, "libnvrtc-builtins.so.12.4"), 0);
		for (size_t k = 0; k < sizeof unset / sizeof *unset; k++)
			if (strcmp(unset[k], p->variable))
				ts_env_add(&env, "%s", unset[k]); /* a name alone: removed */
		/* a PYTHONPATH entry that does not exist comes first: skipped */
		ts_env_add(&env, "%s=%s%s/%s", p->variable,
			   strcmp(p->variable, "PYTHONPATH") ? "" : "/nonexistent:", tree,
			   p->value);
		ts_env_add(&env, "WL_PKG=%s", pkg);
		if (!ts_run_scenario(p->name, "load", &env, &c))
			continue;
		TS_EXPECT(p->name, &c, "cudart_source", "pip wheel");
		TS_EXPECT(p->name, &c, "nvrtc_source", "pip wheel");
		TS_EXPECT(p->name, &c, "cudart_version", "12.4");
		TS_EXPECT(p->name, &c, "nvrtc_version", "12.4");
		snprintf(where, sizeof where, "%s/libcudart.so.12", p->cudart_dir);
		TS_EXPECT_HAS(p->name, &c, "cudart_path", where);
		snprintf(where, sizeof where, "%s/libnvrtc.so.12", p->nvrtc_dir);
		TS_EXPECT_HAS(p->name, &c, "nvrtc_path", where);
		TS_EXPECT_INT(p->name, &c, "compile", 0);
	}
}

TS_TEST(test_python_roots, "12.4 through PYTHONPATH (--target), VIRTUAL_ENV and CONDA_PREFIX");

static const struct ts_scenario scenarios[] = {{"load", scenario_load}, {NULL, NULL}};

TS_MAIN_SUITE("e2e: pip's NVIDIA wheel layouts, real libraries", suite_init, suite_clean, scenarios)

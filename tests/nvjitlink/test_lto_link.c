/*
 * nvJitLink through its stub, on real work: a kernel compiled by NVRTC to
 * LTO-IR (through the NVRTC stub) and linked by nvJitLink (through the
 * nvJitLink stub) into a cubin, byte for byte the cubin the same steps give
 * called directly, with the real 13.0 (toolkit) and 12.4 (fixture)
 * libraries. No GPU is needed: both are compilers.
 *
 * The stub is the build's: the plain names (nvJitLinkCreate) forward to
 * both; the name its headers' static inlines call (__nvJitLinkCreate_13_0
 * in a 13.0-ABI build, _12_4 in a 12.4 one) forwards to the release that
 * has it and gives the stub's "not found" code on the other. CUDA 11.8 has no nvJitLink: with
 * only 11.8's folder to look in, every call gives the stub's "no library"
 * code, and info says what was searched.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <nvJitLink.h>
#include <nvrtc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cudastub/cudastub.h"
#include "test_support.h"
#include "ts_child.h"
#include "ts_real.h"

static const char kernel[] = "extern \"C\" __global__ void scale(float *x, float a, int n)\n"
			     "{\n"
			     "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
			     "    if (i < n) x[i] *= a;\n"
			     "}\n";

/* ---- child: compile and link, through LL_NVRTC and LL_NVJITLINK ---- */

/* FNV-1a, to compare cubins through the key=value protocol */
static uint64_t digest(const unsigned char *p, size_t n)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	return h;
}

static int link_child(void)
{
	void *nvrtc = dlopen(getenv("LL_NVRTC"), RTLD_NOW | RTLD_LOCAL);
	void *jit = dlopen(getenv("LL_NVJITLINK"), RTLD_NOW | RTLD_LOCAL);
	nvrtcResult (*create_program)(nvrtcProgram *, const char *, const char *, int,
				      const char *const *, const char *const *);
	nvrtcResult (*compile)(nvrtcProgram, int, const char *const *);
	nvrtcResult (*ir_size)(nvrtcProgram, size_t *);
	nvrtcResult (*ir)(nvrtcProgram, char *);
	nvJitLinkResult (*create)(nvJitLinkHandle *, uint32_t, const char **);
	nvJitLinkResult (*add)(nvJitLinkHandle, nvJitLinkInputType, const void *, size_t,
			       const char *);
	nvJitLinkResult (*complete)(nvJitLinkHandle);
	nvJitLinkResult (*cubin_size)(nvJitLinkHandle, size_t *);
	nvJitLinkResult (*cubin)(nvJitLinkHandle, void *);
	nvJitLinkResult (*versioned_create)(nvJitLinkHandle *, uint32_t, const char **);
	nvJitLinkResult (*destroy)(nvJitLinkHandle *);
	nvrtcResult (*destroy_program)(nvrtcProgram *);
	const char *compile_options[] = {"-dlto", "-arch=sm_75"};
	const char *link_options[] = {"-arch=sm_75", "-lto"};
	nvrtcProgram program;
	nvJitLinkHandle handle, other = NULL;
	size_t size = 0, linked = 0;
	char *lto;
	unsigned char *image;

	if (!nvrtc || !jit) {
		printf("open_error=%s\n", dlerror());
		return 3;
	}
	*(void **)&create_program = ts_real_symbol(nvrtc, "nvrtcCreateProgram");
	*(void **)&compile = ts_real_symbol(nvrtc, "nvrtcCompileProgram");
	*(void **)&ir_size = ts_real_symbol(nvrtc, "nvrtcGetLTOIRSize");
	*(void **)&ir = ts_real_symbol(nvrtc, "nvrtcGetLTOIR");
	*(void **)&create = ts_real_symbol(jit, "nvJitLinkCreate");
	*(void **)&add = ts_real_symbol(jit, "nvJitLinkAddData");
	*(void **)&complete = ts_real_symbol(jit, "nvJitLinkComplete");
	*(void **)&cubin_size = ts_real_symbol(jit, "nvJitLinkGetLinkedCubinSize");
	*(void **)&cubin = ts_real_symbol(jit, "nvJitLinkGetLinkedCubin");
	*(void **)&destroy = ts_real_symbol(jit, "nvJitLinkDestroy");
	*(void **)&destroy_program = ts_real_symbol(nvrtc, "nvrtcDestroyProgram");
	printf("create_program=%d\n",
	       (int)create_program(&program, kernel, "scale.cu", 0, NULL, NULL));
	printf("compile=%d\n", (int)compile(program, 2, compile_options));
	printf("ir_size_rc=%d\n", (int)ir_size(program, &size));
	lto = malloc(size ? size : 1);
	printf("ir_rc=%d\nir_size=%zu\n", (int)ir(program, lto), size);
	printf("create=%d\n", (int)create(&handle, 2, link_options));
	printf("add=%d\n", (int)add(handle, NVJITLINK_INPUT_LTOIR, lto, size, "scale"));
	printf("complete=%d\n", (int)complete(handle));
	printf("cubin_size_rc=%d\n", (int)cubin_size(handle, &linked));
	image = malloc(linked ? linked : 1);
	printf("cubin_rc=%d\ncubin_size=%zu\n", (int)cubin(handle, image), linked);
	printf("cubin_digest=%016llx\n", (unsigned long long)digest(image, linked));
	/* what a program built with the build's headers calls
	 * (__nvJitLinkCreate_13_0 from 13.0's, _12_4 from 12.4's) */
	*(void **)&versioned_create = dlsym(jit, LL_VERSIONED_CREATE);
	if (versioned_create)
		printf("versioned_create=%d\n", (int)versioned_create(&other, 2, link_options));
	if (versioned_create && other)
		destroy(&other);
	printf("destroy=%d\n", (int)destroy(&handle));
	printf("destroy_program=%d\n", (int)destroy_program(&program));
	free(lto);
	free(image);
	fflush(stdout);
	return 0;
}

/* With a library that cannot be found: every call says so. */
static int missing_child(void)
{
	void *jit = dlopen(getenv("LL_NVJITLINK"), RTLD_NOW | RTLD_LOCAL);
	nvJitLinkResult (*create)(nvJitLinkHandle *, uint32_t, const char **);
	nvJitLinkResult (*version)(unsigned int *, unsigned int *);
	const cudastub_library_info *(*info)(void);
	unsigned int major = 7, minor = 7;
	nvJitLinkHandle handle = NULL;
	nvJitLinkResult rc;

	if (!jit)
		return 3;
	*(void **)&create = ts_real_symbol(jit, "nvJitLinkCreate");
	*(void **)&version = ts_real_symbol(jit, "nvJitLinkVersion");
	*(void **)&info = ts_real_symbol(jit, "cudastub_nvjitlink_info");
	printf("create=%d\n", (int)create(&handle, 0, NULL));
	rc = version(&major, &minor);
	printf("version=%d\nmajor=%u\nminor=%u\n", (int)rc, major, minor);
	printf("state=%d\nerror=%s\n", (int)info()->state, info()->error ? info()->error : "");
	for (unsigned i = 0; i < info()->attempt_count; i++)
		printf("tried.%u=%s\n", i, info()->attempts[i].path);
	fflush(stdout);
	return 0;
}

/* ---- parent ---- */

struct release {
	const char *name;	       /* "13.0" */
	const char *nvrtc, *nvjitlink; /* the real libraries */
};

/* What the versioned entry point of the build's headers gives on a
 * release: forwarded where the release has that name (its major, a minor
 * as new), else the stub's "not found". */
static int versioned_code(int major, int minor)
{
	return major == LL_ABI_MAJOR && minor >= LL_ABI_MINOR ? 0
							      : CUDASTUB_NVJITLINK_ERROR_NOT_FOUND;
}

static struct ts_child direct, through;

/* Direct (no overrides): the real libraries' folder on the loader's path,
 * where NVRTC 11.x and 12.x look for their builtins by name. */
static int run_link(const char *nvrtc, const char *nvjitlink, const char *nvrtc_override,
		    const char *nvjitlink_override, struct ts_child *out)
{
	char a[PATH_MAX + 16], b[PATH_MAX + 16], c[PATH_MAX + 32], d[PATH_MAX + 32];
	char e[PATH_MAX + 32];
	const char *env[] = {a, b, c, d, e, NULL};
	char *slash;

	snprintf(a, sizeof a, "LL_NVRTC=%s", nvrtc);
	snprintf(b, sizeof b, "LL_NVJITLINK=%s", nvjitlink);
	snprintf(c, sizeof c, "CUDASTUB_NVRTC_PATH=%s", nvrtc_override ? nvrtc_override : "");
	snprintf(d, sizeof d, "CUDASTUB_NVJITLINK_PATH=%s",
		 nvjitlink_override ? nvjitlink_override : "");
	snprintf(e, sizeof e, "LD_LIBRARY_PATH=%s", nvrtc_override ? "" : nvrtc);
	if (!nvrtc_override && (slash = strrchr(e, '/')) != NULL)
		*slash = '\0';
	if (ts_run_child("link", env, out) != 0 || out->exit_code != 0) {
		CU_FAIL("the link child failed");
		fprintf(stderr, "%s%s\n", out->out, out->err);
		return -1;
	}
	return 0;
}

static void link_both_ways(const struct release *r, int versioned)
{
	static const char *const same[] = {"create_program", "compile",	 "ir_rc",
					   "ir_size",	     "create",	 "add",
					   "complete",	     "cubin_rc", "cubin_size",
					   "cubin_digest",   "destroy",	 "destroy_program"};

	if (run_link(r->nvrtc, r->nvjitlink, NULL, NULL, &direct) ||
	    run_link(LL_NVRTC_STUB, LL_NVJITLINK_STUB, r->nvrtc, r->nvjitlink, &through))
		return;
	CU_ASSERT_EQUAL(ts_long(&direct, "complete"), 0);
	CU_ASSERT(ts_long(&direct, "cubin_size") > 0);
	for (size_t i = 0; i < sizeof same / sizeof *same; i++) {
		const char *want = ts_value(&direct, same[i]), *got = ts_value(&through, same[i]);

		CU_ASSERT_PTR_NOT_NULL(got);
		if (want && got)
			CU_ASSERT_STRING_EQUAL(got, want);
	}
	/* the stub always exports what its headers' inlines call */
	CU_ASSERT_EQUAL(ts_long(&through, "versioned_create"), versioned);
	printf("  %s: LTO-IR of %ld bytes, cubin of %ld bytes, the same through the stubs\n",
	       r->name, ts_long(&direct, "ir_size"), ts_long(&direct, "cubin_size"));
}

static void test_13_0(void)
{
	char nvrtc[PATH_MAX], jit[PATH_MAX];
	struct release r = {"13.0", nvrtc, jit};

	if (!ts_toolkit_file("libnvJitLink.so.13", jit, sizeof jit) ||
	    !ts_toolkit_file("libnvrtc.so.13", nvrtc, sizeof nvrtc))
		return;
	link_both_ways(&r, versioned_code(13, 0));
}

TS_TEST(test_13_0, "13.0: NVRTC's LTO-IR linked, the same cubin");

static void test_12_4(void)
{
	char dir[PATH_MAX / 2], nvrtc[PATH_MAX], jit[PATH_MAX];
	struct release r = {"12.4", nvrtc, jit};

	if (!ts_fixture_libdir("cuda-12.4", dir, sizeof dir))
		return;
	snprintf(nvrtc, sizeof nvrtc, "%s/libnvrtc.so.12", dir);
	snprintf(jit, sizeof jit, "%s/libnvJitLink.so.12", dir);
	link_both_ways(&r, versioned_code(12, 4));
}

TS_TEST(test_12_4, "12.4: NVRTC's LTO-IR linked, the same cubin");

static void test_11_8_has_none(void)
{
	char dir[PATH_MAX / 2], override[PATH_MAX], stub[PATH_MAX + 16];
	const char *env[] = {stub, override, NULL};
	struct ts_child c;

	if (!ts_fixture_libdir("cuda-11.8", dir, sizeof dir))
		return;
	snprintf(stub, sizeof stub, "LL_NVJITLINK=%s", LL_NVJITLINK_STUB);
	snprintf(override, sizeof override, "CUDASTUB_NVJITLINK_PATH=%s", dir);
	if (ts_run_child("missing", env, &c) != 0 || c.exit_code != 0) {
		CU_FAIL("the missing child failed");
		return;
	}
	CU_ASSERT_EQUAL(ts_long(&c, "create"), CUDASTUB_NVJITLINK_ERROR_STUB_LIBRARY);
	CU_ASSERT_EQUAL(ts_long(&c, "version"), CUDASTUB_NVJITLINK_ERROR_STUB_LIBRARY);
	CU_ASSERT_STRING_EQUAL(ts_value(&c, "major"), "0");
	CU_ASSERT_STRING_EQUAL(ts_value(&c, "minor"), "0");
	CU_ASSERT_EQUAL(ts_long(&c, "state"), CUDASTUB_STATE_OVERRIDE_FAILED);
	/* it looked for the 13 and 12 names in 11.8's folder, and says which */
	CU_ASSERT_PTR_NOT_NULL(strstr(ts_value(&c, "tried.0"), "libnvJitLink.so.13"));
	CU_ASSERT_PTR_NOT_NULL(strstr(ts_value(&c, "tried.1"), "libnvJitLink.so.12"));
	CU_ASSERT_PTR_NOT_NULL(strstr(ts_value(&c, "error"), "CUDASTUB_NVJITLINK_PATH="));
}

TS_TEST(test_11_8_has_none, "11.8 has no nvJitLink, and the stub says so");

static const struct ts_scenario scenarios[] = {
	{"link", link_child}, {"missing", missing_child}, {NULL, NULL}};

TS_MAIN_SUITE("nvJitLink: LTO through the stubs, real libraries", NULL, NULL, scenarios)

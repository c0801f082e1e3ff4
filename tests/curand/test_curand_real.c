/*
 * cuRAND through its stub, with NVIDIA's libraries and no GPU. One SONAME,
 * libcurand.so.10, serves CUDA 11, 12 and 13: the 13.0 toolkit's (cuRAND
 * 10.4), and the 12.4 and 11.8 fixtures' (10.3.5, 10.3.0).
 *
 *   versions    curandGetVersion and curandGetProperty through the stub
 *               answer what the library answers directly, and the stub
 *               reports the CUDA release the spec's release lines give that
 *               version, though the file name is the same;
 *   generators  curandCreateGenerator returns what the library returns
 *               without a GPU (CURAND_STATUS_INITIALIZATION_FAILED; with
 *               one, what it returns there); the host generators need no
 *               device: every kind, seeded, draws the same numbers through
 *               the stub as directly, byte for byte, as do the Sobol
 *               direction vectors and scramble constants the library
 *               hands out;
 *   gating      curandGenerateBinomial(Method), which curand.h declares
 *               and no library here exports, is refused
 *               (CURAND_STATUS_VERSION_MISMATCH), never called;
 *   release     with a CUDA 12 library already in the process (12.4's
 *               libcufft.so.11), the stub takes a libcurand.so.10 of CUDA
 *               12 though a 13.0 one comes first on the path, and one of
 *               another release only when there is none of 12;
 *   no library  every call CURAND_STATUS_INITIALIZATION_FAILED, the
 *               version outputs 0;
 *   other ABIs  the stubs built against the 12.4 and 11.8 headers: the
 *               same versions and numbers on every release.
 */
#define _GNU_SOURCE
#include <curand.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cudastub/cudastub.h"
#include "test_support.h"
#include "ts_real.h"
#include "ts_files.h"

/* From CMake: CR_STUB (the build's stub, 13 ABI), CR_STUB_12 and
 * CR_STUB_11 (the stubs of the 12.4 and 11.8 headers, "" when those
 * headers were not fetched when configuring). */

/* numbers drawn of each kind, per generator */
#define DRAWS 1000
/* Sobol dimensions whose direction vectors and scramble constants are kept */
#define DIMENSIONS 64

/* ---- child: the calls, through CR_OPEN (the stub or a real library) ---- */

/* The functions the draws need, from one library. */
struct api {
	curandStatus_t (*create_host)(curandGenerator_t *, curandRngType_t);
	curandStatus_t (*destroy)(curandGenerator_t);
	curandStatus_t (*seed)(curandGenerator_t, unsigned long long);
	curandStatus_t (*offset)(curandGenerator_t, unsigned long long);
	curandStatus_t (*dimensions)(curandGenerator_t, unsigned int);
	curandStatus_t (*bits)(curandGenerator_t, unsigned int *, size_t);
	curandStatus_t (*bits64)(curandGenerator_t, unsigned long long *, size_t);
	curandStatus_t (*uniform)(curandGenerator_t, float *, size_t);
	curandStatus_t (*uniform_double)(curandGenerator_t, double *, size_t);
	curandStatus_t (*normal)(curandGenerator_t, float *, size_t, float, float);
	curandStatus_t (*normal_double)(curandGenerator_t, double *, size_t, double, double);
	curandStatus_t (*log_normal)(curandGenerator_t, float *, size_t, float, float);
	curandStatus_t (*poisson)(curandGenerator_t, unsigned int *, size_t, double);
};

static void api_from(void *lib, struct api *a)
{
	*(void **)&a->create_host = ts_real_symbol(lib, "curandCreateGeneratorHost");
	*(void **)&a->destroy = ts_real_symbol(lib, "curandDestroyGenerator");
	*(void **)&a->seed = ts_real_symbol(lib, "curandSetPseudoRandomGeneratorSeed");
	*(void **)&a->offset = ts_real_symbol(lib, "curandSetGeneratorOffset");
	*(void **)&a->dimensions = ts_real_symbol(lib, "curandSetQuasiRandomGeneratorDimensions");
	*(void **)&a->bits = ts_real_symbol(lib, "curandGenerate");
	*(void **)&a->bits64 = ts_real_symbol(lib, "curandGenerateLongLong");
	*(void **)&a->uniform = ts_real_symbol(lib, "curandGenerateUniform");
	*(void **)&a->uniform_double = ts_real_symbol(lib, "curandGenerateUniformDouble");
	*(void **)&a->normal = ts_real_symbol(lib, "curandGenerateNormal");
	*(void **)&a->normal_double = ts_real_symbol(lib, "curandGenerateNormalDouble");
	*(void **)&a->log_normal = ts_real_symbol(lib, "curandGenerateLogNormal");
	*(void **)&a->poisson = ts_real_symbol(lib, "curandGeneratePoisson");
}

/* One host generator of kind type: its codes printed, its numbers written
 * to out. */
static void draw(const struct api *a, curandRngType_t type, int quasi, int wide, FILE *out)
{
	static unsigned int u[DRAWS];
	static unsigned long long l[DRAWS];
	static float f[DRAWS];
	static double d[DRAWS];
	curandGenerator_t g;
	curandStatus_t rc = a->create_host(&g, type);

	printf("host.%d.create=%d\n", (int)type, (int)rc);
	if (rc != CURAND_STATUS_SUCCESS)
		return;
	if (quasi)
		printf("host.%d.setup=%d\n", (int)type, (int)a->dimensions(g, 3));
	else
		printf("host.%d.setup=%d\n", (int)type, (int)a->seed(g, 20250611ull));
	printf("host.%d.offset=%d\n", (int)type, (int)a->offset(g, 17));
	memset(u, 0, sizeof u);
	memset(l, 0, sizeof l);
	if (wide) {
		printf("host.%d.bits=%d\n", (int)type, (int)a->bits64(g, l, DRAWS));
		fwrite(l, sizeof l, 1, out);
	} else {
		printf("host.%d.bits=%d\n", (int)type, (int)a->bits(g, u, DRAWS));
		fwrite(u, sizeof u, 1, out);
	}
	memset(f, 0, sizeof f);
	printf("host.%d.uniform=%d\n", (int)type, (int)a->uniform(g, f, DRAWS));
	fwrite(f, sizeof f, 1, out);
	memset(d, 0, sizeof d);
	printf("host.%d.uniform_double=%d\n", (int)type, (int)a->uniform_double(g, d, DRAWS));
	fwrite(d, sizeof d, 1, out);
	memset(f, 0, sizeof f);
	printf("host.%d.normal=%d\n", (int)type, (int)a->normal(g, f, DRAWS, 1.0f, 2.0f));
	fwrite(f, sizeof f, 1, out);
	memset(d, 0, sizeof d);
	printf("host.%d.normal_double=%d\n", (int)type,
	       (int)a->normal_double(g, d, DRAWS, -3.0, 0.5));
	fwrite(d, sizeof d, 1, out);
	memset(f, 0, sizeof f);
	printf("host.%d.log_normal=%d\n", (int)type, (int)a->log_normal(g, f, DRAWS, 0.0f, 1.0f));
	fwrite(f, sizeof f, 1, out);
	memset(u, 0, sizeof u);
	printf("host.%d.poisson=%d\n", (int)type, (int)a->poisson(g, u, DRAWS, 4.5));
	fwrite(u, sizeof u, 1, out);
	printf("host.%d.destroy=%d\n", (int)type, (int)a->destroy(g));
}

/* The host generator kinds drawn from: {type, quasi, 64-bit output}.
 * MRG32K3A and MT19937 are left out: the 13.0 library's host generators of
 * those spend 1 and 7 seconds of CPU on their first draw (their skip-ahead
 * set-up), and they would show nothing about the stub the others do not. */
static const struct {
	curandRngType_t type;
	int quasi, wide;
} kinds[] = {
	{CURAND_RNG_PSEUDO_XORWOW, 0, 0},	    {CURAND_RNG_PSEUDO_MTGP32, 0, 0},
	{CURAND_RNG_PSEUDO_PHILOX4_32_10, 0, 0},    {CURAND_RNG_QUASI_SOBOL32, 1, 0},
	{CURAND_RNG_QUASI_SCRAMBLED_SOBOL32, 1, 0}, {CURAND_RNG_QUASI_SOBOL64, 1, 1},
	{CURAND_RNG_QUASI_SCRAMBLED_SOBOL64, 1, 1},
};
#define KINDS (sizeof kinds / sizeof *kinds)

/* The library's own tables: Sobol direction vectors, scramble constants. */
static void tables(void *lib, FILE *out)
{
	curandStatus_t (*vectors32)(curandDirectionVectors32_t **, curandDirectionVectorSet_t);
	curandStatus_t (*vectors64)(curandDirectionVectors64_t **, curandDirectionVectorSet_t);
	curandStatus_t (*scramble32)(unsigned int **);
	curandStatus_t (*scramble64)(unsigned long long **);
	curandDirectionVectors32_t *v32 = NULL;
	curandDirectionVectors64_t *v64 = NULL;
	unsigned int *s32 = NULL;
	unsigned long long *s64 = NULL;
	curandStatus_t rc;

	*(void **)&vectors32 = ts_real_symbol(lib, "curandGetDirectionVectors32");
	*(void **)&vectors64 = ts_real_symbol(lib, "curandGetDirectionVectors64");
	*(void **)&scramble32 = ts_real_symbol(lib, "curandGetScrambleConstants32");
	*(void **)&scramble64 = ts_real_symbol(lib, "curandGetScrambleConstants64");
	rc = vectors32(&v32, CURAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6);
	printf("vectors32=%d\n", (int)rc);
	if (rc == CURAND_STATUS_SUCCESS && v32)
		fwrite(v32, sizeof *v32, DIMENSIONS, out);
	rc = vectors64(&v64, CURAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6);
	printf("vectors64=%d\n", (int)rc);
	if (rc == CURAND_STATUS_SUCCESS && v64)
		fwrite(v64, sizeof *v64, DIMENSIONS, out);
	rc = scramble32(&s32);
	printf("scramble32=%d\n", (int)rc);
	if (rc == CURAND_STATUS_SUCCESS && s32)
		fwrite(s32, sizeof *s32, DIMENSIONS, out);
	rc = scramble64(&s64);
	printf("scramble64=%d\n", (int)rc);
	if (rc == CURAND_STATUS_SUCCESS && s64)
		fwrite(s64, sizeof *s64, DIMENSIONS, out);
}

static int calls_child(void)
{
	void *lib = ts_real_open("CR_OPEN");
	const char *out_path = getenv("CR_OUT");
	void *get_version, *get_property;
	curandStatus_t (*create)(curandGenerator_t *, curandRngType_t);
	curandStatus_t (*destroy)(curandGenerator_t);
	curandStatus_t (*binomial)(curandGenerator_t, unsigned int *, size_t, unsigned int, double);
	int rc;
	curandGenerator_t generator = NULL;
	struct api a;
	FILE *out;

	if (!lib)
		return 3;
	out = fopen(out_path ? out_path : "/dev/null", "wb");
	if (!out)
		return 4;
	get_version = ts_real_symbol(lib, "curandGetVersion");
	get_property = ts_real_symbol(lib, "curandGetProperty");
	*(void **)&create = ts_real_symbol(lib, "curandCreateGenerator");
	*(void **)&destroy = ts_real_symbol(lib, "curandDestroyGenerator");
	ts_real_print_version(get_version, get_property);
	rc = (int)create(&generator, CURAND_RNG_PSEUDO_DEFAULT);
	printf("create_rc=%d\n", rc);
	if (rc == CURAND_STATUS_SUCCESS)
		printf("create_destroy=%d\n", (int)destroy(generator));

	api_from(lib, &a);
	for (size_t k = 0; k < KINDS; k++)
		draw(&a, kinds[k].type, kinds[k].quasi, kinds[k].wide, out);
	tables(lib, out);
	/* the library's own answers end here: what follows differs by design */
	printf("--\n");

	/* declared by curand.h, exported by no library here */
	*(void **)&binomial = dlsym(lib, "curandGenerateBinomial");
	if (binomial) {
		unsigned int n[4];

		printf("binomial_rc=%d\n", (int)binomial(NULL, n, 4, 10, 0.5));
	} else {
		printf("binomial_rc=absent\n");
	}
	fclose(out);
	ts_real_print_info(lib, "cudastub_curand_info");
	fflush(stdout);
	return 0;
}

/* CR_PRELOAD first (a CUDA library of some release), then the version
 * through CR_OPEN: which libcurand.so.10 the stub takes. */
static int release_child(void)
{
	void *first = dlopen(getenv("CR_PRELOAD"), RTLD_NOW | RTLD_GLOBAL);
	void *lib = first ? ts_real_open("CR_OPEN") : NULL;
	curandStatus_t (*get_version)(int *);
	int version = -7;

	if (!lib)
		return 3;
	get_version = ts_real_symbol(lib, "curandGetVersion");
	printf("version_rc=%d\n", (int)get_version(&version));
	printf("version=%d\n", version);
	ts_real_print_info(lib, "cudastub_curand_info");
	fflush(stdout);
	return 0;
}

/* ---- parent ---- */

static const struct ts_real_release releases[] = {
	{"13.0", 13, NULL, "libcurand.so.10"},
	{"12.4", 12, "mathlibs-12.4", "libcurand.so.10"},
	{"11.8", 11, "mathlibs-11.8", "libcurand.so.10"},
};
#define RELEASES (sizeof releases / sizeof *releases)

/* The folder of r's libraries, or NULL (reported). */
static const char *release_dir(const struct ts_real_release *r, char *buf, size_t size)
{
	if (!ts_real_library(r, buf, size))
		return NULL;
	*strrchr(buf, '/') = '\0';
	return buf;
}

static char tmp[PATH_MAX / 2];

/* The calls directly on real and through stub (its override), the numbers
 * each drew written to tmp/direct and tmp/through; 0 when both ran. */
static int curand_both(const char *stub, const char *real)
{
	char override[PATH_MAX + 32], out_direct[PATH_MAX], out_through[PATH_MAX];
	const char *env_direct[] = {out_direct, NULL},
		   *env_through[] = {override, out_through, NULL};

	snprintf(override, sizeof override, "CUDASTUB_CURAND_PATH=%s", real);
	snprintf(out_direct, sizeof out_direct, "CR_OUT=%s/direct", tmp);
	snprintf(out_through, sizeof out_through, "CR_OUT=%s/through", tmp);
	if (ts_real_run("calls", "CR_OPEN", real, env_direct, &ts_direct) ||
	    ts_real_run("calls", "CR_OPEN", stub, env_through, &ts_through))
		return -1;
	return 0;
}

/* Every line the direct child printed up to "--" (the library's own
 * answers) is what the stub's child printed, in order. */
static void expect_same_answers(void)
{
	char *a = ts_direct.out, *b = ts_through.out;

	CU_ASSERT_PTR_NOT_NULL(strstr(ts_direct.out, "\n--\n"));
	while (*a && strncmp(a, "--\n", 3) != 0) {
		char *end_a = strchr(a, '\n'), *end_b = strchr(b, '\n');
		size_t len = end_a ? (size_t)(end_a - a) : strlen(a);
		char msg[256];

		snprintf(msg, sizeof msg, "directly \"%.*s\", through the stub \"%.*s\"", (int)len,
			 a, end_b ? (int)(end_b - b) : (int)strlen(b), b);
		CU_assertImplementation(!strncmp(a, b, len) && (b[len] == '\n' || !b[len]),
					__LINE__, msg, __FILE__, "", CU_FALSE);
		if (!end_a || !end_b)
			break;
		a = end_a + 1;
		b = end_b + 1;
	}
}

/* The whole of a file, malloc'd (its size in *size), or NULL. */
static char *read_whole(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	char *data = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (data = malloc((size_t)n + 1)) != NULL && fread(data, 1, (size_t)n, f) == (size_t)n) {
		*size = (size_t)n;
	} else {
		free(data);
		data = NULL;
	}
	fclose(f);
	return data;
}

/* The numbers drawn: the same bytes, and some of them. */
static size_t expect_same_numbers(void)
{
	char a[PATH_MAX], b[PATH_MAX];
	size_t size_a = 0, size_b = 0;
	char *da, *db;

	snprintf(a, sizeof a, "%s/direct", tmp);
	snprintf(b, sizeof b, "%s/through", tmp);
	da = read_whole(a, &size_a);
	db = read_whole(b, &size_b);
	CU_ASSERT_PTR_NOT_NULL(da);
	CU_ASSERT_PTR_NOT_NULL(db);
	CU_ASSERT(size_a > (size_t)KINDS * 7 * DRAWS * 4);
	CU_ASSERT_EQUAL(size_a, size_b);
	CU_ASSERT(da && db && size_a == size_b && memcmp(da, db, size_a) == 0);
	free(da);
	free(db);
	return size_a;
}

/* The calls through one stub on every real release. */
static void calls_through(const char *stub, int abi)
{
	for (size_t i = 0; i < RELEASES; i++) {
		char dir[PATH_MAX / 2], real[PATH_MAX];
		size_t bytes;

		if (!release_dir(&releases[i], dir, sizeof dir))
			continue;
		snprintf(real, sizeof real, "%s/libcurand.so.10", dir);
		if (curand_both(stub, real))
			continue;
		CU_ASSERT_EQUAL(ts_number(&ts_direct, "version_rc"), CURAND_STATUS_SUCCESS);
		CU_ASSERT_EQUAL(ts_number(&ts_direct, "property_rc"), CURAND_STATUS_SUCCESS);
		CU_ASSERT_EQUAL(ts_number(&ts_direct, "host.101.create"), CURAND_STATUS_SUCCESS);
		CU_ASSERT_EQUAL(ts_number(&ts_direct, "host.101.normal_double"),
				CURAND_STATUS_SUCCESS);
		expect_same_answers();
		bytes = expect_same_numbers();
		CU_ASSERT_STRING_EQUAL(ts_value(&ts_through, "own"),
				       ts_value(&ts_direct, "property"));
		CU_ASSERT_EQUAL(ts_number(&ts_through, "state"), CUDASTUB_STATE_LOADED);
		CU_ASSERT_EQUAL(ts_number(&ts_through, "major"), releases[i].major);
		/* no libcurand exports it: refused, never called */
		CU_ASSERT_STRING_EQUAL(ts_value(&ts_direct, "binomial_rc"), "absent");
		CU_ASSERT_EQUAL(ts_number(&ts_through, "binomial_rc"),
				CURAND_STATUS_VERSION_MISMATCH);
		printf("  %d ABI, %s: cuRAND %s, CUDA %ld; curandCreateGenerator %ld both ways; "
		       "%zu bytes of host numbers and tables, the same\n",
		       abi, releases[i].name, ts_value(&ts_direct, "property"),
		       ts_number(&ts_through, "major"), ts_number(&ts_direct, "create_rc"), bytes);
	}
}

static void test_versions_and_numbers(void)
{
	calls_through(CR_STUB, 13);
}

TS_TEST(test_versions_and_numbers,
	"versions, generators and host numbers as directly, the right release");

/* Which libcurand.so.10 the stub takes with a library of one release in
 * the process, every release's folder on the path (13.0's first). */
static void test_release(void)
{
	static const char *const evidence[] = {"libcufft.so.12", "libcufft.so.11",
					       "libcufft.so.10"};
	char dirs[RELEASES][PATH_MAX / 4], path[PATH_MAX], preload[PATH_MAX], asan[512];
	const char *env[] = {path, preload, asan, NULL};

	for (size_t i = 0; i < RELEASES; i++)
		if (!release_dir(&releases[i], dirs[i], sizeof dirs[i]))
			return;
	/* A file set aside is unloaded, and 13.0's libcurand.so.10 never frees
	 * what its constructor allocates (71 KiB: the emergency exception pool
	 * of the C++ runtime linked into it); with its module gone, LeakSanitizer
	 * would report the block as this process's. */
	ts_env_leaks_unnamed(asan, sizeof asan);
	snprintf(path, sizeof path, "LD_LIBRARY_PATH=%s:%s:%s", dirs[0], dirs[1], dirs[2]);
	for (size_t i = 0; i < RELEASES; i++) {
		char loaded[PATH_MAX];

		snprintf(preload, sizeof preload, "CR_PRELOAD=%s/%s", dirs[i], evidence[i]);
		if (ts_real_run("release", "CR_OPEN", CR_STUB, env, &ts_through))
			continue;
		CU_ASSERT_EQUAL(ts_number(&ts_through, "version_rc"), CURAND_STATUS_SUCCESS);
		CU_ASSERT_EQUAL(ts_number(&ts_through, "major"), releases[i].major);
		snprintf(loaded, sizeof loaded, "%s", ts_value(&ts_through, "path"));
		CU_ASSERT_EQUAL(strncmp(loaded, dirs[i], strlen(dirs[i])), 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(ts_value(&ts_through, "choice"), evidence[i]));
		printf("  %s in the process: %s (cuRAND %s)\n", evidence[i], loaded,
		       ts_value(&ts_through, "own"));
	}
	/* 13.0's skipped for 12.4's: the file first on the path, tried and set aside */
	snprintf(preload, sizeof preload, "CR_PRELOAD=%s/%s", dirs[1], evidence[1]);
	if (ts_real_run("release", "CR_OPEN", CR_STUB, env, &ts_through) == 0)
		CU_ASSERT_PTR_NOT_NULL(strstr(ts_through.out, "skipped: CUDA 13, not searched"));
	/* no cuRAND of CUDA 12 anywhere: 13.0's, rather than none */
	snprintf(path, sizeof path, "LD_LIBRARY_PATH=%s", dirs[0]);
	if (ts_real_run("release", "CR_OPEN", CR_STUB, env, &ts_through) == 0) {
		CU_ASSERT_EQUAL(ts_number(&ts_through, "version_rc"), CURAND_STATUS_SUCCESS);
		CU_ASSERT_EQUAL(ts_number(&ts_through, "major"), 13);
	}
}

TS_TEST(test_release, "the process's CUDA release picks the libcurand.so.10");

static void test_no_library(void)
{
	static const char *const refused[] = {
		"version_rc", "property_rc", "create_rc",  "host.101.create", "host.201.create",
		"vectors32",  "vectors64",   "scramble32", "scramble64",
	};
	const char *env[] = {"CUDASTUB_CURAND_PATH=/nonexistent/cudastub-no-curand", NULL};

	if (ts_real_run("calls", "CR_OPEN", CR_STUB, env, &ts_through))
		return;
	for (size_t k = 0; k < sizeof refused / sizeof *refused; k++)
		CU_ASSERT_EQUAL(ts_number(&ts_through, refused[k]),
				CURAND_STATUS_INITIALIZATION_FAILED);
	CU_ASSERT_EQUAL(ts_number(&ts_through, "binomial_rc"), CURAND_STATUS_INITIALIZATION_FAILED);
	CU_ASSERT_STRING_EQUAL(ts_value(&ts_through, "version"), "0");
	CU_ASSERT_STRING_EQUAL(ts_value(&ts_through, "property"), "0.0.0");
	CU_ASSERT_EQUAL(ts_number(&ts_through, "state"), CUDASTUB_STATE_OVERRIDE_FAILED);
	CU_ASSERT_PTR_NOT_NULL(strstr(ts_value(&ts_through, "error"), "CUDASTUB_CURAND_PATH="));
}

TS_TEST(test_no_library, "no library: CURAND_STATUS_INITIALIZATION_FAILED, versions 0");

/* The stubs of the 12.4 and 11.8 headers, on every release. */
static void test_other_abis(void)
{
	ts_real_other_abis(CR_STUB_12, CR_STUB_11, calls_through, "the 12.4 and 11.8 headers");
}

TS_TEST(test_other_abis, "the 12.4- and 11.8-ABI stubs on every release");

static int make_tmp(void)
{
	return ts_tmpdir("curand", tmp, sizeof tmp) ? 0 : -1;
}

static int remove_tmp(void)
{
	ts_remove_tree(tmp);
	return 0;
}

static const struct ts_scenario scenarios[] = {
	{"calls", calls_child}, {"release", release_child}, {NULL, NULL}};

TS_MAIN_SUITE("cuRAND through its stub, real libraries", make_tmp, remove_tmp, scenarios)

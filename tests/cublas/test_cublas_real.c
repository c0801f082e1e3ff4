/*
 * cuBLAS and cuBLASLt through their stubs, on NVIDIA's real libraries and
 * no GPU: the toolkit's 13.0, the fixtures' 12.4 and 11.8 (their contract,
 * exports and version, is tests/libraries'). For each release:
 *
 *   statuses   cublasGetStatusName/String and cublasLtGetStatusName/String
 *              of every value of that release's cublasStatus_t, and of a few
 *              it lacks: through the stub, the library's own answer;
 *   handles    cublasCreate_v2 and cublasLtCreate, with no device: the
 *              library's own error, through the stub as directly;
 *   gating     functions some releases lack (the _64 forms before 12.0,
 *              cublasGemmGroupedBatchedEx before 12.5, 13.0's emulation
 *              strategy): the library's answer where it has them, the
 *              stub's CUBLAS_STATUS_NOT_SUPPORTED where it has not;
 *   sizes      cuBLASLt's semi-opaque descriptors, which the spec calls
 *              library_sized: initialised at every size a recorded header
 *              gives them, each library writes nothing past the size it is
 *              told and refuses one too small, so their layout is no part
 *              of the ABI;
 *   exports    the 12 and 11 ABI lists hold every function the real 12.4
 *              and 11.8 libraries export, and the cuBLASLt stub of each ABI
 *              every cuBLASLt function the real libcublas imports (a
 *              cuBLASLt shim may stand under it).
 *
 * Without a library (an override naming nothing), every call gives
 * CUBLAS_STATUS_NOT_INITIALIZED, probes say 0, and the status string of
 * that code says none was found, in one line.
 */
#define _GNU_SOURCE
#include <cublasLt.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cudastub/cudastub.h"
#include "test_support.h"
#include "ts_real.h"
#include "ts_abi.h"
#include "ts_elf.h"

/* From CMake: CB_CUBLAS_STUB, CB_CUBLASLT_STUB (the build's, 13 ABI). */

/* Status values no release defines, beside each release's own. */
static const int foreign_codes[] = {-1, 2, 99, 1034};

/* What value() gives for a key a child did not print. */
#define MISSING "(missing)"

/* A sentinel no library writes as a handle. */
#define UNTOUCHED ((void *)(uintptr_t)0x5eed)

/* ---- children: CB_OPEN is the library (a stub or NVIDIA's), CB_API
 * "cublas" or "cublasLt" ---- */

static void *open_library(void)
{
	void *lib = ts_real_open("CB_OPEN");

	if (!lib) {
		fflush(stdout);
		exit(3);
	}
	return lib;
}

static void *api_symbol(void *lib, const char *suffix)
{
	char name[128];

	snprintf(name, sizeof name, "%s%s", getenv("CB_API"), suffix);
	return dlsym(lib, name);
}

/* name.<code>= and string.<code>= for every code in CB_CODES (commas) */
static void print_statuses(void *lib)
{
	const char *(*name)(cublasStatus_t), *(*text)(cublasStatus_t);
	char codes[512], *save = NULL;

	*(void **)&name = api_symbol(lib, "GetStatusName");
	*(void **)&text = api_symbol(lib, "GetStatusString");
	snprintf(codes, sizeof codes, "%s", getenv("CB_CODES"));
	for (char *c = strtok_r(codes, ",", &save); c; c = strtok_r(NULL, ",", &save)) {
		cublasStatus_t code = (cublasStatus_t)atoi(c);

		printf("name.%s=%s\n", c, name ? name(code) : "(no symbol)");
		printf("string.%s=%s\n", c, text ? text(code) : "(no symbol)");
	}
}

/* create=, handle_written=: the API's handle creation, with no device */
static void print_create(void *lib)
{
	int cublas = strcmp(getenv("CB_API"), "cublas") == 0;
	cublasStatus_t (*create)(void **);
	void *handle = UNTOUCHED;

	*(void **)&create = api_symbol(lib, cublas ? "Create_v2" : "Create");
	if (!create) {
		printf("create=(no symbol)\n");
		return;
	}
	printf("create=%d\n", (int)create(&handle));
	printf("handle_written=%d\n", handle != UNTOUCHED);
}

static int calls_child(void)
{
	void *lib = open_library();

	print_statuses(lib);
	print_create(lib);
	fflush(stdout);
	return 0;
}

/* The stub with no library: what every kind of function gives. */
static int missing_child(void)
{
	void *lib = open_library();
	char info_name[64];
	const cudastub_library_info *(*info)(void);

	print_statuses(lib);
	print_create(lib);
	if (strcmp(getenv("CB_API"), "cublas") == 0) {
		/* the legacy API (cublas.h): a status, a float, a void */
		cublasStatus_t (*legacy_version)(int *);
		cublasStatus_t (*version)(cublasHandle_t, int *);
		cublasStatus_t (*property)(libraryPropertyType, int *);
		float (*snrm2)(int, const float *, int);
		void (*sscal)(int, float, float *, int);
		size_t (*cudart_version)(void);
		int v = -7, w = -7, p = -7;
		float x = 1.0f;

		*(void **)&legacy_version = dlsym(lib, "cublasGetVersion");
		*(void **)&version = dlsym(lib, "cublasGetVersion_v2");
		*(void **)&property = dlsym(lib, "cublasGetProperty");
		*(void **)&snrm2 = dlsym(lib, "cublasSnrm2");
		*(void **)&sscal = dlsym(lib, "cublasSscal");
		*(void **)&cudart_version = dlsym(lib, "cublasGetCudartVersion");
		int rc_v = (int)legacy_version(&v), rc_w = (int)version(NULL, &w);
		int rc_p = (int)property(MAJOR_VERSION, &p);

		printf("legacy_version=%d %d\n", rc_v, v);
		printf("version=%d %d\n", rc_w, w);
		printf("property=%d %d\n", rc_p, p);
		printf("snrm2=%g\n", (double)snrm2(1, &x, 1));
		sscal(1, 2.0f, &x, 1);
		printf("sscal=%g\n", (double)x);
		printf("cudart_version=%zu\n", cudart_version());
	} else {
		size_t (*lt_version)(void);
		cublasStatus_t (*property)(libraryPropertyType, int *);
		int p = -7;

		*(void **)&lt_version = dlsym(lib, "cublasLtGetVersion");
		*(void **)&property = dlsym(lib, "cublasLtGetProperty");
		int rc_p = (int)property(MAJOR_VERSION, &p);

		printf("lt_version=%zu\n", lt_version());
		printf("property=%d %d\n", rc_p, p);
	}
	snprintf(info_name, sizeof info_name, "cudastub_%s_info",
		 strcmp(getenv("CB_API"), "cublas") == 0 ? "cublas" : "cublaslt");
	*(void **)&info = dlsym(lib, info_name);
	printf("state=%d\n", info ? (int)info()->state : -1);
	fflush(stdout);
	return 0;
}

/* Functions some releases lack, called with no handle: each one's status,
 * or "missing" when the library does not export it. */
static int gating_child(void)
{
	void *lib = open_library();
	float one = 1.0f;
	cublasStatus_t (*sgemm)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
				const float *, const float *, int, const float *, int,
				const float *, float *, int);
	cublasStatus_t (*sgemm_64)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int64_t,
				   int64_t, int64_t, const float *, const float *, int64_t,
				   const float *, int64_t, const float *, float *, int64_t);
	cublasStatus_t (*grouped)(
		cublasHandle_t, const cublasOperation_t *, const cublasOperation_t *, const int *,
		const int *, const int *, const void *, const void *const *, cudaDataType_t,
		const int *, const void *const *, cudaDataType_t, const int *, const void *,
		void *const *, cudaDataType_t, const int *, int, const int *, cublasComputeType_t);
	cublasStatus_t (*emulation)(cublasHandle_t, int);

	*(void **)&sgemm = dlsym(lib, "cublasSgemm_v2");
	*(void **)&sgemm_64 = dlsym(lib, "cublasSgemm_v2_64");
	*(void **)&grouped = dlsym(lib, "cublasGemmGroupedBatchedEx");
	*(void **)&emulation = dlsym(lib, "cublasSetEmulationStrategy");
	if (sgemm)
		printf("cublasSgemm_v2=%d\n", (int)sgemm(NULL, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1,
							 &one, &one, 1, &one, 1, &one, &one, 1));
	if (sgemm_64)
		printf("cublasSgemm_v2_64=%d\n",
		       (int)sgemm_64(NULL, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, &one, &one, 1, &one,
				     1, &one, &one, 1));
	if (grouped)
		printf("cublasGemmGroupedBatchedEx=%d\n",
		       (int)grouped(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, CUDA_R_32F,
				    NULL, NULL, CUDA_R_32F, NULL, NULL, NULL, CUDA_R_32F, NULL, 0,
				    NULL, CUBLAS_COMPUTE_32F));
	if (emulation)
		printf("cublasSetEmulationStrategy=%d\n", (int)emulation(NULL, 0));
	fflush(stdout);
	return 0;
}

/* cuBLASLt's descriptors initialised at each size in CB_SIZES (commas), in
 * a buffer with a canary after it: <kind>.<size>=<status> <bytes written
 * past the size>. A kind the library lacks prints nothing. */
static int sized_child(void)
{
	void *lib = open_library();
	enum { ROOM = 1024 };
	static unsigned char buf[ROOM + 256];
	cublasStatus_t (*desc)(void *, size_t, cublasComputeType_t, cudaDataType_t);
	cublasStatus_t (*pref)(void *, size_t);
	cublasStatus_t (*layout)(void *, size_t, cudaDataType_t, uint64_t, uint64_t, int64_t);
	cublasStatus_t (*transform)(void *, size_t, cudaDataType_t);
	cublasStatus_t (*emulation)(void *, size_t);
	char sizes[512], *save = NULL;

	*(void **)&desc = dlsym(lib, "cublasLtMatmulDescInit_internal");
	*(void **)&pref = dlsym(lib, "cublasLtMatmulPreferenceInit_internal");
	*(void **)&layout = dlsym(lib, "cublasLtMatrixLayoutInit_internal");
	*(void **)&transform = dlsym(lib, "cublasLtMatrixTransformDescInit_internal");
	*(void **)&emulation = dlsym(lib, "cublasLtEmulationDescInit_internal");
	snprintf(sizes, sizeof sizes, "%s", getenv("CB_SIZES"));
	for (char *s = strtok_r(sizes, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
		size_t size = strtoul(s, NULL, 10);

		if (size > ROOM)
			continue;
		for (int kind = 0; kind < 5; kind++) {
			static const char *const names[] = {"MatmulDesc", "MatmulPreference",
							    "MatrixLayout", "MatrixTransformDesc",
							    "EmulationDesc"};
			int rc, past = 0;

			memset(buf, 0xa5, sizeof buf);
			if (kind == 0 && desc)
				rc = (int)desc(buf, size, CUBLAS_COMPUTE_32F, CUDA_R_32F);
			else if (kind == 1 && pref)
				rc = (int)pref(buf, size);
			else if (kind == 2 && layout)
				rc = (int)layout(buf, size, CUDA_R_32F, 4, 4, 4);
			else if (kind == 3 && transform)
				rc = (int)transform(buf, size, CUDA_R_32F);
			else if (kind == 4 && emulation)
				rc = (int)emulation(buf, size);
			else
				continue;
			for (size_t k = size; k < sizeof buf; k++)
				past += buf[k] != 0xa5;
			printf("%s.%zu=%d %d\n", names[kind], size, rc, past);
		}
	}
	fflush(stdout);
	return 0;
}

/* ---- parent ---- */

struct release {
	const char *name;    /* "12.4": its ABI records are named so */
	int major;	     /* its libraries' SONAME suffix */
	const char *fixture; /* the fixture holding its libraries; NULL: the toolkit's */
	/* Its cuBLASLt's constructor dlopens the unversioned libnvrtc.so (here
	 * the toolkit's 13.0, through ld.so.cache) and closes it again: that
	 * NVRTC's 72 KiB exception pool is left behind, in a module LeakSanitizer
	 * can no longer name, so no suppression reaches it. Its children run
	 * without leak checking; the same stub code runs checked on the others. */
	int leaks_unloaded_nvrtc;
};

static const struct release releases[] = {
	{"13.0", 13, NULL, 0}, {"12.4", 12, "mathlibs-12.4", 0}, {"11.8", 11, "mathlibs-11.8", 1}};

struct api {
	const char *prefix; /* "cublas", "cublasLt": its functions' */
	const char *lib;    /* "cublas", "cublaslt": the spec's */
	const char *family; /* "libcublas" */
	const char *env;    /* the override */
	const char *stub;
};

static const struct api apis[] = {
	{"cublas", "cublas", "libcublas", "CUDASTUB_CUBLAS_PATH", CB_CUBLAS_STUB},
	{"cublasLt", "cublaslt", "libcublasLt", "CUDASTUB_CUBLASLT_PATH", CB_CUBLASLT_STUB}};

/* The release's real library of the API in buf, or NULL (reported as
 * unavailable: a failure under CI). */
static const char *cublas_library(const struct release *r, const struct api *a, char *buf,
				  size_t size)
{
	char dir[PATH_MAX / 2], why[PATH_MAX];

	if (!r->fixture) {
		snprintf(dir, sizeof dir, "%s.so.%d", a->family, r->major);
		return ts_toolkit_file(dir, buf, size);
	}
	if (!ts_fixture_libdir(r->fixture, dir, sizeof dir))
		return NULL;
	snprintf(buf, size, "%s/%s.so.%d", dir, a->family, r->major);
	if (access(buf, F_OK) == 0)
		return buf;
	snprintf(why, sizeof why, "%s missing (the CUDA %s %s)", buf, r->name, a->prefix);
	ts_unavailable(why);
	return NULL;
}

static void record_path(const char *lib, const char *version, char *buf, size_t size)
{
	snprintf(buf, size, "%s/data/abi/%s-%s.abi", CUDASTUB_TEST_SOURCE_DIR, lib, version);
}

/* The release's cublasStatus_t, from its ABI record (status_codes). */
static struct ts_abi_code codes[64];

/* "v1,v2,...": the values of the release's cublasStatus_t (in codes) and
 * the foreign ones; how many are the release's, 0 when its record cannot
 * be read. */
static int status_codes(const struct release *r, char *buf, size_t size)
{
	char record[PATH_MAX];
	size_t used = 0;
	int n;

	record_path("cublas", r->name, record, sizeof record);
	n = ts_abi_codes(record, "cublasStatus_t", codes, 64);
	CU_ASSERT_TRUE(n > 5);
	if (n <= 5)
		return 0;
	for (int i = 0; i < n + (int)(sizeof foreign_codes / sizeof *foreign_codes); i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%d", i ? "," : "",
					 i < n ? codes[i].value : foreign_codes[i - n]);
	return n;
}

/* Runs scenario on open (a stub, or NVIDIA's library) for release r's
 * library (NULL: none), the stub's override set to real, and extra
 * ("NAME=value", or NULL). */
static int run_on(const char *scenario, const struct release *r, const struct api *a,
		  const char *open, const char *real, const char *extra, struct ts_child *out)
{
	char api_var[64], override[PATH_MAX + 64], asan[1024];
	const char *env[5] = {api_var, override};
	int n = 2;

	if (extra)
		env[n++] = extra;
	if (r && r->leaks_unloaded_nvrtc)
		env[n++] = ts_env_leaks_unnamed(asan, sizeof asan);
	env[n] = NULL;
	snprintf(api_var, sizeof api_var, "CB_API=%s", a->prefix);
	snprintf(override, sizeof override, "%s=%s", a->env, real);
	return ts_real_run(scenario, "CB_OPEN", open, env, out);
}

/* key's value in c, a copy of its own (four at a time), or "(missing)" */
static const char *value(const struct ts_child *c, const char *key)
{
	static char copies[4][4096];
	static unsigned next;
	const char *v = ts_value(c, key);
	char *copy = copies[next++ % 4];

	snprintf(copy, sizeof copies[0], "%s", v ? v : MISSING);
	return copy;
}

/* Every key=value line of direct is in through, the same. */
static int expect_same_lines(const char *label)
{
	char line[4096];
	int differ = 0, lines = 0;

	for (const char *p = ts_direct.out; *p;) {
		size_t n = strcspn(p, "\n");
		char *eq;

		snprintf(line, sizeof line, "%.*s", (int)n, p);
		p += n + (p[n] == '\n');
		if ((eq = strchr(line, '=')) == NULL)
			continue;
		*eq = '\0';
		lines++;
		const char *got = value(&ts_through, line);
		if (strcmp(got, eq + 1) != 0) {
			fprintf(stderr, "%s: %s is \"%s\" directly, \"%s\" through the stub\n",
				label, line, eq + 1, got);
			differ++;
		}
	}
	CU_ASSERT_EQUAL(differ, 0);
	CU_ASSERT_TRUE(lines > 0);
	return lines;
}

static void test_statuses_and_handles(void)
{
	for (size_t i = 0; i < sizeof releases / sizeof *releases; i++) {
		const struct release *r = &releases[i];
		char list[1024], codes_var[1100];
		int n = status_codes(r, list, sizeof list);

		snprintf(codes_var, sizeof codes_var, "CB_CODES=%s", list);
		for (size_t k = 0; n && k < sizeof apis / sizeof *apis; k++) {
			const struct api *a = &apis[k];
			char path[PATH_MAX], label[64];
			const char *real = cublas_library(r, a, path, sizeof path);

			if (!real || run_on("calls", r, a, real, "", codes_var, &ts_direct) ||
			    run_on("calls", r, a, a->stub, real, codes_var, &ts_through))
				continue;
			snprintf(label, sizeof label, "%s %s", r->name, a->prefix);
			expect_same_lines(label);
			/* the library names each status as its headers do, and with
			 * no device refused a handle */
			for (int c = 0; c < n; c++) {
				char key[32];

				snprintf(key, sizeof key, "name.%d", codes[c].value);
				CU_ASSERT_STRING_EQUAL(value(&ts_direct, key), codes[c].name);
			}
			CU_ASSERT_STRING_NOT_EQUAL(value(&ts_direct, "create"), "0");
			printf("  %s: %d statuses, and create %s (\"%s\"), the same through the "
			       "stub\n",
			       label, n + (int)(sizeof foreign_codes / sizeof *foreign_codes),
			       value(&ts_through, "create"), value(&ts_through, "string.1"));
		}
	}
}

TS_TEST(test_statuses_and_handles, "status strings and handle creation: the library's own");

static void test_gating(void)
{
	static const char *const functions[] = {"cublasSgemm_v2", "cublasSgemm_v2_64",
						"cublasGemmGroupedBatchedEx",
						"cublasSetEmulationStrategy"};
	const struct api *a = &apis[0];

	for (size_t i = 0; i < sizeof releases / sizeof *releases; i++) {
		char path[PATH_MAX];
		const char *real = cublas_library(&releases[i], a, path, sizeof path);

		if (!real || run_on("gating", &releases[i], a, real, "", NULL, &ts_direct) ||
		    run_on("gating", &releases[i], a, a->stub, real, NULL, &ts_through))
			continue;
		printf("  %s:", releases[i].name);
		for (size_t f = 0; f < sizeof functions / sizeof *functions; f++) {
			char want[64];
			const char *got = value(&ts_through, functions[f]);
			int lacks = strcmp(value(&ts_direct, functions[f]), MISSING) == 0;

			/* the library's own answer, or the stub's "not supported" */
			snprintf(want, sizeof want, "%s",
				 lacks ? "15" : value(&ts_direct, functions[f]));
			CU_ASSERT_STRING_EQUAL(got, want);
			printf(" %s %s%s", functions[f], got, lacks ? " (the stub's)" : "");
		}
		printf("\n");
	}
}

TS_TEST(test_gating, "functions a release lacks: 15; the rest the library's");

/* Whether the list "CB_SIZES=a,b,..." holds entry as a whole item. */
static int has_entry(const char *list, const char *entry)
{
	size_t n = strlen(entry);

	for (const char *p = strchr(list, '='); p; p = strchr(p + 1, ','))
		if (strncmp(p + 1, entry, n) == 0 && (p[1 + n] == ',' || p[1 + n] == '\0'))
			return 1;
	return 0;
}

/* The sizes every record gives one of cuBLASLt's descriptors, appended to
 * buf as ",size". */
static void recorded_sizes(const char *structure, char *buf, size_t size)
{
	for (size_t i = 0; i < sizeof releases / sizeof *releases; i++) {
		char record[PATH_MAX], line[512], want[128];
		FILE *f;

		record_path("cublaslt", releases[i].name, record, sizeof record);
		snprintf(want, sizeof want, "struct\t%s\t", structure);
		f = fopen(record, "r");
		CU_ASSERT_PTR_NOT_NULL(f);
		while (f && fgets(line, sizeof line, f))
			if (strncmp(line, want, strlen(want)) == 0) {
				char *value = line + strlen(want);

				value[strcspn(value, "\t\n")] = '\0';
				size_t used = strlen(buf), n = strlen(value);

				if (!has_entry(buf, value) && used + 1 + n < size) {
					buf[used] = ',';
					memcpy(buf + used + 1, value, n + 1);
				}
			}
		if (f)
			fclose(f);
	}
}

static void test_library_sized(void)
{
	static const char *const structures[] = {
		"cublasLtMatmulDescOpaque_t", "cublasLtMatmulPreferenceOpaque_t",
		"cublasLtMatrixLayoutOpaque_t", "cublasLtMatrixTransformDescOpaque_t",
		"cublasLtEmulationDescOpaque_t"};
	static const char *const kinds[] = {"MatmulDesc", "MatmulPreference", "MatrixLayout",
					    "MatrixTransformDesc", "EmulationDesc"};
	/* 8 bytes: too small for any of them */
	char sizes[512] = "CB_SIZES=8";
	const struct api *a = &apis[1];

	for (size_t s = 0; s < sizeof structures / sizeof *structures; s++)
		recorded_sizes(structures[s], sizes, sizeof sizes);
	for (size_t i = 0; i < sizeof releases / sizeof *releases; i++) {
		char path[PATH_MAX], label[64];
		const char *real = cublas_library(&releases[i], a, path, sizeof path);
		int refused = 0, lines;

		if (!real || run_on("sized", &releases[i], a, real, "", sizes, &ts_direct) ||
		    run_on("sized", &releases[i], a, a->stub, real, sizes, &ts_through))
			continue;
		snprintf(label, sizeof label, "%s cuBLASLt descriptors", releases[i].name);
		lines = expect_same_lines(label);
		for (const char *p = ts_direct.out; (p = strchr(p, '=')) != NULL; p++) {
			int rc = -1, past = -1;

			CU_ASSERT_EQUAL(sscanf(p + 1, "%d %d", &rc, &past), 2);
			CU_ASSERT_EQUAL(past, 0);
			refused += rc != 0;
		}
		/* each kind refuses 8 bytes (EmulationDesc: 13.0's only) */
		for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
			char key[48];
			const char *rc;

			snprintf(key, sizeof key, "%s.8", kinds[k]);
			rc = ts_value(&ts_direct, key);
			if (!rc) {
				CU_ASSERT_TRUE(k == sizeof kinds / sizeof *kinds - 1);
			} else {
				CU_ASSERT_NOT_EQUAL(strtol(rc, NULL, 10), 0);
			}
		}
		printf("  %s (%s): %d initialisations, %d refused, no byte written past the "
		       "size\n",
		       label, sizes + strlen("CB_SIZES="), lines, refused);
	}
}

TS_TEST(test_library_sized, "library_sized descriptors: nothing written past the size");

static void test_no_library(void)
{
	static const char none[] = "/nonexistent/cudastub-no-cublas";

	for (size_t k = 0; k < sizeof apis / sizeof *apis; k++) {
		const struct api *a = &apis[k];
		const char *codes = "CB_CODES=0,1,15,99";
		char expected[128];

		if (run_on("missing", NULL, a, a->stub, none, codes, &ts_through))
			continue;
		CU_ASSERT_STRING_EQUAL(value(&ts_through, "create"), "1");
		CU_ASSERT_STRING_EQUAL(value(&ts_through, "handle_written"), "0");
		CU_ASSERT_STRING_EQUAL(value(&ts_through, "name.1"),
				       "CUBLAS_STATUS_NOT_INITIALIZED");
		CU_ASSERT_STRING_EQUAL(value(&ts_through, "name.15"),
				       "CUBLAS_STATUS_NOT_SUPPORTED");
		CU_ASSERT_STRING_EQUAL(value(&ts_through, "string.15"),
				       "CUBLAS_STATUS_NOT_SUPPORTED");
		CU_ASSERT_STRING_EQUAL(value(&ts_through, "string.99"), "unrecognized status code");
		/* the stub's own code says none was found and what to set */
		snprintf(expected, sizeof expected, "%s=", a->env);
		CU_ASSERT_PTR_NOT_NULL(strstr(value(&ts_through, "string.1"), expected));
		CU_ASSERT_PTR_NOT_NULL(strstr(value(&ts_through, "string.1"), none));
		CU_ASSERT_STRING_EQUAL(value(&ts_through, "property"), "1 0");
		CU_ASSERT_EQUAL(strtol(value(&ts_through, "state"), NULL, 10),
				CUDASTUB_STATE_OVERRIDE_FAILED);
		if (k == 0) {
			CU_ASSERT_STRING_EQUAL(value(&ts_through, "legacy_version"), "1 0");
			CU_ASSERT_STRING_EQUAL(value(&ts_through, "version"), "1 0");
			CU_ASSERT_STRING_EQUAL(value(&ts_through, "snrm2"), "0");
			CU_ASSERT_STRING_EQUAL(value(&ts_through, "sscal"), "1");
			CU_ASSERT_STRING_EQUAL(value(&ts_through, "cudart_version"), "0");
		} else {
			CU_ASSERT_STRING_EQUAL(value(&ts_through, "lt_version"), "0");
		}
		printf("  %s: %s\n", a->prefix, value(&ts_through, "string.1"));
	}
}

TS_TEST(test_no_library, "no library: the stub's codes, probes 0, none found");

/* Names `nm -D --undefined-only lib` lists with the version node node. */
static int imported_from(struct ts_names *s, const char *lib, const char *node)
{
	char command[PATH_MAX + 64], line[512], suffix[128];
	FILE *p;

	snprintf(command, sizeof command, "nm -D --undefined-only '%s'", lib);
	snprintf(suffix, sizeof suffix, "@%s", node);
	if ((p = popen(command, "r")) == NULL)
		return -1;
	while (fgets(line, sizeof line, p)) {
		char type[8], name[400], *at;

		if (sscanf(line, "%7s %399s", type, name) != 2 || (at = strchr(name, '@')) == NULL)
			continue;
		if (strcmp(at, suffix) == 0) {
			*at = '\0';
			ts_names_add(s, name);
		}
	}
	return pclose(p) == 0 ? 0 : -1;
}

static void test_exports(void)
{
	for (size_t i = 0; i < sizeof releases / sizeof *releases; i++) {
		const struct release *r = &releases[i];
		struct ts_names lists[2] = {{0}}, lt_imports = {0};
		char lt_node[64];
		int read_cublas = 0;

		for (size_t k = 0; k < sizeof apis / sizeof *apis; k++) {
			const struct api *a = &apis[k];
			struct ts_names real_exports = {0};
			char path[PATH_MAX], list[PATH_MAX], node[64];
			const char *real = cublas_library(r, a, path, sizeof path);
			int unversioned = 0, missing = 0;

			snprintf(list, sizeof list, "%s/%s/cu%d/%s.symbols",
				 CUDASTUB_TEST_GENERATED_DIR, a->lib, r->major, a->lib);
			CU_ASSERT_EQUAL(ts_names_read_list(&lists[k], list), 0);
			snprintf(node, sizeof node, "%s.so.%d", a->family, r->major);
			if (!real ||
			    ts_names_exported(&real_exports, real, node, &unversioned) != 0) {
				ts_names_free(&real_exports);
				continue;
			}
			for (size_t n = 0; n < real_exports.count; n++)
				if (!ts_names_has(&lists[k], real_exports.names[n])) {
					fprintf(stderr,
						"%s %s exports %s, the %d ABI list lacks it\n",
						r->name, a->prefix, real_exports.names[n],
						r->major);
					missing++;
				}
			CU_ASSERT_EQUAL(missing, 0);
			CU_ASSERT_TRUE(real_exports.count > 100);
			printf("  %s %s: %zu exports, all in the %d ABI's %zu\n", r->name,
			       a->prefix, real_exports.count, r->major, lists[k].count);
			if (k == 0) {
				/* what the real libcublas calls in cuBLASLt */
				snprintf(lt_node, sizeof lt_node, "libcublasLt.so.%d", r->major);
				CU_ASSERT_EQUAL(imported_from(&lt_imports, real, lt_node), 0);
				read_cublas = 1;
			}
			ts_names_free(&real_exports);
		}
		/* libcublas is built on cuBLASLt: a real one that imports
		 * nothing from it means the version node was misread */
		if (read_cublas)
			CU_ASSERT_TRUE(lt_imports.count > 0);
		if (lt_imports.count) {
			int missing = 0;

			for (size_t n = 0; n < lt_imports.count; n++)
				missing += !ts_names_has(&lists[1], lt_imports.names[n]);
			CU_ASSERT_EQUAL(missing, 0);
			printf("  %s: the %zu cuBLASLt functions libcublas calls, all in the "
			       "cuBLASLt "
			       "stub's list\n",
			       r->name, lt_imports.count);
		}
		ts_names_free(&lists[0]);
		ts_names_free(&lists[1]);
		ts_names_free(&lt_imports);
	}
}

TS_TEST(test_exports, "exports: each release's, and what libcublas calls in cuBLASLt");

static const struct ts_scenario scenarios[] = {{"calls", calls_child},
					       {"missing", missing_child},
					       {"gating", gating_child},
					       {"sized", sized_child},
					       {NULL, NULL}};

TS_MAIN_SUITE("cuBLAS and cuBLASLt: real libraries, no GPU", NULL, NULL, scenarios)

/*
 * The real-library suite's child scenarios, one fresh process each.
 *
 *   calls   the sequence through the stub (which loads the runtime), then
 *           the same through dlsym on the very file the stub loaded
 *           (CT_FILE, opened with RTLD_NOLOAD: that succeeds only if the
 *           stub loaded it); prefixes stub_ and direct_
 *   fresh   the sequence on CT_FILE in a process where the stub never ran:
 *           what a program linked to the runtime itself sees; prefix fresh_
 *   errors  cudaGetErrorName and cudaGetErrorString for every code, the
 *           stub's answer against the library's
 * CT_LAST_FIRST=1 starts the sequence with cudaGetLastError.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "real_cudart.h"

static void stub_api(struct ct_api *api)
{
	api->runtime_version = cudaRuntimeGetVersion;
	api->driver_version = cudaDriverGetVersion;
	api->device_count = cudaGetDeviceCount;
	api->malloc = cudaMalloc;
	api->free = cudaFree;
	api->last_error = cudaGetLastError;
	api->peek_error = cudaPeekAtLastError;
	api->error_name = cudaGetErrorName;
	api->error_string = cudaGetErrorString;
}

/* dlsym on CT_FILE; with noload, only if it is already in the process. */
static int direct_api(struct ct_api *api, int noload)
{
	const char *file = getenv(RC_FILE_VAR);
	void *handle = NULL;

	if (file)
		handle = dlopen(file, RTLD_NOW | RTLD_LOCAL | (noload ? RTLD_NOLOAD : 0));
	if (noload)
		printf("direct_already_loaded=%d\n", handle != NULL);
	if (!handle) {
		fprintf(stderr, "%s: %s\n", file ? file : RC_FILE_VAR " unset", dlerror());
		return -1;
	}
	if (ct_api_from(api, handle) != 0) {
		fprintf(stderr, "%s lacks a runtime function\n", file);
		return -1;
	}
	return 0;
}

static int last_first(void)
{
	const char *v = getenv(RC_LAST_FIRST_VAR);

	return v && !strcmp(v, "1");
}

static int scenario_calls(void)
{
	struct ct_api stub, direct;
	const cudastub_library_info *info = cudastub_cudart_info();
	char real[PATH_MAX];

	printf("state_before=%d\n", (int)info->state);
	stub_api(&stub);
	ct_api_sequence(&stub, "stub", last_first());
	info = cudastub_cudart_info();
	ts_print_info(info);
	printf("info_path_real=%s\n", info->path && realpath(info->path, real) ? real : "(none)");
	if (direct_api(&direct, 1) != 0)
		return 3;
	ct_api_sequence(&direct, "direct", last_first());
	return 0;
}

static int scenario_fresh(void)
{
	struct ct_api direct;

	if (direct_api(&direct, 0) != 0)
		return 3;
	ct_api_sequence(&direct, "fresh", last_first());
	/* the stub is linked but was never called */
	printf("stub_state=%d\n", (int)cudastub_cudart_info()->state);
	return 0;
}

/* ---- every error code ---- */

struct tally {
	int checked, name_mismatches, string_mismatches, named;
	char first_mismatch[512];
};

static void compare_code(const struct ct_api *direct, int code, struct tally *t)
{
	const char *name = cudaGetErrorName((cudaError_t)code);
	const char *string = cudaGetErrorString((cudaError_t)code);
	const char *direct_name = direct->error_name((cudaError_t)code);
	const char *direct_string = direct->error_string((cudaError_t)code);
	int name_same = name && direct_name && !strcmp(name, direct_name);
	int string_same = string && direct_string && !strcmp(string, direct_string);

	t->checked++;
	t->name_mismatches += !name_same;
	t->string_mismatches += !string_same;
	t->named += name_same && strcmp(name, "unrecognized error code") != 0;
	if ((!name_same || !string_same) && !t->first_mismatch[0])
		snprintf(t->first_mismatch, sizeof t->first_mismatch, "%d: %s / %s vs %s / %s",
			 code, name ? name : "(null)", string ? string : "(null)",
			 direct_name ? direct_name : "(null)",
			 direct_string ? direct_string : "(null)");
}

/* Codes beyond 0..1000 checked whatever the enum lists. */
static const int extra[] = {-1, 10000, 10001, INT_MAX, INT_MIN};

static int checked_anyway(int code)
{
	for (size_t i = 0; i < sizeof extra / sizeof *extra; i++)
		if (code == extra[i])
			return 1;
	return code >= 0 && code <= 1000;
}

static int scenario_errors(void)
{
	static struct ts_abi_code codes[TS_ABI_MAX];
	const char *record = getenv(RC_ABI_VAR);
	struct tally t = {0};
	struct ct_api direct;
	int n, v, enum_named = 0;

	cudaRuntimeGetVersion(&v); /* the stub loads the runtime */
	if (direct_api(&direct, 1) != 0)
		return 3;
	n = record ? ts_abi_codes(record, "cudaError_t", codes, TS_ABI_MAX) : -1;
	if (n <= 0)
		return 4;
	for (int code = 0; code <= 1000; code++)
		compare_code(&direct, code, &t);
	for (size_t i = 0; i < sizeof extra / sizeof *extra; i++)
		compare_code(&direct, extra[i], &t);
	for (int i = 0; i < n; i++) {
		if (!checked_anyway(codes[i].value))
			compare_code(&direct, codes[i].value, &t);
		enum_named += !strcmp(cudaGetErrorName((cudaError_t)codes[i].value), codes[i].name);
	}
	printf("errors_checked=%d\n", t.checked);
	printf("name_mismatches=%d\nstring_mismatches=%d\n", t.name_mismatches,
	       t.string_mismatches);
	printf("first_mismatch=%s\n", t.first_mismatch[0] ? t.first_mismatch : "none");
	printf("named=%d\nenum_codes=%d\nenum_named=%d\n", t.named, n, enum_named);
	printf("name_34=%s\nstring_34=%s\n", cudaGetErrorName(cudaErrorStubLibrary),
	       cudaGetErrorString(cudaErrorStubLibrary));
	printf("direct_string_34=%s\n", direct.error_string(cudaErrorStubLibrary));
	printf("name_35=%s\nstring_35=%s\n", cudaGetErrorName(cudaErrorInsufficientDriver),
	       cudaGetErrorString(cudaErrorInsufficientDriver));
	printf("direct_string_35=%s\n", direct.error_string(cudaErrorInsufficientDriver));
	return 0;
}

const struct ts_scenario rc_scenarios[] = {
	{"calls", scenario_calls},
	{"fresh", scenario_fresh},
	{"errors", scenario_errors},
	{NULL, NULL},
};

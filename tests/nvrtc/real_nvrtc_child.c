/*
 * Child scenarios, run in a fresh process per selection. Each makes its
 * first NVRTC call through the stub, which loads the library. Only then is
 * the library opened again by its full path (REAL_NVRTC_FILE) with
 * RTLD_NOLOAD, which succeeds only if the stub loaded that very file; the
 * same calls made through dlsym are the reference the stub must match.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "real_nvrtc.h"

#define COMPUTE_75 "--gpu-architecture=compute_75"
#define SM_75	   "--gpu-architecture=sm_75"

/* Fills direct from the library the stub loaded; 0 on success. */
int rn_open_direct(struct rn_api *direct)
{
	const char *file = getenv(RN_FILE_VAR);
	void *handle = file ? dlopen(file, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD) : NULL;

	printf("direct_already_loaded=%d\n", handle != NULL);
	if (!handle) {
		fprintf(stderr, "the stub did not load %s\n",
			file ? file : "(" RN_FILE_VAR " unset)");
		return -1;
	}
	if (rn_api_direct(direct, handle) != 0) {
		fprintf(stderr, "%s lacks a core NVRTC function\n", file);
		return -1;
	}
	return 0;
}

/* The folder of a file, after resolving links; "" if it has none. */
static void real_dir(const char *path, char *out)
{
	char *slash;

	if (!path || !realpath(path, out))
		out[0] = '\0';
	slash = strrchr(out, '/');
	if (slash)
		*slash = '\0';
}

/* NVRTC opens libnvrtc-builtins.so.X.Y by bare name at its first
 * compile; the stub loads it from the library's own folder at the first
 * call where NVRTC's own search would not find that file (an override
 * needs no LD_LIBRARY_PATH), and leaves it to NVRTC where it would. Says
 * whether it is in the process, and from where. */
static void print_builtins(const cudastub_library_info *info)
{
	char name[64], lib_dir[PATH_MAX], dir[PATH_MAX];
	struct link_map *map = NULL;
	void *handle;

	snprintf(name, sizeof name, "libnvrtc-builtins.so.%d.%d", info->major, info->minor);
	handle = dlopen(name, RTLD_NOW | RTLD_NOLOAD);
	if (handle && dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0)
		map = NULL;
	real_dir(map ? map->l_name : NULL, dir);
	real_dir(info->path, lib_dir);
	printf("builtins_loaded=%d\n", handle != NULL);
	printf("builtins_dir=%s\n", dir);
	printf("builtins_beside_library=%d\n", dir[0] && !strcmp(dir, lib_dir));
}

static int scenario_version(void)
{
	const cudastub_library_info *info = cudastub_nvrtc_info();
	char real[PATH_MAX];
	struct rn_api direct;
	int major = -1, minor = -1;
	nvrtcResult rc;

	printf("state_before=%d\n", (int)info->state);
	rc = nvrtcVersion(&major, &minor);
	printf("version_rc=%d\nversion=%d.%d\n", (int)rc, major, minor);
	info = cudastub_nvrtc_info();
	printf("info_state=%d\n", (int)info->state);
	printf("info_source=%d\n", (int)info->source);
	printf("info_version=%d.%d\n", info->major, info->minor);
	printf("info_path=%s\n", info->path ? info->path : "(null)");
	printf("info_path_real=%s\n", info->path && realpath(info->path, real) ? real : "(none)");
	printf("info_abi_major=%d\n", info->abi_major);
	printf("search_runs=%lu\n", info->search_runs);
	print_builtins(info);
	if (rn_open_direct(&direct))
		return 3;
	major = minor = -1;
	rc = direct.version(&major, &minor);
	printf("direct_version_rc=%d\ndirect_version=%d.%d\n", (int)rc, major, minor);
	return 0;
}

/* "11.8" from the PTX header's "Cuda compilation tools, release 11.8, ..." */
static void print_ptx_release(const char *ptx)
{
	const char *at = ptx ? strstr(ptx, "release ") : NULL;
	int len = at ? (int)strcspn(at + 8, ",\n") : 0;

	printf("ptx_release=%.*s\n", len, at ? at + 8 : "");
}

static int scenario_ptx(void)
{
	struct rn_api stub, direct;
	struct rn_output s, d1, d2;
	const char *target;

	rn_api_stub(&stub);
	rn_compile(&stub, rn_axpy_source, COMPUTE_75, RN_PTX, &s, NULL);
	print_builtins(cudastub_nvrtc_info());
	if (rn_open_direct(&direct))
		return 3;
	rn_compile(&direct, rn_axpy_source, COMPUTE_75, RN_PTX, &d1, NULL);
	rn_compile(&direct, rn_axpy_source, COMPUTE_75, RN_PTX, &d2, NULL);
	rn_output_print("stub", &s);
	rn_output_print("direct", &d1);
	printf("direct_repeat_identical=%d\n", rn_output_same(&d1, &d2));
	printf("ptx_identical=%d\n", rn_output_same(&s, &d1));
	printf("ptx_has_entry=%d\n", s.data && strstr(s.data, ".entry axpy") != NULL);
	target = s.data ? strstr(s.data, "\n.target ") : NULL;
	printf("ptx_target=%.*s\n", target ? (int)strcspn(target + 9, "\n, ") : 0,
	       target ? target + 9 : "");
	print_ptx_release(s.data);
	rn_output_free(&s);
	rn_output_free(&d1);
	rn_output_free(&d2);
	return 0;
}

static int scenario_log(void)
{
	struct rn_api stub, direct;
	struct rn_output s, d;

	rn_api_stub(&stub);
	rn_compile(&stub, rn_broken_source, COMPUTE_75, RN_NONE, &s, NULL);
	if (rn_open_direct(&direct))
		return 3;
	rn_compile(&direct, rn_broken_source, COMPUTE_75, RN_NONE, &d, NULL);
	rn_output_print("stub", &s);
	rn_output_print("direct", &d);
	printf("log_identical=%d\n", rn_output_same(&s, &d));
	printf("log_names_error=%d\n", s.log && strstr(s.log, "error: expected a \";\"") != NULL);
	rn_output_free(&s);
	rn_output_free(&d);
	return 0;
}

static int scenario_error_strings(void)
{
	const char *first = nvrtcGetErrorString(NVRTC_SUCCESS); /* loads */
	struct rn_api direct;
	int code, mismatches = 0, first_mismatch = -1, named = 0;

	printf("errstr_0=%s\n", first ? first : "(null)");
	if (rn_open_direct(&direct))
		return 3;
	for (code = 0; code <= 20; code++) {
		const char *s = nvrtcGetErrorString((nvrtcResult)code);
		const char *d = direct.error_string((nvrtcResult)code);

		if (!s || !d || strcmp(s, d)) {
			printf("errstr_%d_stub=%s\nerrstr_%d_direct=%s\n", code, s ? s : "(null)",
			       code, d ? d : "(null)");
			mismatches++;
			if (first_mismatch < 0)
				first_mismatch = code;
		}
		named += s && strcmp(s, "NVRTC_ERROR unknown") != 0;
		if (code == NVRTC_ERROR_COMPILATION)
			printf("errstr_6=%s\n", s ? s : "(null)");
	}
	/* the stub's "no library" code, once a library is loaded: the
	 * library's answer too */
	{
		const char *s = nvrtcGetErrorString((nvrtcResult)CUDASTUB_NVRTC_ERROR_STUB_LIBRARY);
		const char *d = direct.error_string((nvrtcResult)CUDASTUB_NVRTC_ERROR_STUB_LIBRARY);

		printf("errstr_1034_same=%d\n", s && d && !strcmp(s, d));
	}
	printf("errstr_mismatches=%d\nerrstr_first_mismatch=%d\n", mismatches, first_mismatch);
	printf("errstr_named=%d\n", named);
	return 0;
}

static int scenario_cubin(void)
{
	struct rn_api stub, direct;
	struct rn_output s, d1, d2;

	rn_api_stub(&stub);
	rn_compile(&stub, rn_axpy_source, SM_75, RN_CUBIN, &s, NULL);
	if (rn_open_direct(&direct))
		return 3;
	rn_compile(&direct, rn_axpy_source, SM_75, RN_CUBIN, &d1, NULL);
	rn_compile(&direct, rn_axpy_source, SM_75, RN_CUBIN, &d2, NULL);
	rn_output_print("stub", &s);
	rn_output_print("direct", &d1);
	printf("direct_repeat_identical=%d\n", rn_output_same(&d1, &d2));
	printf("cubin_identical=%d\n", rn_output_same(&s, &d1));
	printf("cubin_is_elf=%d\n", s.size >= 4 && !memcmp(s.data, "\177ELF", 4));
	rn_output_free(&s);
	rn_output_free(&d1);
	rn_output_free(&d2);
	return 0;
}

const struct ts_scenario rn_scenarios[] = {
	{"version", scenario_version},
	{"ptx", scenario_ptx},
	{"log", scenario_log},
	{"error_strings", scenario_error_strings},
	{"cubin", scenario_cubin},
	{"gated", rn_scenario_gated},
	{NULL, NULL},
};

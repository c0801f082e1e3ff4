/*
 * Calling NVRTC two ways with the same code: through the stub's exports
 * and through dlsym on the real library, so that any difference in the
 * results comes from the stub and not from the test.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "real_nvrtc.h"

const char rn_axpy_source[] = "extern \"C\" __global__ void axpy(float a, float *x, float *y)\n"
			      "{\n"
			      "\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
			      "\ty[i] = a * x[i] + y[i];\n"
			      "}\n";

/* A missing semicolon: NVRTC_ERROR_COMPILATION with a log. */
const char rn_broken_source[] = "extern \"C\" __global__ void broken(float *y)\n"
				"{\n"
				"\ty[0] = 1.0f\n"
				"}\n";

void rn_api_stub(struct rn_api *api)
{
	memset(api, 0, sizeof *api);
	api->version = nvrtcVersion;
	api->create = nvrtcCreateProgram;
	api->compile = nvrtcCompileProgram;
	api->destroy = nvrtcDestroyProgram;
	api->log_size = nvrtcGetProgramLogSize;
	api->log = nvrtcGetProgramLog;
	api->ptx_size = nvrtcGetPTXSize;
	api->ptx = nvrtcGetPTX;
	api->cubin_size = nvrtcGetCUBINSize;
	api->cubin = nvrtcGetCUBIN;
	api->ltoir_size = nvrtcGetLTOIRSize;
	/* 12.8 brought it: a stub of an older ABI does not export it (the
	 * real library is RTLD_LOCAL, so the global scope has only the stub) */
	*(void **)&api->pch_heap_size = dlsym(RTLD_DEFAULT, "nvrtcGetPCHHeapSize");
	api->error_string = nvrtcGetErrorString;
}

#define RN_SYM(handle, field, name) (*(void **)&(field) = dlsym((handle), (name)))

int rn_api_direct(struct rn_api *api, void *handle)
{
	memset(api, 0, sizeof *api);
	RN_SYM(handle, api->version, "nvrtcVersion");
	RN_SYM(handle, api->create, "nvrtcCreateProgram");
	RN_SYM(handle, api->compile, "nvrtcCompileProgram");
	RN_SYM(handle, api->destroy, "nvrtcDestroyProgram");
	RN_SYM(handle, api->log_size, "nvrtcGetProgramLogSize");
	RN_SYM(handle, api->log, "nvrtcGetProgramLog");
	RN_SYM(handle, api->ptx_size, "nvrtcGetPTXSize");
	RN_SYM(handle, api->ptx, "nvrtcGetPTX");
	RN_SYM(handle, api->cubin_size, "nvrtcGetCUBINSize");
	RN_SYM(handle, api->cubin, "nvrtcGetCUBIN");
	RN_SYM(handle, api->ltoir_size, "nvrtcGetLTOIRSize");
	RN_SYM(handle, api->pch_heap_size, "nvrtcGetPCHHeapSize");
	RN_SYM(handle, api->error_string, "nvrtcGetErrorString");
	return api->version && api->create && api->compile && api->destroy && api->log_size &&
			       api->log && api->ptx_size && api->ptx && api->cubin_size &&
			       api->cubin && api->error_string
		       ? 0
		       : -1;
}

/* Reads the log or the output of a compiled program into a fresh buffer. */
static nvrtcResult fetch(nvrtcProgram prog, nvrtcResult (*size_of)(nvrtcProgram, size_t *),
			 nvrtcResult (*get)(nvrtcProgram, char *), char **data, size_t *size,
			 nvrtcResult *get_rc)
{
	nvrtcResult rc = size_of(prog, size);

	*data = NULL;
	*get_rc = NVRTC_SUCCESS;
	if (rc != NVRTC_SUCCESS)
		return rc;
	*data = calloc(1, *size + 1);
	if (*data && *size)
		*get_rc = get(prog, *data);
	return rc;
}

void rn_compile(const struct rn_api *api, const char *src, const char *option,
		enum rn_output_kind kind, struct rn_output *out, nvrtcProgram *keep)
{
	nvrtcProgram prog = NULL;
	nvrtcResult ignored;
	const char *options[] = {option};

	memset(out, 0, sizeof *out);
	out->create_rc = api->create(&prog, src, "kernel.cu", 0, NULL, NULL);
	if (out->create_rc != NVRTC_SUCCESS)
		return;
	out->compile_rc = api->compile(prog, 1, options);
	fetch(prog, api->log_size, api->log, &out->log, &out->log_size, &ignored);
	if (kind == RN_PTX)
		out->size_rc =
			fetch(prog, api->ptx_size, api->ptx, &out->data, &out->size, &out->get_rc);
	else if (kind == RN_CUBIN)
		out->size_rc = fetch(prog, api->cubin_size, api->cubin, &out->data, &out->size,
				     &out->get_rc);
	if (keep)
		*keep = prog;
	else
		api->destroy(&prog);
}

void rn_output_free(struct rn_output *out)
{
	free(out->log);
	free(out->data);
	memset(out, 0, sizeof *out);
}

int rn_output_same(const struct rn_output *a, const struct rn_output *b)
{
	return a->create_rc == b->create_rc && a->compile_rc == b->compile_rc &&
	       a->size_rc == b->size_rc && a->get_rc == b->get_rc && a->log_size == b->log_size &&
	       a->size == b->size && (!a->log_size || !memcmp(a->log, b->log, a->log_size)) &&
	       (!a->size || !memcmp(a->data, b->data, a->size));
}

uint64_t rn_fnv1a(const void *data, size_t size)
{
	const unsigned char *p = data;
	uint64_t h = 0xcbf29ce484222325ull;

	while (size--)
		h = (h ^ *p++) * 0x100000001b3ull;
	return h;
}

void rn_output_print(const char *prefix, const struct rn_output *out)
{
	printf("%s_create=%d\n", prefix, (int)out->create_rc);
	printf("%s_compile=%d\n", prefix, (int)out->compile_rc);
	printf("%s_get=%d\n", prefix, (int)(out->size_rc ? out->size_rc : out->get_rc));
	printf("%s_log_size=%zu\n", prefix, out->log_size);
	printf("%s_log_fnv=%016llx\n", prefix,
	       (unsigned long long)rn_fnv1a(out->log, out->log_size));
	printf("%s_size=%zu\n", prefix, out->size);
	printf("%s_fnv=%016llx\n", prefix, (unsigned long long)rn_fnv1a(out->data, out->size));
}

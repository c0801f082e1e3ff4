/*
 * The child scenario for functions gated by the loaded major: LTO-IR came
 * with 12.0 and the PCH heap after 12.4, so the 13-ABI stub must answer
 * CUDASTUB_NVRTC_ERROR_NOT_FOUND where the library lacks them and forward
 * exactly where it has them. The direct call is made only where dlsym
 * finds the function; "absent" says it did not.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "real_nvrtc.h"

/* Written before each size query, to see whether the call wrote it. */
#define UNTOUCHED ((size_t)0x5eed)

static void print_ltoir(const char *prefix, const struct rn_api *api, nvrtcProgram prog)
{
	size_t size = UNTOUCHED;
	nvrtcResult rc = api->ltoir_size(prog, &size);

	printf("ltoir_%s_rc=%d\nltoir_%s_size=%zu\n", prefix, (int)rc, prefix, size);
}

static void print_pch(const char *prefix, const struct rn_api *api)
{
	size_t size = UNTOUCHED;
	nvrtcResult rc = api->pch_heap_size(&size);

	printf("pch_%s_rc=%d\npch_%s_value=%zu\n", prefix, (int)rc, prefix, size);
}

int rn_scenario_gated(void)
{
	struct rn_api stub, direct;
	struct rn_output s, d;
	nvrtcProgram stub_prog = NULL, direct_prog = NULL;
	const char *text;

	rn_api_stub(&stub);
	rn_compile(&stub, rn_axpy_source, "--gpu-architecture=compute_75", RN_NONE, &s, &stub_prog);
	printf("stub_compile=%d\n", (int)s.compile_rc);
	if (rn_open_direct(&direct))
		return 3;
	print_ltoir("stub", &stub, stub_prog);
	if (direct.ltoir_size) {
		rn_compile(&direct, rn_axpy_source, "--gpu-architecture=compute_75", RN_NONE, &d,
			   &direct_prog);
		print_ltoir("direct", &direct, direct_prog);
		direct.destroy(&direct_prog);
		rn_output_free(&d);
	} else {
		printf("ltoir_direct=absent\n");
	}
	if (stub.pch_heap_size)
		print_pch("stub", &stub);
	else
		printf("pch_stub=absent\n");
	if (direct.pch_heap_size)
		print_pch("direct", &direct);
	else
		printf("pch_direct=absent\n");

	/* The real library is RTLD_LOCAL, so the global scope shows only
	 * what the stub exports; nvrtcGetLTOIRSize is the control. */
	printf("stub_exports_nvvm=%d\n", dlsym(RTLD_DEFAULT, "nvrtcGetNVVMSize") != NULL);
	printf("stub_exports_ltoir=%d\n", dlsym(RTLD_DEFAULT, "nvrtcGetLTOIRSize") != NULL);
	printf("stub_abi_major=%d\n", cudastub_nvrtc_info()->abi_major);
	text = nvrtcGetErrorString((nvrtcResult)CUDASTUB_NVRTC_ERROR_NOT_FOUND);
	printf("errstr_not_found_is_stub=%d\n", text && !strncmp(text, "cudastub:", 9));

	stub.destroy(&stub_prog);
	rn_output_free(&s);
	return 0;
}

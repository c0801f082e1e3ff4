/* The calls the real-library suite compares, made through a table. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>

#include "cudart_test.h"

#define LOOK_UP(field, name)                                                                       \
	do {                                                                                       \
		*(void **)&api->field = dlsym(handle, name);                                       \
		missing += api->field == NULL;                                                     \
	} while (0)

int ct_api_from(struct ct_api *api, void *handle)
{
	int missing = 0;

	LOOK_UP(runtime_version, "cudaRuntimeGetVersion");
	LOOK_UP(driver_version, "cudaDriverGetVersion");
	LOOK_UP(device_count, "cudaGetDeviceCount");
	LOOK_UP(malloc, "cudaMalloc");
	LOOK_UP(free, "cudaFree");
	LOOK_UP(last_error, "cudaGetLastError");
	LOOK_UP(peek_error, "cudaPeekAtLastError");
	LOOK_UP(error_name, "cudaGetErrorName");
	LOOK_UP(error_string, "cudaGetErrorString");
	return missing ? -1 : 0;
}

static void out(const char *prefix, const char *key, long value)
{
	printf("%s_%s=%ld\n", prefix, key, value);
}

void ct_api_sequence(const struct ct_api *api, const char *prefix, int last_first)
{
	static char marker;
	void *p = &marker;
	int v = CT_UNTOUCHED;
	cudaError_t rc;

	if (last_first)
		out(prefix, "first_last", api->last_error());
	rc = api->runtime_version(&v);
	out(prefix, "rv_rc", rc);
	out(prefix, "rv", v);
	v = CT_UNTOUCHED;
	rc = api->driver_version(&v);
	out(prefix, "dv_rc", rc);
	out(prefix, "dv", v);
	v = CT_UNTOUCHED;
	rc = api->device_count(&v);
	out(prefix, "count_rc", rc);
	out(prefix, "count", v);
	rc = api->malloc(&p, 256);
	out(prefix, "malloc_rc", rc);
	printf("%s_malloc_ptr=%s\n", prefix, p == &marker ? "untouched" : p ? "set" : "null");
	if (rc == cudaSuccess && p && p != &marker)
		api->free(p);
	out(prefix, "peek_1", api->peek_error());
	out(prefix, "peek_2", api->peek_error());
	out(prefix, "last_1", api->last_error());
	out(prefix, "last_2", api->last_error());
	out(prefix, "peek_3", api->peek_error());
	fflush(stdout);
}

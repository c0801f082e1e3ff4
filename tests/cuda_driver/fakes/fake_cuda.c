/*
 * A fake libcuda.so.1 for the driver stub's tests (tests/cuda_driver),
 * built without NVIDIA's headers: every function is declared here with
 * plain C types, the ABI the real driver exports under that very name.
 *
 * Each entry point records its own name, so a test can tell which symbol a
 * call through the stub reached: the legacy cuMemAlloc takes a 32-bit
 * device pointer (unsigned int *) and writes 4 bytes, cuMemAlloc_v2 a
 * 64-bit one and writes 8. cuGetProcAddress maps a base name and a CUDA
 * version to a symbol the way the driver does (3.2 and later: _v2).
 *
 * What the tests read back (not driver API, so the stub does not export
 * them): fake_cuda_last_call, fake_cuda_calls_of, fake_cuda_last_version,
 * fake_cuda_last_flags.
 */
#include <stddef.h>
#include <string.h>

#define FAKE_DRIVER_VERSION 12040
#define FAKE_SUCCESS	    0
#define FAKE_NOT_FOUND	    500 /* CUDA_ERROR_NOT_FOUND */
#define FAKE_INVALID_VALUE  1

/* ---- the call log ---- */

enum { LOG_SIZE = 64 };
static const char *calls[LOG_SIZE];
static int call_count;
static int last_version;
static unsigned long long last_flags;

static void record(const char *name)
{
	calls[call_count % LOG_SIZE] = name;
	call_count++;
}

const char *fake_cuda_last_call(void)
{
	return call_count ? calls[(call_count - 1) % LOG_SIZE] : "(none)";
}

int fake_cuda_calls_of(const char *name)
{
	int n = 0;

	for (int i = 0; i < call_count && i < LOG_SIZE; i++)
		n += strcmp(calls[i], name) == 0;
	return n;
}

int fake_cuda_last_version(void)
{
	return last_version;
}

unsigned long long fake_cuda_last_flags(void)
{
	return last_flags;
}

/* ---- the driver API ---- */

int cuDriverGetVersion(int *version)
{
	record("cuDriverGetVersion");
	if (!version)
		return FAKE_INVALID_VALUE;
	*version = FAKE_DRIVER_VERSION;
	return FAKE_SUCCESS;
}

int cuInit(unsigned int flags)
{
	(void)flags;
	record("cuInit");
	return FAKE_SUCCESS;
}

/* Device pointers the two allocators hand out: 32 bits, then 64. */
#define LEGACY_POINTER 0x10000000u
#define V2_POINTER     0x7f0000000000ull

int cuMemAlloc(unsigned int *dptr, unsigned int bytesize)
{
	record("cuMemAlloc");
	*dptr = LEGACY_POINTER + bytesize;
	return FAKE_SUCCESS;
}

int cuMemAlloc_v2(unsigned long long *dptr, size_t bytesize)
{
	record("cuMemAlloc_v2");
	*dptr = V2_POINTER + bytesize;
	return FAKE_SUCCESS;
}

static char legacy_context, v2_context;

int cuCtxCreate(void **pctx, unsigned int flags, int dev)
{
	(void)flags;
	(void)dev;
	record("cuCtxCreate");
	*pctx = &legacy_context;
	return FAKE_SUCCESS;
}

int cuCtxCreate_v2(void **pctx, unsigned int flags, int dev)
{
	(void)flags;
	(void)dev;
	record("cuCtxCreate_v2");
	*pctx = &v2_context;
	return FAKE_SUCCESS;
}

int cuGetProcAddress(const char *symbol, void **pfn, int version, unsigned long long flags);
int cuGetProcAddress_v2(const char *symbol, void **pfn, int version, unsigned long long flags,
			int *status);

/* What the driver hands out for a base name at a CUDA version. */
static void *look_up(const char *symbol, int version)
{
	int v2 = version >= 3020;

	if (!strcmp(symbol, "cuMemAlloc"))
		return v2 ? (void *)cuMemAlloc_v2 : (void *)cuMemAlloc;
	if (!strcmp(symbol, "cuCtxCreate"))
		return v2 ? (void *)cuCtxCreate_v2 : (void *)cuCtxCreate;
	if (!strcmp(symbol, "cuGetProcAddress"))
		return version >= 12000 ? (void *)cuGetProcAddress_v2 : (void *)cuGetProcAddress;
	if (!strcmp(symbol, "cuInit"))
		return (void *)cuInit;
	if (!strcmp(symbol, "cuDriverGetVersion"))
		return (void *)cuDriverGetVersion;
	return NULL;
}

static int get_proc(const char *symbol, void **pfn, int version, unsigned long long flags)
{
	last_version = version;
	last_flags = flags;
	if (!symbol || !pfn)
		return FAKE_INVALID_VALUE;
	*pfn = look_up(symbol, version);
	return *pfn ? FAKE_SUCCESS : FAKE_NOT_FOUND;
}

int cuGetProcAddress(const char *symbol, void **pfn, int version, unsigned long long flags)
{
	record("cuGetProcAddress");
	return get_proc(symbol, pfn, version, flags);
}

/* status: 0 found, 1 no such symbol (CUdriverProcAddressQueryResult) */
int cuGetProcAddress_v2(const char *symbol, void **pfn, int version, unsigned long long flags,
			int *status)
{
	int rc;

	record("cuGetProcAddress_v2");
	rc = get_proc(symbol, pfn, version, flags);
	if (status)
		*status = rc == FAKE_SUCCESS ? 0 : 1;
	return rc;
}

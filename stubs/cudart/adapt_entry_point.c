/*
 * cudaGetDriverEntryPoint: 12.0 added a status output and changed what a
 * missing symbol returns.
 *
 *   11.x        cudaError_t cudaGetDriverEntryPoint[_ptsz](const char *symbol,
 *                       void **funcPtr, unsigned long long flags);
 *               a missing symbol: cudaErrorSymbolNotFound
 *   12.x, 13.0  cudaError_t cudaGetDriverEntryPoint[_ptsz](const char *symbol,
 *                       void **funcPtr, unsigned long long flags,
 *                       enum cudaDriverEntryPointQueryResult *driverStatus);
 *               a missing symbol: cudaSuccess, *funcPtr NULL, *driverStatus
 *               cudaDriverEntryPointSymbolNotFound or ...VersionNotSufficent
 *   12.5+, 13.0 cudaError_t cudaGetDriverEntryPointByVersion[_ptsz](const char *symbol,
 *                       void **funcPtr, unsigned int cudaVersion, unsigned long long flags,
 *                       enum cudaDriverEntryPointQueryResult *driverStatus);
 *
 * What a caller gets is a driver function of the ABI of the CUDA version the
 * query names: cudaGetDriverEntryPoint names the loaded runtime's, which for
 * a few driver functions (cuGraphInstantiate, cuGraphExecUpdate, cuMemAdvise,
 * ...) is not the ABI the caller was compiled for. ByVersion names it
 * exactly, so it is preferred.
 *
 * Rule, 11-ABI stub on 12 or 13: ByVersion with cudaVersion = the stub's
 * CUDART_VERSION (11080) when the runtime exports it, else (12.0 to 12.4)
 * the runtime's cudaGetDriverEntryPoint, whose pointers then follow the
 * runtime's version. A status other than Success becomes
 * cudaErrorSymbolNotFound, as 11 answers.
 *
 * Rule, 12-ABI stub on 13, or 13-ABI stub on 12.5+: the two share the
 * prototype, but the pointers would follow the runtime's version, not the
 * caller's; so this adapter runs before the plain forward (`adapter_first`
 * in the spec) and asks ByVersion with the stub's CUDART_VERSION. A 13-ABI
 * stub on 12.0 to 12.4 (no ByVersion) forwards as is: those runtimes can
 * name no other version, and the few driver functions whose ABI changed
 * in 13 then come in their 12 form.
 *
 * Rule, 12- or 13-ABI stub on 11: 11's form; cudaErrorSymbolNotFound
 * becomes cudaSuccess with *funcPtr NULL and the status SymbolNotFound, and
 * cudaSuccess the status Success. 11 cannot say VersionNotSufficent, nor
 * return a driver function newer than 11.8's ABI.
 * cudaDriverEntryPointQueryResult and the flags have the same values in
 * every major that has them.
 */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stddef.h>

#include "adapt_loaded.h"

#if CUDART_VERSION < 12000

/* The loaded runtime's forms; [0] legacy stream, [1] _ptsz. */
typedef cudaError_t (*by_version_fn)(const char *, void **, unsigned int, unsigned long long,
				     int *);
typedef cudaError_t (*with_status_fn)(const char *, void **, unsigned long long, int *);
static _Atomic(by_version_fn) by_version[2];
static _Atomic(with_status_fn) with_status[2];

/* The values of 12.0's enum cudaDriverEntryPointQueryResult. */
enum { STATUS_SUCCESS = 0 };

static cudaError_t entry_point_by_version(int ptsz, const char *symbol, void **funcPtr,
					  unsigned long long flags)
{
	/* One of the two is set: the loaded major never changes. */
	by_version_fn versioned = atomic_load_explicit(&by_version[ptsz], memory_order_relaxed);
	int status = STATUS_SUCCESS;
	cudaError_t rc;

	if (versioned)
		rc = versioned(symbol, funcPtr, CUDART_VERSION, flags, &status);
	else
		rc = atomic_load_explicit(&with_status[ptsz], memory_order_relaxed)(symbol, funcPtr,
										    flags, &status);
	if (rc == cudaSuccess && status != STATUS_SUCCESS)
		return cudaErrorSymbolNotFound;
	return rc;
}

static cudaError_t entry_point_legacy(const char *symbol, void **funcPtr, unsigned long long flags)
{
	return entry_point_by_version(0, symbol, funcPtr, flags);
}

static cudaError_t entry_point_ptsz(const char *symbol, void **funcPtr, unsigned long long flags)
{
	return entry_point_by_version(1, symbol, funcPtr, flags);
}

static void *entry_point_on_newer(const char *name, int ptsz)
{
	static const char *const versioned_names[2] = {"cudaGetDriverEntryPointByVersion",
						       "cudaGetDriverEntryPointByVersion_ptsz"};
	static const char *const plain_names[2] = {"cudaGetDriverEntryPoint",
						   "cudaGetDriverEntryPoint_ptsz"};
	static const cudaGetDriverEntryPoint_fn adapters[2] = {entry_point_legacy,
							       entry_point_ptsz};
	by_version_fn versioned;
	with_status_fn plain;
	int major = adapt_loaded_major();

	if (major != 12 && major != 13)
		return NULL;
	*(void **)&versioned = adapt_loaded_symbol(versioned_names[ptsz]);
	*(void **)&plain = adapt_loaded_symbol(plain_names[ptsz]);
	if (!versioned && !plain)
		return NULL;
	atomic_store_explicit(&by_version[ptsz], versioned, memory_order_relaxed);
	atomic_store_explicit(&with_status[ptsz], plain, memory_order_relaxed);
	return adapt_chosen(name, versioned ? versioned_names[ptsz] : plain_names[ptsz],
			    (void *)adapters[ptsz]);
}

cudaGetDriverEntryPoint_fn cudastub_cudart_adapt_cudaGetDriverEntryPoint(void)
{
	cudaGetDriverEntryPoint_fn fn;

	*(void **)&fn = entry_point_on_newer("cudaGetDriverEntryPoint", 0);
	return fn;
}

cudaGetDriverEntryPoint_ptsz_fn cudastub_cudart_adapt_cudaGetDriverEntryPoint_ptsz(void)
{
	cudaGetDriverEntryPoint_ptsz_fn fn;

	*(void **)&fn = entry_point_on_newer("cudaGetDriverEntryPoint_ptsz", 1);
	return fn;
}

#else /* a 12- or 13-ABI caller */

/* 11's form; [0] legacy stream, [1] _ptsz. */
typedef cudaError_t (*without_status_fn)(const char *, void **, unsigned long long);
static _Atomic(without_status_fn) without_status[2];

static cudaError_t entry_point_with_status(int ptsz, const char *symbol, void **funcPtr,
					   unsigned long long flags,
					   enum cudaDriverEntryPointQueryResult *driverStatus)
{
	cudaError_t rc = atomic_load_explicit(&without_status[ptsz],
					      memory_order_relaxed)(symbol, funcPtr, flags);

	if (rc == cudaErrorSymbolNotFound) {
		if (funcPtr)
			*funcPtr = NULL;
		if (driverStatus)
			*driverStatus = cudaDriverEntryPointSymbolNotFound;
		return cudaSuccess;
	}
	if (rc == cudaSuccess && driverStatus)
		*driverStatus = cudaDriverEntryPointSuccess;
	return rc;
}

static cudaError_t entry_point_legacy(const char *symbol, void **funcPtr, unsigned long long flags,
				      enum cudaDriverEntryPointQueryResult *driverStatus)
{
	return entry_point_with_status(0, symbol, funcPtr, flags, driverStatus);
}

static cudaError_t entry_point_ptsz(const char *symbol, void **funcPtr, unsigned long long flags,
				    enum cudaDriverEntryPointQueryResult *driverStatus)
{
	return entry_point_with_status(1, symbol, funcPtr, flags, driverStatus);
}

/* ByVersion of another major's runtime; [0] legacy stream, [1] _ptsz. */
typedef cudaError_t (*by_version_fn)(const char *, void **, unsigned int, unsigned long long,
				     enum cudaDriverEntryPointQueryResult *);
static _Atomic(by_version_fn) by_version[2];

static cudaError_t entry_point_pinned(int ptsz, const char *symbol, void **funcPtr,
				      unsigned long long flags,
				      enum cudaDriverEntryPointQueryResult *driverStatus)
{
	return atomic_load_explicit(&by_version[ptsz], memory_order_relaxed)(
		symbol, funcPtr, CUDART_VERSION, flags, driverStatus);
}

static cudaError_t entry_point_pinned_legacy(const char *symbol, void **funcPtr,
					     unsigned long long flags,
					     enum cudaDriverEntryPointQueryResult *driverStatus)
{
	return entry_point_pinned(0, symbol, funcPtr, flags, driverStatus);
}

static cudaError_t entry_point_pinned_ptsz(const char *symbol, void **funcPtr,
					   unsigned long long flags,
					   enum cudaDriverEntryPointQueryResult *driverStatus)
{
	return entry_point_pinned(1, symbol, funcPtr, flags, driverStatus);
}

/* A 12 or 13 runtime other than the stub's own major, with ByVersion. */
static void *entry_point_on_other_major(const char *name, int ptsz)
{
	static const char *const names[2] = {"cudaGetDriverEntryPointByVersion",
					     "cudaGetDriverEntryPointByVersion_ptsz"};
	static const cudaGetDriverEntryPoint_fn adapters[2] = {entry_point_pinned_legacy,
							       entry_point_pinned_ptsz};
	int major = adapt_loaded_major();
	by_version_fn fn;

	if (major < 12 || major == CUDART_VERSION / 1000)
		return NULL;
	*(void **)&fn = adapt_loaded_symbol(names[ptsz]);
	if (!fn)
		return NULL;
	atomic_store_explicit(&by_version[ptsz], fn, memory_order_relaxed);
	return adapt_chosen(name, "ByVersion with the stub's CUDA version", (void *)adapters[ptsz]);
}

static void *entry_point_on_11(const char *name, int ptsz)
{
	static const char *const names[2] = {"cudaGetDriverEntryPoint",
					     "cudaGetDriverEntryPoint_ptsz"};
	static const cudaGetDriverEntryPoint_fn adapters[2] = {entry_point_legacy,
							       entry_point_ptsz};
	without_status_fn fn;

	if (adapt_loaded_major() != 11)
		return NULL;
	*(void **)&fn = adapt_loaded_symbol(names[ptsz]);
	if (!fn)
		return NULL;
	atomic_store_explicit(&without_status[ptsz], fn, memory_order_relaxed);
	return adapt_chosen(name, "11's form", (void *)adapters[ptsz]);
}

cudaGetDriverEntryPoint_fn cudastub_cudart_adapt_cudaGetDriverEntryPoint(void)
{
	cudaGetDriverEntryPoint_fn fn;

	*(void **)&fn = entry_point_on_11("cudaGetDriverEntryPoint", 0);
	if (!fn)
		*(void **)&fn = entry_point_on_other_major("cudaGetDriverEntryPoint", 0);
	return fn;
}

cudaGetDriverEntryPoint_ptsz_fn cudastub_cudart_adapt_cudaGetDriverEntryPoint_ptsz(void)
{
	cudaGetDriverEntryPoint_ptsz_fn fn;

	*(void **)&fn = entry_point_on_11("cudaGetDriverEntryPoint_ptsz", 1);
	if (!fn)
		*(void **)&fn = entry_point_on_other_major("cudaGetDriverEntryPoint_ptsz", 1);
	return fn;
}

#endif

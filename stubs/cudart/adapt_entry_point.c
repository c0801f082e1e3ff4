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

/* The runtime's names, and its ByVersion for the translators; [0] legacy
 * stream, [1] _ptsz. */
static const char *const plain_names[2] = {"cudaGetDriverEntryPoint",
					   "cudaGetDriverEntryPoint_ptsz"};
static const char *const versioned_names[2] = {"cudaGetDriverEntryPointByVersion",
					       "cudaGetDriverEntryPointByVersion_ptsz"};
static _Atomic(void *) by_version[2];

#if CUDASTUB_ABI_MAJOR < CUDA_MAJOR_ENTRY_POINT_STATUS

/* The loaded runtime's forms (the status an int: 11.8 has no enum for it);
 * [0] legacy stream, [1] _ptsz. */
typedef cudaError_t (*by_version_fn)(const char *, void **, unsigned int, unsigned long long,
				     int *);
typedef cudaError_t (*with_status_fn)(const char *, void **, unsigned long long, int *);
static _Atomic(void *) with_status[2];

/* The values of 12.0's enum cudaDriverEntryPointQueryResult. */
enum { STATUS_SUCCESS = 0 };

static cudaError_t entry_point_by_version(int ptsz, const char *symbol, void **funcPtr,
					  unsigned long long flags)
{
	/* One of the two is set: the loaded major never changes. */
	by_version_fn versioned;
	with_status_fn plain;
	int status = STATUS_SUCCESS;
	cudaError_t rc;

	*(void **)&versioned = adapt_slot_function(&by_version[ptsz]);
	if (versioned) {
		rc = versioned(symbol, funcPtr, CUDART_VERSION, flags, &status);
	} else {
		*(void **)&plain = adapt_slot_function(&with_status[ptsz]);
		rc = plain(symbol, funcPtr, flags, &status);
	}
	if (rc == cudaSuccess && status != STATUS_SUCCESS)
		return cudaErrorSymbolNotFound;
	return rc;
}

ADAPT_PTSZ_TWINS(cudaError_t, entry_point_by_version,
		 (const char *symbol, void **funcPtr, unsigned long long flags),
		 (symbol, funcPtr, flags))

/* Where the row says another ABI (12, 13): ByVersion, else the plain form
 * with its status. */
static void *entry_point_on_newer(const struct cudastub_release *release, const char *name,
				  int ptsz)
{
	static const cudaGetDriverEntryPoint_fn adapters[2] = {entry_point_by_version_legacy,
							       entry_point_by_version_ptsz};
	void *versioned, *plain;

	if (!adapt_other_abi(release))
		return NULL;
	versioned = adapt_symbol(release, versioned_names[ptsz]);
	plain = adapt_symbol(release, plain_names[ptsz]);
	if (!versioned && !plain)
		return NULL;
	atomic_store_explicit(&by_version[ptsz], versioned, memory_order_release);
	atomic_store_explicit(&with_status[ptsz], plain, memory_order_release);
	return adapt_chosen(release, name, versioned ? versioned_names[ptsz] : plain_names[ptsz],
			    (void *)adapters[ptsz]);
}

ADAPT_HOOK(cudaGetDriverEntryPoint, entry_point_on_newer(release, "cudaGetDriverEntryPoint", 0))
ADAPT_HOOK(cudaGetDriverEntryPoint_ptsz,
	   entry_point_on_newer(release, "cudaGetDriverEntryPoint_ptsz", 1))

#else /* a 12- or 13-ABI caller */

/* 11's form; [0] legacy stream, [1] _ptsz. */
typedef cudaError_t (*without_status_fn)(const char *, void **, unsigned long long);
static _Atomic(void *) without_status[2];

static cudaError_t entry_point_with_status(int ptsz, const char *symbol, void **funcPtr,
					   unsigned long long flags,
					   enum cudaDriverEntryPointQueryResult *driverStatus)
{
	without_status_fn without;
	cudaError_t rc;

	*(void **)&without = adapt_slot_function(&without_status[ptsz]);
	rc = without(symbol, funcPtr, flags);
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

/* ByVersion of another major's runtime. */
typedef cudaError_t (*by_version_fn)(const char *, void **, unsigned int, unsigned long long,
				     enum cudaDriverEntryPointQueryResult *);

static cudaError_t entry_point_pinned(int ptsz, const char *symbol, void **funcPtr,
				      unsigned long long flags,
				      enum cudaDriverEntryPointQueryResult *driverStatus)
{
	by_version_fn versioned;

	*(void **)&versioned = adapt_slot_function(&by_version[ptsz]);
	return versioned(symbol, funcPtr, CUDART_VERSION, flags, driverStatus);
}

ADAPT_PTSZ_TWINS(cudaError_t, entry_point_with_status,
		 (const char *symbol, void **funcPtr, unsigned long long flags,
		  enum cudaDriverEntryPointQueryResult *driverStatus),
		 (symbol, funcPtr, flags, driverStatus))
ADAPT_PTSZ_TWINS(cudaError_t, entry_point_pinned,
		 (const char *symbol, void **funcPtr, unsigned long long flags,
		  enum cudaDriverEntryPointQueryResult *driverStatus),
		 (symbol, funcPtr, flags, driverStatus))

/* 11's form where the row says another ABI (11); where it says the
 * build's, on a runtime of another major than the stub's own, ByVersion
 * (12.5+). */
static void *entry_point_on_other_major(const struct cudastub_release *release, const char *name,
					int ptsz)
{
	static const cudaGetDriverEntryPoint_fn on_11[2] = {entry_point_with_status_legacy,
							    entry_point_with_status_ptsz};
	static const cudaGetDriverEntryPoint_fn pinned[2] = {entry_point_pinned_legacy,
							     entry_point_pinned_ptsz};
	if (adapt_other_abi(release))
		return adapt_translate_to(release, name, plain_names[ptsz], "11's form",
					  &without_status[ptsz], (void *)on_11[ptsz]);
	if (!adapt_same_abi(release) || release->major == CUDASTUB_ABI_MAJOR)
		return NULL;
	return adapt_translate_to(release, name, versioned_names[ptsz],
				  "ByVersion with the stub's CUDA version", &by_version[ptsz],
				  (void *)pinned[ptsz]);
}

ADAPT_HOOK(cudaGetDriverEntryPoint,
	   entry_point_on_other_major(release, "cudaGetDriverEntryPoint", 0))
ADAPT_HOOK(cudaGetDriverEntryPoint_ptsz,
	   entry_point_on_other_major(release, "cudaGetDriverEntryPoint_ptsz", 1))

#endif

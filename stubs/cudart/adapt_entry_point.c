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
#include <stddef.h>

#include "adapt_loaded.h"

/* The values of 12.0's enum cudaDriverEntryPointQueryResult; the status
 * is an int here, as 11.8 has no such enum. */
enum { STATUS_SUCCESS = 0, STATUS_SYMBOL_NOT_FOUND = 1 };
#if CUDASTUB_CUDART_VERSION >= 12000
_Static_assert((int)cudaDriverEntryPointSuccess == STATUS_SUCCESS &&
		       (int)cudaDriverEntryPointSymbolNotFound == STATUS_SYMBOL_NOT_FOUND,
	       "cudaDriverEntryPointQueryResult");
#endif

/* The runtime's forms. */
typedef cudaError_t (*by_version_fn)(const char *, void **, unsigned int, unsigned long long,
				     int *);
typedef cudaError_t (*with_status_fn)(const char *, void **, unsigned long long, int *);
typedef cudaError_t (*without_status_fn)(const char *, void **, unsigned long long);

/* Each a pair: [0] legacy stream, [1] _ptsz. */
enum {
	BY_VERSION_FOR_11 = 0,
	WITH_STATUS_FOR_11 = 2,
	WITHOUT_STATUS = 4,
	PINNED = 6,
	TRANSLATORS = 8
};
static _Atomic(void *) callees[TRANSLATORS];

/* ---- an 11 caller on 12 or 13: ByVersion, else the plain form ---- */

/* 11's answer to a status other than Success */
static cudaError_t status_as_11(cudaError_t rc, int status)
{
	return rc == cudaSuccess && status != STATUS_SUCCESS ? cudaErrorSymbolNotFound : rc;
}

static cudaError_t by_version_for_11(int ptsz, const char *symbol, void **funcPtr,
				     unsigned long long flags)
{
	by_version_fn versioned;
	int status = STATUS_SUCCESS;
	cudaError_t rc;

	*(void **)&versioned = adapt_callee(&callees[BY_VERSION_FOR_11 + ptsz]);
	rc = versioned(symbol, funcPtr, CUDASTUB_CUDART_VERSION, flags, &status);
	return status_as_11(rc, status);
}

static cudaError_t with_status_for_11(int ptsz, const char *symbol, void **funcPtr,
				      unsigned long long flags)
{
	with_status_fn plain;
	int status = STATUS_SUCCESS;
	cudaError_t rc;

	*(void **)&plain = adapt_callee(&callees[WITH_STATUS_FOR_11 + ptsz]);
	rc = plain(symbol, funcPtr, flags, &status);
	return status_as_11(rc, status);
}

ADAPT_PTSZ_TWINS(cudaError_t, by_version_for_11,
		 (const char *symbol, void **funcPtr, unsigned long long flags),
		 (symbol, funcPtr, flags))
ADAPT_PTSZ_TWINS(cudaError_t, with_status_for_11,
		 (const char *symbol, void **funcPtr, unsigned long long flags),
		 (symbol, funcPtr, flags))

/* ---- a 12 or 13 caller: 11's form on 11, ByVersion on another major ---- */

static cudaError_t without_status(int ptsz, const char *symbol, void **funcPtr,
				  unsigned long long flags, int *driverStatus)
{
	without_status_fn without;
	cudaError_t rc;

	*(void **)&without = adapt_callee(&callees[WITHOUT_STATUS + ptsz]);
	rc = without(symbol, funcPtr, flags);
	if (rc == cudaErrorSymbolNotFound) {
		if (funcPtr)
			*funcPtr = NULL;
		if (driverStatus)
			*driverStatus = STATUS_SYMBOL_NOT_FOUND;
		return cudaSuccess;
	}
	if (rc == cudaSuccess && driverStatus)
		*driverStatus = STATUS_SUCCESS;
	return rc;
}

static cudaError_t pinned(int ptsz, const char *symbol, void **funcPtr, unsigned long long flags,
			  int *driverStatus)
{
	by_version_fn versioned;

	*(void **)&versioned = adapt_callee(&callees[PINNED + ptsz]);
	return versioned(symbol, funcPtr, CUDASTUB_CUDART_VERSION, flags, driverStatus);
}

ADAPT_PTSZ_TWINS(cudaError_t, without_status,
		 (const char *symbol, void **funcPtr, unsigned long long flags, int *driverStatus),
		 (symbol, funcPtr, flags, driverStatus))
ADAPT_PTSZ_TWINS(cudaError_t, pinned,
		 (const char *symbol, void **funcPtr, unsigned long long flags, int *driverStatus),
		 (symbol, funcPtr, flags, driverStatus))

/* The translators by number, for the registry. */
static void *translator(int via)
{
	switch (via) {
	case BY_VERSION_FOR_11: return (void *)by_version_for_11_legacy;
	case BY_VERSION_FOR_11 + 1: return (void *)by_version_for_11_ptsz;
	case WITH_STATUS_FOR_11: return (void *)with_status_for_11_legacy;
	case WITH_STATUS_FOR_11 + 1: return (void *)with_status_for_11_ptsz;
	case WITHOUT_STATUS: return (void *)without_status_legacy;
	case WITHOUT_STATUS + 1: return (void *)without_status_ptsz;
	case PINNED: return (void *)pinned_legacy;
	case PINNED + 1: return (void *)pinned_ptsz;
	}
	return NULL;
}

/* The entries of a name (the legacy one, or ptsz: its _ptsz), which the
 * runtime has under the same name and under versioned (ByVersion). */
#define ENTRY_POINT_ENTRIES(name, versioned, ptsz)                                                 \
	ADAPT_ENTRY(name, 11, ADAPT_ON_FORM, 12, ADAPT_SELF, versioned,                            \
		    BY_VERSION_FOR_11 + (ptsz)),                                                   \
		ADAPT_ENTRY(name, 11, ADAPT_ON_FORM, 12, ADAPT_SELF, name,                         \
			    WITH_STATUS_FOR_11 + (ptsz)),                                          \
		ADAPT_ENTRY(name, 12, ADAPT_ON_FORM, 11, ADAPT_SELF, name,                         \
			    WITHOUT_STATUS + (ptsz)),                                              \
		ADAPT_ENTRY(name, 12, ADAPT_ON_OTHER_MAJOR, 12, ADAPT_SELF, versioned,             \
			    PINNED + (ptsz))

static const struct adapt_entry entries[] = {
	ENTRY_POINT_ENTRIES(ADAPT_cudaGetDriverEntryPoint, ADAPT_cudaGetDriverEntryPointByVersion,
			    0),
	ENTRY_POINT_ENTRIES(ADAPT_cudaGetDriverEntryPoint_ptsz,
			    ADAPT_cudaGetDriverEntryPointByVersion_ptsz, 1),
};

ADAPT_FAMILY(entry_point, entries, translator, callees)

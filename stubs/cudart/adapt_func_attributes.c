/*
 * Function attributes: cudaFuncAttributes grew from 56 bytes (11.x) to 144
 * (12.x, 13.x), adding the cluster fields and int reserved[16] after the
 * same eleven fields.
 *
 *   all majors  cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr,
 *                                                const void *func);
 *   11.x  {size_t sharedSizeBytes, constSizeBytes, localSizeBytes; int maxThreadsPerBlock,
 *          numRegs, ptxVersion, binaryVersion, cacheModeCA, maxDynamicSharedSizeBytes,
 *          preferredShmemCarveout;}  (4 bytes of tail padding)
 *   12.x, 13.x  the same, then int clusterDimMustBeSet, requiredClusterWidth,
 *          requiredClusterHeight, requiredClusterDepth, clusterSchedulingPolicyPreference,
 *          nonPortableClusterSizeAllowed, reserved[16]
 *
 * The rule (the runtime writes the struct): the runtime fills a struct of
 * its own layout on the stack; the eleven common fields are copied into the
 * caller's struct. For a 12- or 13-ABI caller on 11.x the cluster fields
 * are 0: 11.x reports no cluster requirements and has no call that would
 * (cudaFuncGetAttribute does not exist). Only the caller's major's size is
 * written. A NULL attr goes to the runtime as NULL.
 */
#define _GNU_SOURCE
#include <stdatomic.h>

#include "adapt_loaded.h"
#include "adapt_struct_copy.h"
#include "cudart_layouts.h"

/* 11.x */
struct cudaFuncAttributes_11 {
	size_t sharedSizeBytes;
	size_t constSizeBytes;
	size_t localSizeBytes;
	int maxThreadsPerBlock;
	int numRegs;
	int ptxVersion;
	int binaryVersion;
	int cacheModeCA;
	int maxDynamicSharedSizeBytes;
	int preferredShmemCarveout;
};
/* 12.x and 13.x */
struct cudaFuncAttributes_12 {
	size_t sharedSizeBytes;
	size_t constSizeBytes;
	size_t localSizeBytes;
	int maxThreadsPerBlock;
	int numRegs;
	int ptxVersion;
	int binaryVersion;
	int cacheModeCA;
	int maxDynamicSharedSizeBytes;
	int preferredShmemCarveout;
	int clusterDimMustBeSet;
	int requiredClusterWidth;
	int requiredClusterHeight;
	int requiredClusterDepth;
	int clusterSchedulingPolicyPreference;
	int nonPortableClusterSizeAllowed;
	int reserved[16];
};

#define CHECK(m, s, f)                                                                             \
	_Static_assert(offsetof(struct s, f) == CUDASTUB_LAYOUT_cudaFuncAttributes_##m##_##f, #f)
#define CHECK_COMMON(m, s)                                                                         \
	CHECK(m, s, sharedSizeBytes);                                                              \
	CHECK(m, s, constSizeBytes);                                                               \
	CHECK(m, s, localSizeBytes);                                                               \
	CHECK(m, s, maxThreadsPerBlock);                                                           \
	CHECK(m, s, numRegs);                                                                      \
	CHECK(m, s, ptxVersion);                                                                   \
	CHECK(m, s, binaryVersion);                                                                \
	CHECK(m, s, cacheModeCA);                                                                  \
	CHECK(m, s, maxDynamicSharedSizeBytes);                                                    \
	CHECK(m, s, preferredShmemCarveout)
#define CHECK_CLUSTER(m, s)                                                                        \
	CHECK(m, s, clusterDimMustBeSet);                                                          \
	CHECK(m, s, requiredClusterWidth);                                                         \
	CHECK(m, s, requiredClusterHeight);                                                        \
	CHECK(m, s, requiredClusterDepth);                                                         \
	CHECK(m, s, clusterSchedulingPolicyPreference);                                            \
	CHECK(m, s, nonPortableClusterSizeAllowed);                                                \
	CHECK(m, s, reserved)
_Static_assert(sizeof(struct cudaFuncAttributes_11) == CUDASTUB_LAYOUT_cudaFuncAttributes_11_SIZE,
	       "11 size");
CHECK_COMMON(11, cudaFuncAttributes_11);
_Static_assert(sizeof(struct cudaFuncAttributes_12) == CUDASTUB_LAYOUT_cudaFuncAttributes_12_SIZE,
	       "12 size");
CHECK_COMMON(12, cudaFuncAttributes_12);
CHECK_CLUSTER(12, cudaFuncAttributes_12);
_Static_assert(sizeof(struct cudaFuncAttributes_12) == CUDASTUB_LAYOUT_cudaFuncAttributes_13_SIZE,
	       "13 size");
CHECK_COMMON(13, cudaFuncAttributes_12);
CHECK_CLUSTER(13, cudaFuncAttributes_12);
#undef CHECK_CLUSTER
#undef CHECK_COMMON
#undef CHECK

/* Where 11's fields end in either layout (before 11's tail padding). */
#define FUNC_ATTRIBUTES_COMMON offsetof(struct cudaFuncAttributes_12, clusterDimMustBeSet)

static size_t func_attributes_size(int major)
{
	return major == 11 ? sizeof(struct cudaFuncAttributes_11)
			   : sizeof(struct cudaFuncAttributes_12);
}

typedef cudaError_t (*runtime_func_get_attributes_fn)(void *attr, const void *func);

static _Atomic(void *) runtime_func_get_attributes;

static cudaError_t func_get_attributes_translated(struct cudaFuncAttributes *attr, const void *func)
{
	runtime_func_get_attributes_fn get;
	union {
		struct cudaFuncAttributes_11 p11;
		struct cudaFuncAttributes_12 p12;
	} theirs;
	cudaError_t err;

	*(void **)&get = atomic_load_explicit(&runtime_func_get_attributes, memory_order_acquire);
	if (!attr)
		return get(NULL, func);
	err = get(&theirs, func);
	if (err == cudaSuccess)
		struct_copy_prefix(attr, func_attributes_size(CUDASTUB_ABI_MAJOR), &theirs,
				   FUNC_ATTRIBUTES_COMMON);
	return err;
}

cudaFuncGetAttributes_fn cudastub_cudart_adapt_cudaFuncGetAttributes(void)
{
	int major = adapt_loaded_major();
	void *get;

	/* 12.x and 13.x share a layout: only 11 against the others differs */
	if (major < 11 || major > 13 || (major == 11) == (CUDASTUB_ABI_MAJOR == 11))
		return NULL;
	get = adapt_loaded_symbol("cudaFuncGetAttributes");
	if (!get)
		return NULL;
	atomic_store_explicit(&runtime_func_get_attributes, get, memory_order_release);
	adapt_chosen("cudaFuncGetAttributes", "through the runtime's layout", get);
	return func_get_attributes_translated;
}

/*
 * Memory pool properties: struct cudaMemPoolProps is 88 bytes in every
 * major, and each major gave reserved bytes a use.
 *
 *   all majors:
 *   cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool, const struct cudaMemPoolProps
 * *poolProps); cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
 *           const cudaGraphNode_t *pDependencies, size_t numDependencies,
 *           struct cudaMemAllocNodeParams *nodeParams);
 *   cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node,
 *           struct cudaMemAllocNodeParams *params_out);
 *
 *   cudaMemPoolProps  11.x {allocType, handleTypes, location, win32SecurityAttributes,
 *                           unsigned char reserved[64] at 24}
 *                     12.x size_t maxSize at 24, reserved[56] at 32
 *                     13.x unsigned short usage at 32, reserved[54] at 34
 *   cudaMemAllocNodeParams (120 bytes) holds one at offset 0 and is otherwise
 *   the same in every major.
 *
 * The rule. Each major's headers require reserved bytes to be zero, and zero
 * is the default of the fields the next major put there (maxSize 0: the
 * system's default size; usage 0: no usage hints).
 *   A newer stub on an older runtime: when the fields the runtime lacks
 *     (maxSize for 11.x, usage for 11.x and 12.x) are zero, the caller's
 *     struct is passed as it is: the runtime reads zeros in its reserved
 *     bytes. Otherwise cudaErrorNotSupported, and nothing is called.
 *   An older stub on a newer runtime: the runtime's function as it is; the
 *     caller's reserved zeros are the new fields' defaults.
 *   cudaGraphMemAllocNodeGetParams: the runtime's function as it is, either
 *     way: it writes 120 bytes in every major. A newer runtime may report
 *     maxSize or usage in an older caller's reserved bytes, inside its
 *     struct.
 */
#define _GNU_SOURCE
#include <stdatomic.h>

#include "adapt_loaded.h"
#include "adapt_struct_copy.h"
#include "cudart_layouts.h"

struct cudaMemPoolProps_11 {
	enum cudaMemAllocationType allocType;
	enum cudaMemAllocationHandleType handleTypes;
	struct cudaMemLocation location;
	void *win32SecurityAttributes;
	unsigned char reserved[64];
};
struct cudaMemPoolProps_12 {
	enum cudaMemAllocationType allocType;
	enum cudaMemAllocationHandleType handleTypes;
	struct cudaMemLocation location;
	void *win32SecurityAttributes;
	size_t maxSize;
	unsigned char reserved[56];
};
struct cudaMemPoolProps_13 {
	enum cudaMemAllocationType allocType;
	enum cudaMemAllocationHandleType handleTypes;
	struct cudaMemLocation location;
	void *win32SecurityAttributes;
	size_t maxSize;
	unsigned short usage;
	unsigned char reserved[54];
};

#define CHECK(m, f)                                                                                \
	_Static_assert(offsetof(struct cudaMemPoolProps_##m, f) ==                                 \
			       CUDASTUB_LAYOUT_cudaMemPoolProps_##m##_##f,                         \
		       #m "." #f)
#define CHECK_COMMON(m)                                                                            \
	_Static_assert(sizeof(struct cudaMemPoolProps_##m) ==                                      \
			       CUDASTUB_LAYOUT_cudaMemPoolProps_##m##_SIZE,                        \
		       #m);                                                                        \
	CHECK(m, allocType);                                                                       \
	CHECK(m, handleTypes);                                                                     \
	CHECK(m, location);                                                                        \
	CHECK(m, win32SecurityAttributes);                                                         \
	CHECK(m, reserved)
CHECK_COMMON(11);
CHECK_COMMON(12);
CHECK(12, maxSize);
CHECK_COMMON(13);
CHECK(13, maxSize);
CHECK(13, usage);
#undef CHECK_COMMON
#undef CHECK
/* cudaMemAllocNodeParams: the pool props first, the rest alike in every major */
#define CHECK_ALLOC(m)                                                                             \
	_Static_assert(CUDASTUB_LAYOUT_cudaMemAllocNodeParams_##m##_SIZE ==                        \
				       sizeof(struct cudaMemAllocNodeParams) &&                    \
			       CUDASTUB_LAYOUT_cudaMemAllocNodeParams_##m##_poolProps == 0 &&      \
			       CUDASTUB_LAYOUT_cudaMemAllocNodeParams_##m##_dptr ==                \
				       offsetof(struct cudaMemAllocNodeParams, dptr),              \
		       "cudaMemAllocNodeParams " #m)
CHECK_ALLOC(11);
CHECK_ALLOC(12);
CHECK_ALLOC(13);
#undef CHECK_ALLOC

/* Whether an older runtime of major can honour the caller's props: the
 * fields the caller's layout has and the runtime's lacks are zero. */
static int pool_props_fit(const void *props, int major)
{
	if (CUDASTUB_ABI_MAJOR >= 12 && major < 12 &&
	    !struct_bytes_are_zero(props, offsetof(struct cudaMemPoolProps_12, maxSize),
				   offsetof(struct cudaMemPoolProps_12, reserved)))
		return 0;
	if (CUDASTUB_ABI_MAJOR >= 13 && major < 13 &&
	    !struct_bytes_are_zero(props, offsetof(struct cudaMemPoolProps_13, usage),
				   offsetof(struct cudaMemPoolProps_13, reserved)))
		return 0;
	return 1;
}

typedef cudaError_t (*runtime_mem_pool_create_fn)(cudaMemPool_t *, const void *props);
typedef cudaError_t (*runtime_add_mem_alloc_node_fn)(cudaGraphNode_t *, cudaGraph_t,
						     const cudaGraphNode_t *, size_t, void *params);

static _Atomic(void *) runtime_mem_pool_create;
static _Atomic(void *) runtime_add_mem_alloc_node;

static cudaError_t mem_pool_create_on_older(cudaMemPool_t *memPool,
					    const struct cudaMemPoolProps *poolProps)
{
	runtime_mem_pool_create_fn create;

	if (poolProps && !pool_props_fit(poolProps, adapt_loaded_major()))
		return cudaErrorNotSupported;
	*(void **)&create = adapt_slot_function(&runtime_mem_pool_create);
	return create(memPool, poolProps);
}

static cudaError_t add_mem_alloc_node_on_older(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
					       const cudaGraphNode_t *pDependencies,
					       size_t numDependencies,
					       struct cudaMemAllocNodeParams *nodeParams)
{
	runtime_add_mem_alloc_node_fn add;

	if (nodeParams && !pool_props_fit(&nodeParams->poolProps, adapt_loaded_major()))
		return cudaErrorNotSupported;
	*(void **)&add = adapt_slot_function(&runtime_add_mem_alloc_node);
	return add(pGraphNode, graph, pDependencies, numDependencies, nodeParams);
}

/* The runtime's name for the loaded major: as it is on a newer runtime, the
 * checking translator (its target stored in slot) on an older one. */
static void *pool_props_adapter(const char *name, _Atomic(void *) *slot, void *on_older)
{
	int major = adapt_loaded_major();
	void *sym;

	if (major < 11 || major > 13 || major == CUDASTUB_ABI_MAJOR)
		return NULL;
	sym = adapt_loaded_symbol(name);
	if (!sym || major > CUDASTUB_ABI_MAJOR)
		return adapt_chosen(name, "a newer runtime, as it is", sym);
	atomic_store_explicit(slot, sym, memory_order_release);
	return adapt_chosen(name, "the fields the runtime lacks must be 0", on_older);
}

cudaMemPoolCreate_fn cudastub_cudart_adapt_cudaMemPoolCreate(void)
{
	cudaMemPoolCreate_fn fn;

	*(void **)&fn = pool_props_adapter("cudaMemPoolCreate", &runtime_mem_pool_create,
					   (void *)mem_pool_create_on_older);
	return fn;
}

cudaGraphAddMemAllocNode_fn cudastub_cudart_adapt_cudaGraphAddMemAllocNode(void)
{
	cudaGraphAddMemAllocNode_fn fn;

	*(void **)&fn = pool_props_adapter("cudaGraphAddMemAllocNode", &runtime_add_mem_alloc_node,
					   (void *)add_mem_alloc_node_on_older);
	return fn;
}

cudaGraphMemAllocNodeGetParams_fn cudastub_cudart_adapt_cudaGraphMemAllocNodeGetParams(void)
{
	cudaGraphMemAllocNodeGetParams_fn fn;
	int major = adapt_loaded_major();

	if (major >= 11 && major <= 13 && major != CUDASTUB_ABI_MAJOR)
		*(void **)&fn = adapt_chosen("cudaGraphMemAllocNodeGetParams",
					     "120 bytes in every major, as it is",
					     adapt_loaded_symbol("cudaGraphMemAllocNodeGetParams"));
	else
		fn = NULL;
	return fn;
}

/*
 * Pointer attributes: cudaPointerAttributes grew from 24 bytes (11.x, 12.x)
 * to 88 (13.x), adding long reserved[8] after the same four fields.
 *
 *   all majors  cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes,
 *                                                   const void *ptr);
 *   11.x, 12.x  {enum cudaMemoryType type; int device; void *devicePointer; void *hostPointer;}
 *   13.x        the same, then long reserved[8]
 *
 * The rule (the runtime writes the struct): the runtime fills a struct of
 * its own layout on the stack; the four fields are copied into the caller's
 * struct, whose reserved words (13-ABI caller) are zeroed. Only the
 * caller's major's size is written. A NULL attributes goes to the runtime
 * as NULL, which answers for itself.
 */
#define _GNU_SOURCE
#include <stdatomic.h>

#include "adapt_loaded.h"
#include "adapt_struct_copy.h"
#include "cudart_layouts.h"

/* 11.x and 12.x */
struct cudaPointerAttributes_12 {
	enum cudaMemoryType type;
	int device;
	void *devicePointer;
	void *hostPointer;
};
/* 13.x */
struct cudaPointerAttributes_13 {
	enum cudaMemoryType type;
	int device;
	void *devicePointer;
	void *hostPointer;
	long reserved[8];
};

#define CHECK(m, s, f)                                                                             \
	_Static_assert(offsetof(struct s, f) == CUDASTUB_LAYOUT_cudaPointerAttributes_##m##_##f, #f)
_Static_assert(sizeof(struct cudaPointerAttributes_12) ==
		       CUDASTUB_LAYOUT_cudaPointerAttributes_11_SIZE,
	       "11 size");
CHECK(11, cudaPointerAttributes_12, type);
CHECK(11, cudaPointerAttributes_12, device);
CHECK(11, cudaPointerAttributes_12, devicePointer);
CHECK(11, cudaPointerAttributes_12, hostPointer);
_Static_assert(sizeof(struct cudaPointerAttributes_12) ==
		       CUDASTUB_LAYOUT_cudaPointerAttributes_12_SIZE,
	       "12 size");
CHECK(12, cudaPointerAttributes_12, type);
CHECK(12, cudaPointerAttributes_12, device);
CHECK(12, cudaPointerAttributes_12, devicePointer);
CHECK(12, cudaPointerAttributes_12, hostPointer);
_Static_assert(sizeof(struct cudaPointerAttributes_13) ==
		       CUDASTUB_LAYOUT_cudaPointerAttributes_13_SIZE,
	       "13 size");
CHECK(13, cudaPointerAttributes_13, type);
CHECK(13, cudaPointerAttributes_13, device);
CHECK(13, cudaPointerAttributes_13, devicePointer);
CHECK(13, cudaPointerAttributes_13, hostPointer);
CHECK(13, cudaPointerAttributes_13, reserved);
#undef CHECK

/* Where 12's fields end in either layout. */
#define POINTER_ATTRIBUTES_COMMON offsetof(struct cudaPointerAttributes_13, reserved)

static size_t pointer_attributes_size(int major)
{
	return major == 13 ? sizeof(struct cudaPointerAttributes_13)
			   : sizeof(struct cudaPointerAttributes_12);
}

typedef cudaError_t (*runtime_pointer_get_attributes_fn)(void *attributes, const void *ptr);

static _Atomic(void *) runtime_pointer_get_attributes;

static cudaError_t pointer_get_attributes_translated(struct cudaPointerAttributes *attributes,
						     const void *ptr)
{
	runtime_pointer_get_attributes_fn get;
	union {
		struct cudaPointerAttributes_12 p12;
		struct cudaPointerAttributes_13 p13;
	} theirs;
	cudaError_t err;

	*(void **)&get =
		atomic_load_explicit(&runtime_pointer_get_attributes, memory_order_acquire);
	if (!attributes)
		return get(NULL, ptr);
	err = get(&theirs, ptr);
	if (err == cudaSuccess)
		struct_copy_prefix(attributes, pointer_attributes_size(CUDASTUB_ABI_MAJOR), &theirs,
				   POINTER_ATTRIBUTES_COMMON);
	return err;
}

cudaPointerGetAttributes_fn cudastub_cudart_adapt_cudaPointerGetAttributes(void)
{
	int major = adapt_loaded_major();
	void *get;

	/* 11.x and 12.x share a layout: only 13 against the others differs */
	if (major < 11 || major > 13 || (major == 13) == (CUDASTUB_ABI_MAJOR == 13))
		return NULL;
	get = adapt_loaded_symbol("cudaPointerGetAttributes");
	if (!get)
		return NULL;
	atomic_store_explicit(&runtime_pointer_get_attributes, get, memory_order_release);
	adapt_chosen("cudaPointerGetAttributes", "through the runtime's layout", get);
	return pointer_get_attributes_translated;
}

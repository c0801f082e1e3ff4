/*
 * External memory and semaphore import: four descriptors that 13.x grew
 * by unsigned int reserved[16] ("must be zero") after the same fields.
 *
 *   all majors:
 *   cudaError_t cudaImportExternalMemory(cudaExternalMemory_t *extMem_out,
 *           const struct cudaExternalMemoryHandleDesc *memHandleDesc);
 *   cudaError_t cudaExternalMemoryGetMappedBuffer(void **devPtr, cudaExternalMemory_t extMem,
 *           const struct cudaExternalMemoryBufferDesc *bufferDesc);
 *   cudaError_t cudaExternalMemoryGetMappedMipmappedArray(cudaMipmappedArray_t *mipmap,
 *           cudaExternalMemory_t extMem,
 *           const struct cudaExternalMemoryMipmappedArrayDesc *mipmapDesc);
 *   cudaError_t cudaImportExternalSemaphore(cudaExternalSemaphore_t *extSem_out,
 *           const struct cudaExternalSemaphoreHandleDesc *semHandleDesc);
 *
 *   descriptor                            11.x/12.x          13.x
 *   cudaExternalMemoryHandleDesc          40 (fields to 36)  104, reserved at 36
 *   cudaExternalMemoryBufferDesc          24 (fields to 20)   88, reserved at 20
 *   cudaExternalMemoryMipmappedArrayDesc  64                 128, reserved at 64
 *   cudaExternalSemaphoreHandleDesc       32 (fields to 28)   96, reserved at 28
 *
 * The rule (the caller's descriptor is read):
 *   13-ABI stub on 11.x or 12.x: when the reserved words are all zero, the
 *     caller's descriptor is passed as it is (the older runtime reads its
 *     own layout, the prefix before them); otherwise cudaErrorNotSupported,
 *     and nothing is called.
 *   11- or 12-ABI stub on 13.x: the fields are copied into 13's layout on the
 *     stack with the reserved words zero.
 *   11.x and 12.x share the layouts: between them, the runtime's function as
 *   it is.
 * A NULL descriptor goes to the runtime as NULL, which answers for itself.
 */
#define _GNU_SOURCE
#include <stdatomic.h>

#include "adapt_loaded.h"
#include "adapt_struct_copy.h"
#include "cudart_layouts.h"

/* The handle unions, the same in every major. */
union external_memory_handle {
	int fd;
	struct {
		void *handle;
		const void *name;
	} win32;
	const void *nvSciBufObject;
};
union external_semaphore_handle {
	int fd;
	struct {
		void *handle;
		const void *name;
	} win32;
	const void *nvSciSyncObj;
};

/* 11.x and 12.x; then 13.x */
struct cudaExternalMemoryHandleDesc_12 {
	enum cudaExternalMemoryHandleType type;
	union external_memory_handle handle;
	unsigned long long size;
	unsigned int flags;
};
struct cudaExternalMemoryHandleDesc_13 {
	enum cudaExternalMemoryHandleType type;
	union external_memory_handle handle;
	unsigned long long size;
	unsigned int flags;
	unsigned int reserved[16];
};
struct cudaExternalMemoryBufferDesc_12 {
	unsigned long long offset;
	unsigned long long size;
	unsigned int flags;
};
struct cudaExternalMemoryBufferDesc_13 {
	unsigned long long offset;
	unsigned long long size;
	unsigned int flags;
	unsigned int reserved[16];
};
struct cudaExternalMemoryMipmappedArrayDesc_12 {
	unsigned long long offset;
	struct cudaChannelFormatDesc formatDesc;
	struct cudaExtent extent;
	unsigned int flags;
	unsigned int numLevels;
};
struct cudaExternalMemoryMipmappedArrayDesc_13 {
	unsigned long long offset;
	struct cudaChannelFormatDesc formatDesc;
	struct cudaExtent extent;
	unsigned int flags;
	unsigned int numLevels;
	unsigned int reserved[16];
};
struct cudaExternalSemaphoreHandleDesc_12 {
	enum cudaExternalSemaphoreHandleType type;
	union external_semaphore_handle handle;
	unsigned int flags;
};
struct cudaExternalSemaphoreHandleDesc_13 {
	enum cudaExternalSemaphoreHandleType type;
	union external_semaphore_handle handle;
	unsigned int flags;
	unsigned int reserved[16];
};

#define CHECK(s, m, f)                                                                             \
	_Static_assert(offsetof(struct s##_##m, f) == CUDASTUB_LAYOUT_##s##_##m##_##f, #s "." #f)
#define CHECK_11(s, f)                                                                             \
	_Static_assert(offsetof(struct s##_12, f) == CUDASTUB_LAYOUT_##s##_11_##f, #s "." #f)
#define CHECK_SIZES(s)                                                                             \
	_Static_assert(sizeof(struct s##_12) == CUDASTUB_LAYOUT_##s##_11_SIZE, #s " 11");          \
	_Static_assert(sizeof(struct s##_12) == CUDASTUB_LAYOUT_##s##_12_SIZE, #s " 12");          \
	_Static_assert(sizeof(struct s##_13) == CUDASTUB_LAYOUT_##s##_13_SIZE, #s " 13")
/* each field in the 11.x, 12.x and 13.x layouts */
#define CHECK_FIELD(s, f)                                                                          \
	CHECK_11(s, f);                                                                            \
	CHECK(s, 12, f);                                                                           \
	CHECK(s, 13, f)

CHECK_SIZES(cudaExternalMemoryHandleDesc);
CHECK_FIELD(cudaExternalMemoryHandleDesc, type);
CHECK_FIELD(cudaExternalMemoryHandleDesc, handle);
CHECK_FIELD(cudaExternalMemoryHandleDesc, size);
CHECK_FIELD(cudaExternalMemoryHandleDesc, flags);
CHECK(cudaExternalMemoryHandleDesc, 13, reserved);
CHECK_SIZES(cudaExternalMemoryBufferDesc);
CHECK_FIELD(cudaExternalMemoryBufferDesc, offset);
CHECK_FIELD(cudaExternalMemoryBufferDesc, size);
CHECK_FIELD(cudaExternalMemoryBufferDesc, flags);
CHECK(cudaExternalMemoryBufferDesc, 13, reserved);
CHECK_SIZES(cudaExternalMemoryMipmappedArrayDesc);
CHECK_FIELD(cudaExternalMemoryMipmappedArrayDesc, offset);
CHECK_FIELD(cudaExternalMemoryMipmappedArrayDesc, formatDesc);
CHECK_FIELD(cudaExternalMemoryMipmappedArrayDesc, extent);
CHECK_FIELD(cudaExternalMemoryMipmappedArrayDesc, flags);
CHECK_FIELD(cudaExternalMemoryMipmappedArrayDesc, numLevels);
CHECK(cudaExternalMemoryMipmappedArrayDesc, 13, reserved);
CHECK_SIZES(cudaExternalSemaphoreHandleDesc);
CHECK_FIELD(cudaExternalSemaphoreHandleDesc, type);
CHECK_FIELD(cudaExternalSemaphoreHandleDesc, handle);
CHECK_FIELD(cudaExternalSemaphoreHandleDesc, flags);
CHECK(cudaExternalSemaphoreHandleDesc, 13, reserved);
#undef CHECK_FIELD
#undef CHECK_SIZES
#undef CHECK_11
#undef CHECK

/* How one descriptor differs: 13's size, and where its reserved words
 * start (where 12's fields end). */
struct descriptor_layouts {
	size_t size_13, common;
};

static const struct descriptor_layouts memory_handle_desc = {
	sizeof(struct cudaExternalMemoryHandleDesc_13),
	offsetof(struct cudaExternalMemoryHandleDesc_13, reserved)};
static const struct descriptor_layouts buffer_desc = {
	sizeof(struct cudaExternalMemoryBufferDesc_13),
	offsetof(struct cudaExternalMemoryBufferDesc_13, reserved)};
static const struct descriptor_layouts mipmapped_array_desc = {
	sizeof(struct cudaExternalMemoryMipmappedArrayDesc_13),
	offsetof(struct cudaExternalMemoryMipmappedArrayDesc_13, reserved)};
static const struct descriptor_layouts semaphore_handle_desc = {
	sizeof(struct cudaExternalSemaphoreHandleDesc_13),
	offsetof(struct cudaExternalSemaphoreHandleDesc_13, reserved)};

/* Room for the largest descriptor, aligned for any of them. */
union descriptor_buffer {
	struct cudaExternalMemoryHandleDesc_13 memory_handle;
	struct cudaExternalMemoryBufferDesc_13 buffer;
	struct cudaExternalMemoryMipmappedArrayDesc_13 mipmapped_array;
	struct cudaExternalSemaphoreHandleDesc_13 semaphore_handle;
};

/*
 * The caller's descriptor as the runtime reads it: desc itself when the
 * runtime's layout is the same or a prefix of it (once the reserved words
 * the older runtime lacks are checked to be zero), or a widened copy in buf.
 * NULL with *refused set when those reserved words are not zero.
 */
static const void *descriptor_for_runtime(const void *desc, const struct descriptor_layouts *l,
					  union descriptor_buffer *buf, int *refused)
{
	int runtime_13 = adapt_loaded_major() == 13;

	*refused = 0;
	if (!desc || runtime_13 == (CUDASTUB_ABI_MAJOR == 13))
		return desc;
	if (runtime_13) {
		struct_copy_prefix(buf, l->size_13, desc, l->common);
		return buf;
	}
	*refused = !struct_bytes_are_zero(desc, l->common, l->size_13);
	return *refused ? NULL : desc;
}

typedef cudaError_t (*runtime_import_fn)(void *out, const void *desc);
typedef cudaError_t (*runtime_get_mapped_fn)(void *out, cudaExternalMemory_t extMem,
					     const void *desc);

static _Atomic(void *) runtime_import_memory;
static _Atomic(void *) runtime_get_mapped_buffer;
static _Atomic(void *) runtime_get_mapped_mipmapped_array;
static _Atomic(void *) runtime_import_semaphore;

static cudaError_t import_translated(_Atomic(void *) *slot, void *out, const void *desc,
				     const struct descriptor_layouts *l)
{
	union descriptor_buffer buf;
	runtime_import_fn import;
	const void *theirs;
	int refused;

	theirs = descriptor_for_runtime(desc, l, &buf, &refused);
	if (refused)
		return cudaErrorNotSupported;
	*(void **)&import = adapt_slot_function(slot);
	return import(out, theirs);
}

static cudaError_t get_mapped_translated(_Atomic(void *) *slot, void *out,
					 cudaExternalMemory_t extMem, const void *desc,
					 const struct descriptor_layouts *l)
{
	union descriptor_buffer buf;
	runtime_get_mapped_fn get;
	const void *theirs;
	int refused;

	theirs = descriptor_for_runtime(desc, l, &buf, &refused);
	if (refused)
		return cudaErrorNotSupported;
	*(void **)&get = adapt_slot_function(slot);
	return get(out, extMem, theirs);
}

static cudaError_t
import_external_memory_translated(cudaExternalMemory_t *extMem_out,
				  const struct cudaExternalMemoryHandleDesc *desc)
{
	return import_translated(&runtime_import_memory, extMem_out, desc, &memory_handle_desc);
}

static cudaError_t
get_mapped_buffer_translated(void **devPtr, cudaExternalMemory_t extMem,
			     const struct cudaExternalMemoryBufferDesc *bufferDesc)
{
	return get_mapped_translated(&runtime_get_mapped_buffer, devPtr, extMem, bufferDesc,
				     &buffer_desc);
}

static cudaError_t
get_mapped_mipmapped_array_translated(cudaMipmappedArray_t *mipmap, cudaExternalMemory_t extMem,
				      const struct cudaExternalMemoryMipmappedArrayDesc *mipmapDesc)
{
	return get_mapped_translated(&runtime_get_mapped_mipmapped_array, mipmap, extMem,
				     mipmapDesc, &mipmapped_array_desc);
}

static cudaError_t
import_external_semaphore_translated(cudaExternalSemaphore_t *extSem_out,
				     const struct cudaExternalSemaphoreHandleDesc *desc)
{
	return import_translated(&runtime_import_semaphore, extSem_out, desc,
				 &semaphore_handle_desc);
}

/* For the loaded major: the translator, its target (the runtime's name)
 * stored in slot, when it lays the descriptors out otherwise than the stub;
 * the runtime's name as it is when the layouts agree (11.x and 12.x, which
 * the generator gates only because the handle unions are anonymous and
 * named after the header they were read from); NULL for a major the stub
 * does not know. */
/* The descriptors changed in 13.0 only. */
static int layout_differs(int major)
{
	return (major >= 13) != (CUDASTUB_ABI_MAJOR >= 13);
}

static void *translate_to(const char *name, _Atomic(void *) *slot, void *translator)
{
	return adapt_translate_if_differs(layout_differs, name, slot, translator,
					  "descriptor translated");
}

cudaImportExternalMemory_fn cudastub_cudart_adapt_cudaImportExternalMemory(void)
{
	cudaImportExternalMemory_fn fn;

	*(void **)&fn = translate_to("cudaImportExternalMemory", &runtime_import_memory,
				     (void *)import_external_memory_translated);
	return fn;
}

cudaExternalMemoryGetMappedBuffer_fn cudastub_cudart_adapt_cudaExternalMemoryGetMappedBuffer(void)
{
	cudaExternalMemoryGetMappedBuffer_fn fn;

	*(void **)&fn =
		translate_to("cudaExternalMemoryGetMappedBuffer", &runtime_get_mapped_buffer,
			     (void *)get_mapped_buffer_translated);
	return fn;
}

cudaExternalMemoryGetMappedMipmappedArray_fn
cudastub_cudart_adapt_cudaExternalMemoryGetMappedMipmappedArray(void)
{
	cudaExternalMemoryGetMappedMipmappedArray_fn fn;

	*(void **)&fn = translate_to("cudaExternalMemoryGetMappedMipmappedArray",
				     &runtime_get_mapped_mipmapped_array,
				     (void *)get_mapped_mipmapped_array_translated);
	return fn;
}

cudaImportExternalSemaphore_fn cudastub_cudart_adapt_cudaImportExternalSemaphore(void)
{
	cudaImportExternalSemaphore_fn fn;

	*(void **)&fn = translate_to("cudaImportExternalSemaphore", &runtime_import_semaphore,
				     (void *)import_external_semaphore_translated);
	return fn;
}

/*
 * External memory and semaphore import: four descriptors that 13.x grew by
 * reserved words (the spec's `layout` lines; stubs/cudart/layout/layout.c copies
 * them). A 13 descriptor reaches 12.x or 11.x narrowed when the reserved
 * words are zero and is refused otherwise (its tail padding is no field,
 * and never refused); an 11 or 12 descriptor reaches 13 widened with
 * zeros. Padding is never carried: the callers' structs hold zeros there.
 */
#define _GNU_SOURCE
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <string.h>

#include "adapters_test.h"

#define LAYOUT(s, m, what) CUDASTUB_LAYOUT_##s##_##m##_##what

/* 13's reserved words: unsigned int reserved[16] */
#define RESERVED_SIZE (16 * sizeof(unsigned int))
#define TABLES(s)                                                                                  \
	{                                                                                          \
		&cudastub_cudart_layout_##s##_11, &cudastub_cudart_layout_##s##_12,                \
			&cudastub_cudart_layout_##s##_13                                           \
	}

/* One descriptor: the function taking it, its sizes in 12.x and 13.x, where
 * 13's reserved words start, whether the function maps (the external
 * memory is its second argument) rather than imports, and its layouts in
 * 11, 12 and 13. */
static const struct descriptor {
	const char *function;
	size_t size_12, size_13, common;
	int maps;
	unsigned long out; /* what the fake returns */
	const struct cudastub_layout *layouts[3];
} descriptors[] = {
	{"cudaImportExternalMemory", LAYOUT(cudaExternalMemoryHandleDesc, 12, SIZE),
	 LAYOUT(cudaExternalMemoryHandleDesc, 13, SIZE),
	 LAYOUT(cudaExternalMemoryHandleDesc, 13, reserved), 0, 0xe0,
	 TABLES(cudaExternalMemoryHandleDesc)},
	{"cudaExternalMemoryGetMappedBuffer", LAYOUT(cudaExternalMemoryBufferDesc, 12, SIZE),
	 LAYOUT(cudaExternalMemoryBufferDesc, 13, SIZE),
	 LAYOUT(cudaExternalMemoryBufferDesc, 13, reserved), 1, 0xb0,
	 TABLES(cudaExternalMemoryBufferDesc)},
	{"cudaExternalMemoryGetMappedMipmappedArray",
	 LAYOUT(cudaExternalMemoryMipmappedArrayDesc, 12, SIZE),
	 LAYOUT(cudaExternalMemoryMipmappedArrayDesc, 13, SIZE),
	 LAYOUT(cudaExternalMemoryMipmappedArrayDesc, 13, reserved), 1, 0x33,
	 TABLES(cudaExternalMemoryMipmappedArrayDesc)},
	{"cudaImportExternalSemaphore", LAYOUT(cudaExternalSemaphoreHandleDesc, 12, SIZE),
	 LAYOUT(cudaExternalSemaphoreHandleDesc, 13, SIZE),
	 LAYOUT(cudaExternalSemaphoreHandleDesc, 13, reserved), 0, 0x5e,
	 TABLES(cudaExternalSemaphoreHandleDesc)},
};

typedef cudaError_t (*import_fn)(void **out, const void *desc);
typedef cudaError_t (*map_fn)(void **out, void *extMem, const void *desc);

static cudaError_t call(const struct descriptor *d, const void *desc, void **out)
{
	*out = NULL;
	if (d->maps)
		return ((map_fn)ad_stub_symbol(d->function))(out, (void *)0xe0, desc);
	return ((import_fn)ad_stub_symbol(d->function))(out, desc);
}

static const struct fake_received *received(void)
{
	return ad_fake_symbol("fake_descs_received");
}

/* The 13-ABI stub on 12.x or 11.x. */
static int descriptors_13_on_older(void)
{
	for (size_t i = 0; i < sizeof descriptors / sizeof *descriptors; i++) {
		const struct descriptor *d = &descriptors[i];
		unsigned char desc[256] = {0};
		void *out;
		int mark;

		ad_fill_fields(desc, d->layouts[2], d->common);
		mark = ad_mark();
		AD_EXPECT(call(d, desc, &out) == cudaSuccess && out == (void *)d->out);
		AD_EXPECT(ad_called_since(mark, d->function));
		/* the runtime reads its own, shorter layout: the same fields */
		AD_EXPECT(ad_received_as(received(), desc, d->size_12, d->common));
		/* non-zero tail padding is no field: the call is not refused (the
		 * padding lies past the bytes the runtime reads) */
		if (!ad_in_field(d->layouts[2], d->size_13 - 1)) {
			desc[d->size_13 - 1] = 1;
			AD_EXPECT(call(d, desc, &out) == cudaSuccess);
			AD_EXPECT(ad_received_as(received(), desc, d->size_12, d->common));
			desc[d->size_13 - 1] = 0;
		}
		/* a reserved word the runtime has no place for: refused */
		for (size_t at = d->common; at < d->common + RESERVED_SIZE;
		     at += RESERVED_SIZE - 1) {
			desc[at] = 1;
			mark = ad_mark();
			AD_EXPECT(call(d, desc, &out) == cudaErrorNotSupported && out == NULL);
			AD_EXPECT(!ad_any_call_since(mark));
			desc[at] = 0;
		}
		AD_EXPECT(call(d, NULL, &out) == cudaSuccess && received()->ptr == NULL);
	}
	return ad_finish();
}

/* The 12- and 11-ABI stubs on 13: widened. */
static int descriptors_older_on_13(void)
{
	for (size_t i = 0; i < sizeof descriptors / sizeof *descriptors; i++) {
		const struct descriptor *d = &descriptors[i];
		unsigned char desc[256], got[256];
		void *out;
		int mark = ad_mark();

		memset(desc, 0, sizeof desc);
		ad_fill_fields(desc, d->layouts[1], d->size_12); /* 11 and 12 alike */
		AD_EXPECT(call(d, desc, &out) == cudaSuccess && out == (void *)d->out);
		AD_EXPECT(ad_called_since(mark, d->function));
		AD_EXPECT(received()->ptr != desc && received()->size == d->size_13);
		/* 13's fields the older layout has, reserved zero */
		memcpy(got, received()->bytes, d->size_13);
		AD_EXPECT(ad_fields_at(got, d->layouts[2], d->common));
		/* padding in the caller's struct is not carried */
		for (size_t k = 0; k < d->size_12; k++)
			if (!ad_in_field(d->layouts[1], k))
				desc[k] = 0xee;
		AD_EXPECT(call(d, desc, &out) == cudaSuccess);
		AD_EXPECT(ad_fields_at(received()->bytes, d->layouts[2], d->common));
	}
	return ad_finish();
}

/* The control: 12-ABI on 11, the same layout. */
static int descriptors_forwarded(void)
{
	const struct descriptor *d = &descriptors[0];
	unsigned char desc[256] = {0};
	void *out;

	AD_EXPECT(call(d, desc, &out) == cudaSuccess && received()->ptr == desc);
	return ad_finish();
}

static const struct ad_case cases[] = {
	AD_TEST("13-ABI on 12 and 11: as is, reserved words zero"),
	AD_CHECKED(13, "12", descriptors_13_on_older),
	AD_CHECKED(13, "11", descriptors_13_on_older),
	AD_TEST("12- and 11-ABI on 13: widened"),
	AD_CHECKED(12, "13", descriptors_older_on_13),
	AD_CHECKED(11, "13", descriptors_older_on_13),
	AD_CHECKED(12, "11", descriptors_forwarded),
	AD_END,
};

AD_MAIN("external memory descriptors", cases)

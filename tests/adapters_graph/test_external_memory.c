/*
 * External memory and semaphore import (stubs/cudart/adapt_external_memory.c):
 * four descriptors that 13.x grew by reserved words. A 13 descriptor
 * reaches 12.x or 11.x as it is when the reserved words are zero and is
 * refused otherwise; an 11 or 12 descriptor reaches 13 widened with zeros.
 */
#define _GNU_SOURCE
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <string.h>

#include "adapters_graph.h"

#define LAYOUT(s, m, what) CUDASTUB_LAYOUT_##s##_##m##_##what

/* One descriptor: the function taking it, its sizes in 12.x and 13.x, where
 * 13's reserved words start, and whether the function maps (the external
 * memory is its second argument) rather than imports. */
static const struct descriptor {
	const char *function;
	size_t size_12, size_13, common;
	int maps;
	unsigned long out; /* what the fake returns */
} descriptors[] = {
	{"cudaImportExternalMemory", LAYOUT(cudaExternalMemoryHandleDesc, 12, SIZE),
	 LAYOUT(cudaExternalMemoryHandleDesc, 13, SIZE),
	 LAYOUT(cudaExternalMemoryHandleDesc, 13, reserved), 0, 0xe0},
	{"cudaExternalMemoryGetMappedBuffer", LAYOUT(cudaExternalMemoryBufferDesc, 12, SIZE),
	 LAYOUT(cudaExternalMemoryBufferDesc, 13, SIZE),
	 LAYOUT(cudaExternalMemoryBufferDesc, 13, reserved), 1, 0xb0},
	{"cudaExternalMemoryGetMappedMipmappedArray",
	 LAYOUT(cudaExternalMemoryMipmappedArrayDesc, 12, SIZE),
	 LAYOUT(cudaExternalMemoryMipmappedArrayDesc, 13, SIZE),
	 LAYOUT(cudaExternalMemoryMipmappedArrayDesc, 13, reserved), 1, 0x33},
	{"cudaImportExternalSemaphore", LAYOUT(cudaExternalSemaphoreHandleDesc, 12, SIZE),
	 LAYOUT(cudaExternalSemaphoreHandleDesc, 13, SIZE),
	 LAYOUT(cudaExternalSemaphoreHandleDesc, 13, reserved), 0, 0x5e},
};

typedef cudaError_t (*import_fn)(void **out, const void *desc);
typedef cudaError_t (*map_fn)(void **out, void *extMem, const void *desc);

static cudaError_t call(const struct descriptor *d, const void *desc, void **out)
{
	*out = NULL;
	if (d->maps)
		return ((map_fn)ag_stub(d->function))(out, (void *)0xe0, desc);
	return ((import_fn)ag_stub(d->function))(out, desc);
}

static const struct fake_received *received(void)
{
	return ag_fake("fake_descs_received");
}

/* The 13-ABI stub on 12.x or 11.x. */
static int descriptors_13_on_older(void)
{
	for (size_t i = 0; i < sizeof descriptors / sizeof *descriptors; i++) {
		const struct descriptor *d = &descriptors[i];
		unsigned char desc[256] = {0};
		void *out;
		int mark;

		for (size_t k = 0; k < d->common; k++)
			desc[k] = FAKE_PATTERN(k);
		mark = ag_mark();
		AG_EXPECT(call(d, desc, &out) == cudaSuccess && out == (void *)d->out);
		AG_EXPECT(ag_called_since(mark, d->function));
		/* as it is: the runtime reads its own, shorter layout */
		AG_EXPECT(received()->ptr == desc && received()->size == d->size_12);
		AG_EXPECT(ag_pattern_at(received()->bytes, 0, 0, d->common));
		desc[d->size_13 - 1] = 1; /* a reserved word the runtime has no place for */
		mark = ag_mark();
		AG_EXPECT(call(d, desc, &out) == cudaErrorNotSupported && out == NULL);
		AG_EXPECT(!ag_any_call_since(mark));
		AG_EXPECT(call(d, NULL, &out) == cudaSuccess && received()->ptr == NULL);
	}
	return ag_finish();
}

/* The 12- and 11-ABI stubs on 13: widened. */
static int descriptors_older_on_13(void)
{
	for (size_t i = 0; i < sizeof descriptors / sizeof *descriptors; i++) {
		const struct descriptor *d = &descriptors[i];
		unsigned char desc[256];
		void *out;
		int mark = ag_mark();

		for (size_t k = 0; k < d->size_12; k++) /* tail padding too */
			desc[k] = FAKE_PATTERN(k);
		AG_EXPECT(call(d, desc, &out) == cudaSuccess && out == (void *)d->out);
		AG_EXPECT(ag_called_since(mark, d->function));
		AG_EXPECT(received()->ptr != desc && received()->size == d->size_13);
		AG_EXPECT(ag_pattern_at(received()->bytes, 0, 0, d->common));
		AG_EXPECT(ag_zero_at(received()->bytes, d->common, d->size_13 - d->common));
	}
	return ag_finish();
}

/* The control: 12-ABI on 11, the same layout. */
static int descriptors_forwarded(void)
{
	const struct descriptor *d = &descriptors[0];
	unsigned char desc[256] = {0};
	void *out;

	AG_EXPECT(call(d, desc, &out) == cudaSuccess && received()->ptr == desc);
	return ag_finish();
}

static void test_13_on_older(void)
{
	ag_run(13, "12", "descriptors_13_on_older");
	ag_run(13, "11", "descriptors_13_on_older");
}

static void test_older_on_13(void)
{
	ag_run(12, "13", "descriptors_older_on_13");
	ag_run(11, "13", "descriptors_older_on_13");
	ag_run(12, "11", "descriptors_forwarded");
}

static void register_suites(void)
{
	CU_pSuite s = ag_suite("external memory descriptors");

	if (!s)
		return;
	CU_add_test(s, "13-ABI on 12 and 11: as is, reserved words zero", test_13_on_older);
	CU_add_test(s, "12- and 11-ABI on 13: widened", test_older_on_13);
}

int main(int argc, char **argv)
{
	static const struct ts_scenario scenarios[] = {
		{"descriptors_13_on_older", descriptors_13_on_older},
		{"descriptors_older_on_13", descriptors_older_on_13},
		{"descriptors_forwarded", descriptors_forwarded},
		{NULL, NULL},
	};

	return ts_main(argc, argv, scenarios, register_suites);
}

/*
 * Structs a function writes, grown by a major: cudaPointerAttributes (24
 * bytes in 11.x and 12.x, 88 in 13.x) and cudaFuncAttributes (56 bytes in
 * 11.x, 144 in 12.x and 13.x): the spec's `layout` lines;
 * stubs/cudart/layout/layout.c copies them. The caller's struct holds the
 * runtime's common fields, zeros after them, and nothing past its own size
 * is written.
 */
#define _GNU_SOURCE
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <string.h>

#include "adapters_test.h"

#define POINTER_SIZE(m) CUDASTUB_LAYOUT_cudaPointerAttributes_##m##_SIZE
/* where 12's last field ends */
#define POINTER_COMMON CUDASTUB_LAYOUT_cudaPointerAttributes_13_reserved
#define FUNC_SIZE(m)   CUDASTUB_LAYOUT_cudaFuncAttributes_##m##_SIZE
/* where 11's last field ends (then 4 bytes of padding) */
#define FUNC_COMMON CUDASTUB_LAYOUT_cudaFuncAttributes_12_clusterDimMustBeSet

typedef cudaError_t (*get_fn)(void *out, const void *what);

/* The caller's struct of size bytes: common bytes from the runtime at the
 * same offsets, zeros to size, the guard intact. */
static void get_struct(const char *name, size_t size, size_t common)
{
	get_fn get = (get_fn)ad_stub_symbol(name);
	unsigned char *out = ad_guarded(size);
	const struct fake_received *got = ad_fake_symbol("fake_props_received");
	int mark = ad_mark();

	AD_EXPECT(get(out, (void *)0x1234) == cudaSuccess);
	AD_EXPECT(ad_called_since(mark, name) && got->ptr == (void *)0x1234);
	AD_EXPECT(ad_pattern_at(out, 0, 0, common));
	AD_EXPECT(ad_zero_at(out, common, size - common));
	AD_EXPECT(ad_guard_intact(out, size));
	/* NULL goes to the runtime, which answers for itself */
	AD_EXPECT(get(NULL, (void *)0x1234) == cudaErrorInvalidValue);
}

static int pointer_13_on_older(void)
{
	get_struct("cudaPointerGetAttributes", POINTER_SIZE(13), POINTER_COMMON);
	return ad_finish();
}

static int pointer_older_on_13(void)
{
	get_struct("cudaPointerGetAttributes", POINTER_SIZE(12), POINTER_COMMON);
	return ad_finish();
}

static int func_newer_on_11(void)
{
	get_struct("cudaFuncGetAttributes", FUNC_SIZE(12), FUNC_COMMON);
	return ad_finish();
}

static int func_11_on_newer(void)
{
	get_struct("cudaFuncGetAttributes", FUNC_SIZE(11), FUNC_COMMON);
	return ad_finish();
}

/* The controls: the same layout, forwarded untouched. */
static int pointer_forwarded(void)
{
	get_struct("cudaPointerGetAttributes", POINTER_SIZE(12), POINTER_SIZE(12));
	return ad_finish();
}

static int func_forwarded(void)
{
	get_struct("cudaFuncGetAttributes", FUNC_SIZE(12), FUNC_SIZE(12));
	return ad_finish();
}

static const struct ad_case cases[] = {
	AD_TEST("cudaPointerGetAttributes: 24 and 88 bytes"),
	AD_CHECKED(13, "12", pointer_13_on_older),
	AD_CHECKED(13, "11", pointer_13_on_older),
	AD_CHECKED(12, "13", pointer_older_on_13),
	AD_CHECKED(11, "13", pointer_older_on_13),
	AD_CHECKED(12, "11", pointer_forwarded),
	AD_TEST("cudaFuncGetAttributes: 56 and 144 bytes"),
	AD_CHECKED(13, "11", func_newer_on_11),
	AD_CHECKED(12, "11", func_newer_on_11),
	AD_CHECKED(11, "12", func_11_on_newer),
	AD_CHECKED(11, "13", func_11_on_newer),
	AD_CHECKED(13, "12", func_forwarded),
	AD_END,
};

AD_MAIN("struct layouts", cases)

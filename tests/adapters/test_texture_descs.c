/*
 * Texture and surface objects (the spec's `layout cudaResourceDesc`,
 * `cudaResourceViewDesc` and `cudaTextureDesc` lines, and `same_function`
 * for 11's _v2 texture forms): cudaResourceDesc (64 bytes in 11.x/12.x, 144
 * in 13.x), cudaResourceViewDesc (48, 112) and cudaTextureDesc (68 in 11.x,
 * 72 after; 11's _v2 forms take 72), every direction, copied field by field
 * (stubs/cudart/layout/layout.c). A descriptor whose layout is the runtime's
 * reaches it as it is; a newer one reaches an older runtime narrowed when
 * its new fields are zero, and is refused otherwise; an older one reaches a
 * newer runtime widened with zeros; descriptors the runtime writes reach
 * the caller in its own layout, its padding zero, nothing past it written.
 */
#define _GNU_SOURCE
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <string.h>

#include "adapters_test.h"

#define RES(m)	     CUDASTUB_LAYOUT_cudaResourceDesc_##m##_SIZE
#define RES_FLAGS    CUDASTUB_LAYOUT_cudaResourceDesc_13_flags
#define VIEW(m)	     CUDASTUB_LAYOUT_cudaResourceViewDesc_##m##_SIZE
#define VIEW_COMMON  CUDASTUB_LAYOUT_cudaResourceViewDesc_13_reserved
#define TEX(m)	     CUDASTUB_LAYOUT_cudaTextureDesc_##m##_SIZE
#define TEX_SEAMLESS CUDASTUB_LAYOUT_cudaTextureDesc_12_seamlessCubemap
/* the generated tables of each major's layouts */
#define RES_L(m)  (&cudastub_cudart_layout_cudaResourceDesc_##m)
#define VIEW_L(m) (&cudastub_cudart_layout_cudaResourceViewDesc_##m)
#define TEX_L(m)  (&cudastub_cudart_layout_cudaTextureDesc_##m)

typedef cudaError_t (*create_texture_fn)(unsigned long long *, const void *, const void *,
					 const void *);
typedef cudaError_t (*create_surface_fn)(unsigned long long *, const void *);
typedef cudaError_t (*get_desc_fn)(void *, unsigned long long);

/* The caller's descriptors, in the stub's major's layout (given as the
 * three tables): the pattern over the fields every major has, padding and
 * the fields older majors lack zero. */
static unsigned char res[RES(13)], view[VIEW(13)], tex[TEX(12)];

static void fill_descriptors(const struct cudastub_layout *res_layout,
			     const struct cudastub_layout *view_layout,
			     const struct cudastub_layout *tex_layout)
{
	memset(res, 0, sizeof res);
	memset(view, 0, sizeof view);
	memset(tex, 0, sizeof tex);
	ad_fill_fields(res, res_layout, RES(12));
	ad_fill_fields(view, view_layout, VIEW_COMMON);
	ad_fill_fields(tex, tex_layout, TEX(11));
}

static const struct fake_received *received(int i)
{
	return &((const struct fake_received *)ad_fake_symbol("fake_descs_received"))[i];
}

/* What the fake got as argument i: the caller's pointer itself (the same
 * layout), or a copy in the runtime's layout of size bytes, holding the
 * caller's first common bytes and zeros after them (the caller's padding
 * is zero, so the fields moved at the same offsets compare as bytes). */
static void expect_as_is(int i, const void *p)
{
	AD_EXPECT(received(i)->ptr == p);
}

static void expect_copied(int i, const void *p, size_t size, size_t common)
{
	AD_EXPECT(received(i)->ptr != p && ad_received_as(received(i), p, size, common));
}

/* A descriptor the runtime wrote, in the caller's layout of size bytes:
 * forwarded (copied NULL), its pattern over the first common bytes; else
 * copied over the fields of the caller's layout `copied`, padding and what
 * lies past common zero. Nothing past size is written. */
static void get_desc(const char *name, const char *theirs, size_t size, size_t common,
		     const struct cudastub_layout *copied)
{
	unsigned char *out = ad_guarded(size);
	int mark = ad_mark();

	AD_EXPECT(((get_desc_fn)ad_stub_symbol(name))(out, 0x7e) == cudaSuccess);
	AD_EXPECT(ad_called_since(mark, theirs));
	if (copied) {
		AD_EXPECT(copied->size == size && ad_fields_at(out, copied, common));
	} else {
		AD_EXPECT(ad_pattern_at(out, 0, 0, common));
		AD_EXPECT(ad_zero_at(out, common, size - common));
	}
	AD_EXPECT(ad_guard_intact(out, size));
	AD_EXPECT(((get_desc_fn)ad_stub_symbol(name))(NULL, 0x7e) == cudaErrorInvalidValue);
}

static cudaError_t create_texture(const char *name, const void *view_or_null)
{
	unsigned long long object = 0;
	cudaError_t err =
		((create_texture_fn)ad_stub_symbol(name))(&object, res, tex, view_or_null);

	AD_EXPECT(err != cudaSuccess || object == 0x7e || object == 0x7f);
	return err;
}

/* A 13 descriptor on 12.x or 11.x: new fields zero pass, else refused. */
static void refuse_new_fields(void)
{
	unsigned long long object;
	int mark = ad_mark();

	res[RES_FLAGS] = 1;
	AD_EXPECT(create_texture("cudaCreateTextureObject", view) == cudaErrorNotSupported);
	AD_EXPECT(((create_surface_fn)ad_stub_symbol("cudaCreateSurfaceObject"))(&object, res) ==
		  cudaErrorNotSupported);
	res[RES_FLAGS] = 0;
	view[VIEW(13) - 1] = 1;
	AD_EXPECT(create_texture("cudaCreateTextureObject", view) == cudaErrorNotSupported);
	view[VIEW(13) - 1] = 0;
	AD_EXPECT(!ad_any_call_since(mark));
}

/* ---- the 13-ABI stub ---- */

static int texture_13_on_12(void)
{
	unsigned long long object;
	int mark = ad_mark();

	fill_descriptors(RES_L(13), VIEW_L(13), TEX_L(13));
	tex[TEX_SEAMLESS] = 1; /* 12 has it */
	AD_EXPECT(create_texture("cudaCreateTextureObject", view) == cudaSuccess);
	expect_copied(0, res, RES(12), RES(12));
	expect_as_is(1, tex); /* the same layout in 12 and 13 */
	expect_copied(2, view, VIEW(12), VIEW(12));
	AD_EXPECT(create_texture("cudaCreateTextureObject", NULL) == cudaSuccess);
	AD_EXPECT(received(2)->ptr == NULL);
	AD_EXPECT(((create_surface_fn)ad_stub_symbol("cudaCreateSurfaceObject"))(&object, res) ==
			  cudaSuccess &&
		  object == 0x5f);
	expect_copied(0, res, RES(12), RES(12));
	refuse_new_fields();
	get_desc("cudaGetTextureObjectResourceDesc", "cudaGetTextureObjectResourceDesc", RES(13),
		 RES(12), RES_L(13));
	get_desc("cudaGetSurfaceObjectResourceDesc", "cudaGetSurfaceObjectResourceDesc", RES(13),
		 RES(12), RES_L(13));
	get_desc("cudaGetTextureObjectResourceViewDesc", "cudaGetTextureObjectResourceViewDesc",
		 VIEW(13), VIEW_COMMON, VIEW_L(13));
	/* the same layout in 12 and 13: forwarded */
	get_desc("cudaGetTextureObjectTextureDesc", "cudaGetTextureObjectTextureDesc", TEX(13),
		 TEX(13), NULL);
	AD_EXPECT(ad_called_since(mark, "cudaCreateTextureObject"));
	return ad_finish();
}

/* 11.8 has the _v2 texture forms: a 72-byte descriptor goes there. */
static void texture_newer_on_11(const struct cudastub_layout *res_layout,
				const struct cudastub_layout *view_layout)
{
	int mark = ad_mark();

	fill_descriptors(res_layout, view_layout, TEX_L(12));
	tex[TEX_SEAMLESS] = 1;
	AD_EXPECT(create_texture("cudaCreateTextureObject", view) == cudaSuccess);
	AD_EXPECT(ad_called_since(mark, "cudaCreateTextureObject_v2"));
	AD_EXPECT(!ad_called_since(mark, "cudaCreateTextureObject"));
	expect_as_is(1, tex);
	get_desc("cudaGetTextureObjectTextureDesc", "cudaGetTextureObjectTextureDesc_v2", TEX(12),
		 TEX(12), NULL);
	AD_EXPECT(!ad_called_since(mark, "cudaGetTextureObjectTextureDesc"));
}

static int texture_13_on_11(void)
{
	texture_newer_on_11(RES_L(13), VIEW_L(13));
	expect_copied(0, res, RES(11), RES(11));
	expect_copied(2, view, VIEW(11), VIEW(11));
	refuse_new_fields();
	get_desc("cudaGetTextureObjectResourceDesc", "cudaGetTextureObjectResourceDesc", RES(13),
		 RES(12), RES_L(13));
	return ad_finish();
}

/* An 11.x without the _v2 forms: seamlessCubemap 0 or refused. */
static int texture_13_on_11_plain(void)
{
	int mark = ad_mark();

	fill_descriptors(RES_L(13), VIEW_L(13), TEX_L(13));
	tex[TEX_SEAMLESS] = 1;
	AD_EXPECT(create_texture("cudaCreateTextureObject", view) == cudaErrorNotSupported);
	AD_EXPECT(!ad_any_call_since(mark));
	tex[TEX_SEAMLESS] = 0;
	AD_EXPECT(create_texture("cudaCreateTextureObject", view) == cudaSuccess);
	AD_EXPECT(ad_called_since(mark, "cudaCreateTextureObject"));
	expect_copied(1, tex, TEX(11), TEX(11)); /* 11's 68 bytes */
	get_desc("cudaGetTextureObjectTextureDesc", "cudaGetTextureObjectTextureDesc", TEX(12),
		 TEX(11), TEX_L(13));
	return ad_finish();
}

/* ---- the 12- and 11-ABI stubs ---- */

/* Resource and view descriptors on 13: widened; written ones narrowed. */
static void resource_descs_on_13(void)
{
	unsigned long long object;
	unsigned int *flags = ad_fake_symbol("fake_descs_resource_flags");
	unsigned char *out = ad_guarded(RES(12));
	int mark;

	AD_EXPECT(create_texture("cudaCreateTextureObject", view) == cudaSuccess);
	expect_copied(0, res, RES(13), RES(12));
	expect_copied(2, view, VIEW(13), VIEW_COMMON);
	AD_EXPECT(((create_surface_fn)ad_stub_symbol("cudaCreateSurfaceObject"))(&object, res) ==
		  cudaSuccess);
	expect_copied(0, res, RES(13), RES(12));
	get_desc("cudaGetTextureObjectResourceDesc", "cudaGetTextureObjectResourceDesc", RES(12),
		 RES(12), RES_L(12));
	get_desc("cudaGetSurfaceObjectResourceDesc", "cudaGetSurfaceObjectResourceDesc", RES(12),
		 RES(12), RES_L(12));
	get_desc("cudaGetTextureObjectResourceViewDesc", "cudaGetTextureObjectResourceViewDesc",
		 VIEW(12), VIEW(12), VIEW_L(12));
	/* flags that a 12 descriptor cannot hold */
	*flags = 1;
	mark = ad_mark();
	AD_EXPECT(((get_desc_fn)ad_stub_symbol("cudaGetTextureObjectResourceDesc"))(out, 0x7e) ==
		  cudaErrorNotSupported);
	AD_EXPECT(ad_called_since(mark, "cudaGetTextureObjectResourceDesc"));
	AD_EXPECT(ad_guard_intact(out, 0));
	*flags = 0;
}

static int texture_12_on_13(void)
{
	fill_descriptors(RES_L(12), VIEW_L(12), TEX_L(12));
	tex[TEX_SEAMLESS] = 1;
	resource_descs_on_13();
	expect_as_is(1, tex); /* 72 bytes in both */
	return ad_finish();
}

static int texture_12_on_11(void)
{
	unsigned long long object;

	texture_newer_on_11(RES_L(12), VIEW_L(12));
	/* the resource descriptors have the same layout in 11 and 12 */
	expect_as_is(0, res);
	expect_as_is(2, view);
	AD_EXPECT(((create_surface_fn)ad_stub_symbol("cudaCreateSurfaceObject"))(&object, res) ==
		  cudaSuccess);
	expect_as_is(0, res);
	get_desc("cudaGetSurfaceObjectResourceDesc", "cudaGetSurfaceObjectResourceDesc", RES(12),
		 RES(12), NULL);
	return ad_finish();
}

/* 11's 68-byte texture descriptor on 12.x and 13.x: widened, and read
 * back narrowed (losing seamlessCubemap, as 11's own plain getter does). */
static void texture_desc_11_on_newer(void)
{
	AD_EXPECT(create_texture("cudaCreateTextureObject", view) == cudaSuccess);
	expect_copied(1, tex, TEX(12), TEX(11));
	get_desc("cudaGetTextureObjectTextureDesc", "cudaGetTextureObjectTextureDesc", TEX(11),
		 TEX(11), TEX_L(11));
}

/* 11's _v2 forms on 12.x and 13.x: their plain names. */
static void texture_v2_11_on_newer(void)
{
	int mark = ad_mark();

	tex[TEX_SEAMLESS] = 1;
	AD_EXPECT(create_texture("cudaCreateTextureObject_v2", view) == cudaSuccess);
	AD_EXPECT(ad_called_since(mark, "cudaCreateTextureObject"));
	expect_as_is(1, tex);
	get_desc("cudaGetTextureObjectTextureDesc_v2", "cudaGetTextureObjectTextureDesc", TEX(12),
		 TEX(12), NULL);
}

static int texture_11_on_12(void)
{
	fill_descriptors(RES_L(11), VIEW_L(11), TEX_L(11));
	texture_desc_11_on_newer();
	expect_as_is(0, res);
	expect_as_is(2, view);
	texture_v2_11_on_newer();
	expect_as_is(0, res);
	return ad_finish();
}

static int texture_11_on_13(void)
{
	fill_descriptors(RES_L(11), VIEW_L(11), TEX_L(11));
	texture_desc_11_on_newer();
	resource_descs_on_13();
	texture_v2_11_on_newer();
	expect_copied(0, res, RES(13), RES(12));
	return ad_finish();
}

static const struct ad_case cases[] = {
	AD_TEST("13-ABI on 12, 11 and an 11 without _v2"),
	AD_CHECKED(13, "12", texture_13_on_12),
	AD_CHECKED(13, "11", texture_13_on_11),
	AD_CHECKED(13, "11-plain", texture_13_on_11_plain),
	AD_TEST("12-ABI on 13 and 11"),
	AD_CHECKED(12, "13", texture_12_on_13),
	AD_CHECKED(12, "11", texture_12_on_11),
	AD_TEST("11-ABI (and its _v2 forms) on 12 and 13"),
	AD_CHECKED(11, "12", texture_11_on_12),
	AD_CHECKED(11, "13", texture_11_on_13),
	AD_END,
};

AD_MAIN("texture and surface descriptors", cases)

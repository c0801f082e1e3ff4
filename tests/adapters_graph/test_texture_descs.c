/*
 * Texture and surface objects (stubs/cudart/adapt_texture_descs.c):
 * cudaResourceDesc (64 bytes in 11.x/12.x, 144 in 13.x), cudaResourceViewDesc
 * (48, 112) and cudaTextureDesc (68 in 11.x, 72 after; 11's _v2 forms take
 * 72), every direction. A newer descriptor reaches an older runtime as it
 * is when its new fields are zero, and is refused otherwise; an older one
 * reaches a newer runtime widened with zeros; descriptors the runtime
 * writes reach the caller in its own layout, nothing past it written.
 */
#define _GNU_SOURCE
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <string.h>

#include "adapters_graph.h"

#define RES(m)	     CUDASTUB_LAYOUT_cudaResourceDesc_##m##_SIZE
#define RES_FLAGS    CUDASTUB_LAYOUT_cudaResourceDesc_13_flags
#define VIEW(m)	     CUDASTUB_LAYOUT_cudaResourceViewDesc_##m##_SIZE
#define VIEW_COMMON  CUDASTUB_LAYOUT_cudaResourceViewDesc_13_reserved
#define TEX(m)	     CUDASTUB_LAYOUT_cudaTextureDesc_##m##_SIZE
#define TEX_SEAMLESS CUDASTUB_LAYOUT_cudaTextureDesc_12_seamlessCubemap

typedef cudaError_t (*create_texture_fn)(unsigned long long *, const void *, const void *,
					 const void *);
typedef cudaError_t (*create_surface_fn)(unsigned long long *, const void *);
typedef cudaError_t (*get_desc_fn)(void *, unsigned long long);

/* The caller's descriptors, in the stub's major's layout: the pattern over
 * the fields, the fields the older majors lack zero. */
static unsigned char res[RES(13)], view[VIEW(13)], tex[TEX(12)];

static void fill_descriptors(void)
{
	memset(res, 0, sizeof res);
	memset(view, 0, sizeof view);
	memset(tex, 0, sizeof tex);
	for (size_t k = 0; k < RES(12); k++)
		res[k] = FAKE_PATTERN(k);
	for (size_t k = 0; k < VIEW_COMMON; k++)
		view[k] = FAKE_PATTERN(k);
	for (size_t k = 0; k < TEX(11); k++)
		tex[k] = FAKE_PATTERN(k);
}

static const struct fake_received *received(int i)
{
	return &((const struct fake_received *)ag_fake("fake_descs_received"))[i];
}

/* What the fake got as argument i: the caller's pointer itself, or a copy
 * of size bytes holding the caller's common bytes and zeros after them. */
static void expect_as_is(int i, const void *p)
{
	AG_EXPECT(received(i)->ptr == p);
}

static void expect_widened(int i, const void *p, size_t size, size_t common)
{
	AG_EXPECT(received(i)->ptr != p && received(i)->size == size);
	AG_EXPECT(ag_pattern_at(received(i)->bytes, 0, 0, common));
	AG_EXPECT(ag_zero_at(received(i)->bytes, common, size - common));
}

/* A descriptor the runtime wrote: common bytes of its pattern, zeros to
 * size, nothing past it. */
static void get_desc(const char *name, const char *theirs, size_t size, size_t common)
{
	unsigned char *out = ag_guarded(size);
	int mark = ag_mark();

	AG_EXPECT(((get_desc_fn)ag_stub(name))(out, 0x7e) == cudaSuccess);
	AG_EXPECT(ag_called_since(mark, theirs));
	AG_EXPECT(ag_pattern_at(out, 0, 0, common));
	AG_EXPECT(ag_zero_at(out, common, size - common));
	AG_EXPECT(ag_guard_intact(out, size));
	AG_EXPECT(((get_desc_fn)ag_stub(name))(NULL, 0x7e) == cudaErrorInvalidValue);
}

static cudaError_t create_texture(const char *name, const void *view_or_null)
{
	unsigned long long object = 0;
	cudaError_t err = ((create_texture_fn)ag_stub(name))(&object, res, tex, view_or_null);

	AG_EXPECT(err != cudaSuccess || object == 0x7e || object == 0x7f);
	return err;
}

/* A 13 descriptor on 12.x or 11.x: new fields zero pass, else refused. */
static void refuse_new_fields(void)
{
	unsigned long long object;
	int mark = ag_mark();

	res[RES_FLAGS] = 1;
	AG_EXPECT(create_texture("cudaCreateTextureObject", view) == cudaErrorNotSupported);
	AG_EXPECT(((create_surface_fn)ag_stub("cudaCreateSurfaceObject"))(&object, res) ==
		  cudaErrorNotSupported);
	res[RES_FLAGS] = 0;
	view[VIEW(13) - 1] = 1;
	AG_EXPECT(create_texture("cudaCreateTextureObject", view) == cudaErrorNotSupported);
	view[VIEW(13) - 1] = 0;
	AG_EXPECT(!ag_any_call_since(mark));
}

/* ---- the 13-ABI stub ---- */

static int texture_13_on_12(void)
{
	unsigned long long object;
	int mark = ag_mark();

	fill_descriptors();
	tex[TEX_SEAMLESS] = 1; /* 12 has it */
	AG_EXPECT(create_texture("cudaCreateTextureObject", view) == cudaSuccess);
	expect_as_is(0, res);
	expect_as_is(1, tex);
	expect_as_is(2, view);
	AG_EXPECT(create_texture("cudaCreateTextureObject", NULL) == cudaSuccess);
	AG_EXPECT(received(2)->ptr == NULL);
	AG_EXPECT(((create_surface_fn)ag_stub("cudaCreateSurfaceObject"))(&object, res) ==
			  cudaSuccess &&
		  object == 0x5f);
	expect_as_is(0, res);
	refuse_new_fields();
	get_desc("cudaGetTextureObjectResourceDesc", "cudaGetTextureObjectResourceDesc", RES(13),
		 RES(12));
	get_desc("cudaGetSurfaceObjectResourceDesc", "cudaGetSurfaceObjectResourceDesc", RES(13),
		 RES(12));
	get_desc("cudaGetTextureObjectResourceViewDesc", "cudaGetTextureObjectResourceViewDesc",
		 VIEW(13), VIEW_COMMON);
	/* the same layout in 12 and 13: forwarded */
	get_desc("cudaGetTextureObjectTextureDesc", "cudaGetTextureObjectTextureDesc", TEX(13),
		 TEX(13));
	AG_EXPECT(ag_called_since(mark, "cudaCreateTextureObject"));
	return ag_finish();
}

/* 11.8 has the _v2 texture forms: a 72-byte descriptor goes there. */
static void texture_newer_on_11(void)
{
	int mark = ag_mark();

	fill_descriptors();
	tex[TEX_SEAMLESS] = 1;
	AG_EXPECT(create_texture("cudaCreateTextureObject", view) == cudaSuccess);
	AG_EXPECT(ag_called_since(mark, "cudaCreateTextureObject_v2"));
	AG_EXPECT(!ag_called_since(mark, "cudaCreateTextureObject"));
	expect_as_is(1, tex);
	get_desc("cudaGetTextureObjectTextureDesc", "cudaGetTextureObjectTextureDesc_v2", TEX(12),
		 TEX(12));
	AG_EXPECT(!ag_called_since(mark, "cudaGetTextureObjectTextureDesc"));
}

static int texture_13_on_11(void)
{
	texture_newer_on_11();
	expect_as_is(0, res);
	expect_as_is(2, view);
	refuse_new_fields();
	get_desc("cudaGetTextureObjectResourceDesc", "cudaGetTextureObjectResourceDesc", RES(13),
		 RES(12));
	return ag_finish();
}

/* An 11.x without the _v2 forms: seamlessCubemap 0 or refused. */
static int texture_13_on_11_plain(void)
{
	int mark = ag_mark();

	fill_descriptors();
	tex[TEX_SEAMLESS] = 1;
	AG_EXPECT(create_texture("cudaCreateTextureObject", view) == cudaErrorNotSupported);
	AG_EXPECT(!ag_any_call_since(mark));
	tex[TEX_SEAMLESS] = 0;
	AG_EXPECT(create_texture("cudaCreateTextureObject", view) == cudaSuccess);
	AG_EXPECT(ag_called_since(mark, "cudaCreateTextureObject"));
	expect_as_is(1, tex); /* 11 reads its 68-byte prefix */
	get_desc("cudaGetTextureObjectTextureDesc", "cudaGetTextureObjectTextureDesc", TEX(12),
		 TEX(11));
	return ag_finish();
}

/* ---- the 12- and 11-ABI stubs ---- */

/* Resource and view descriptors on 13: widened; written ones narrowed. */
static void resource_descs_on_13(void)
{
	unsigned long long object;
	unsigned int *flags = ag_fake("fake_descs_resource_flags");
	unsigned char *out = ag_guarded(RES(12));
	int mark;

	AG_EXPECT(create_texture("cudaCreateTextureObject", view) == cudaSuccess);
	expect_widened(0, res, RES(13), RES(12));
	expect_widened(2, view, VIEW(13), VIEW_COMMON);
	AG_EXPECT(((create_surface_fn)ag_stub("cudaCreateSurfaceObject"))(&object, res) ==
		  cudaSuccess);
	expect_widened(0, res, RES(13), RES(12));
	get_desc("cudaGetTextureObjectResourceDesc", "cudaGetTextureObjectResourceDesc", RES(12),
		 RES(12));
	get_desc("cudaGetSurfaceObjectResourceDesc", "cudaGetSurfaceObjectResourceDesc", RES(12),
		 RES(12));
	get_desc("cudaGetTextureObjectResourceViewDesc", "cudaGetTextureObjectResourceViewDesc",
		 VIEW(12), VIEW(12));
	/* flags that a 12 descriptor cannot hold */
	*flags = 1;
	mark = ag_mark();
	AG_EXPECT(((get_desc_fn)ag_stub("cudaGetTextureObjectResourceDesc"))(out, 0x7e) ==
		  cudaErrorNotSupported);
	AG_EXPECT(ag_called_since(mark, "cudaGetTextureObjectResourceDesc"));
	AG_EXPECT(ag_guard_intact(out, 0));
	*flags = 0;
}

static int texture_12_on_13(void)
{
	fill_descriptors();
	tex[TEX_SEAMLESS] = 1;
	resource_descs_on_13();
	expect_as_is(1, tex); /* 72 bytes in both */
	return ag_finish();
}

static int texture_12_on_11(void)
{
	unsigned long long object;

	texture_newer_on_11();
	/* the resource descriptors have the same layout in 11 and 12 */
	expect_as_is(0, res);
	expect_as_is(2, view);
	AG_EXPECT(((create_surface_fn)ag_stub("cudaCreateSurfaceObject"))(&object, res) ==
		  cudaSuccess);
	expect_as_is(0, res);
	get_desc("cudaGetSurfaceObjectResourceDesc", "cudaGetSurfaceObjectResourceDesc", RES(12),
		 RES(12));
	return ag_finish();
}

/* 11's 68-byte texture descriptor on 12.x and 13.x: widened, and read
 * back narrowed (losing seamlessCubemap, as 11's own plain getter does). */
static void texture_desc_11_on_newer(void)
{
	AG_EXPECT(create_texture("cudaCreateTextureObject", view) == cudaSuccess);
	expect_widened(1, tex, TEX(12), TEX(11));
	get_desc("cudaGetTextureObjectTextureDesc", "cudaGetTextureObjectTextureDesc", TEX(11),
		 TEX(11));
}

/* 11's _v2 forms on 12.x and 13.x: their plain names. */
static void texture_v2_11_on_newer(void)
{
	int mark = ag_mark();

	tex[TEX_SEAMLESS] = 1;
	AG_EXPECT(create_texture("cudaCreateTextureObject_v2", view) == cudaSuccess);
	AG_EXPECT(ag_called_since(mark, "cudaCreateTextureObject"));
	expect_as_is(1, tex);
	get_desc("cudaGetTextureObjectTextureDesc_v2", "cudaGetTextureObjectTextureDesc", TEX(12),
		 TEX(12));
}

static int texture_11_on_12(void)
{
	fill_descriptors();
	texture_desc_11_on_newer();
	expect_as_is(0, res);
	expect_as_is(2, view);
	texture_v2_11_on_newer();
	expect_as_is(0, res);
	return ag_finish();
}

static int texture_11_on_13(void)
{
	fill_descriptors();
	texture_desc_11_on_newer();
	resource_descs_on_13();
	texture_v2_11_on_newer();
	expect_widened(0, res, RES(13), RES(12));
	return ag_finish();
}

static void test_13(void)
{
	ag_run(13, "12", "texture_13_on_12");
	ag_run(13, "11", "texture_13_on_11");
	ag_run(13, "11-plain", "texture_13_on_11_plain");
}

static void test_12(void)
{
	ag_run(12, "13", "texture_12_on_13");
	ag_run(12, "11", "texture_12_on_11");
}

static void test_11(void)
{
	ag_run(11, "12", "texture_11_on_12");
	ag_run(11, "13", "texture_11_on_13");
}

static void register_suites(void)
{
	CU_pSuite s = ag_suite("texture and surface descriptors");

	if (!s)
		return;
	CU_add_test(s, "13-ABI on 12, 11 and an 11 without _v2", test_13);
	CU_add_test(s, "12-ABI on 13 and 11", test_12);
	CU_add_test(s, "11-ABI (and its _v2 forms) on 12 and 13", test_11);
}

int main(int argc, char **argv)
{
	static const struct ts_scenario scenarios[] = {
		{"texture_13_on_12", texture_13_on_12},
		{"texture_13_on_11", texture_13_on_11},
		{"texture_13_on_11_plain", texture_13_on_11_plain},
		{"texture_12_on_13", texture_12_on_13},
		{"texture_12_on_11", texture_12_on_11},
		{"texture_11_on_12", texture_11_on_12},
		{"texture_11_on_13", texture_11_on_13},
		{NULL, NULL},
	};

	return ts_main(argc, argv, scenarios, register_suites);
}

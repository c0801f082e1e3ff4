/*
 * Texture and surface objects: three descriptors changed layout.
 *
 *   all majors:
 *   cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
 *           const struct cudaResourceDesc *pResDesc, const struct cudaTextureDesc *pTexDesc,
 *           const struct cudaResourceViewDesc *pResViewDesc);
 *   cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
 *           const struct cudaResourceDesc *pResDesc);
 *   cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc,
 *           cudaTextureObject_t texObject);
 *   cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc,
 *           cudaSurfaceObject_t surfObject);
 *   cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc,
 *           cudaTextureObject_t texObject);
 *   cudaError_t cudaGetTextureObjectResourceViewDesc(struct cudaResourceViewDesc *pResViewDesc,
 *           cudaTextureObject_t texObject);
 *   11.x only: cudaCreateTextureObject_v2 and cudaGetTextureObjectTextureDesc_v2, the same
 *           with struct cudaTextureDesc_v2 (12's cudaTextureDesc under another name)
 *
 *   cudaResourceDesc      11.x/12.x 64 bytes {resType; union res (56)}
 *                         13.x 144: the union grew to 128 (a reserved member) and
 *                         unsigned int flags ("must be zero") follows at 136
 *   cudaResourceViewDesc  11.x/12.x 48 bytes; 13.x 112, unsigned int reserved[16] at 48
 *   cudaTextureDesc       11.x 68 bytes; 12.x/13.x (and 11's _v2) 72, int seamlessCubemap at 68
 *
 * The rule. Descriptors the caller gives: an older runtime reads its own
 * layout, which is a prefix of the newer one, so a newer descriptor is
 * passed as it is once the fields the older runtime lacks are checked to be
 * zero (flags, reserved, seamlessCubemap); a non-zero one is refused with
 * cudaErrorNotSupported and nothing is called. On 11.x a 72-byte texture
 * descriptor goes to cudaCreateTextureObject_v2 where 11.x exports it, which
 * reads seamlessCubemap. An older descriptor given to a newer runtime is
 * copied into the newer layout on the stack with the new fields zero.
 * Descriptors the runtime writes: it fills its own layout on the stack and
 * the common fields are copied into the caller's, whose newer fields are
 * zeroed. A 13.x resource descriptor with non-zero flags cannot be
 * represented in 12's: cudaErrorNotSupported. A 12.x texture descriptor read
 * through 11's plain getter loses seamlessCubemap, as 11's own plain getter
 * drops it. NULL pointers go to the runtime as NULL. Where the stub's and
 * the runtime's layouts agree for a function (the resource descriptors in
 * 11.x and 12.x), the runtime's function as it is.
 */
#define _GNU_SOURCE
#include <stdatomic.h>

#include "adapt_loaded.h"
#include "adapt_struct_copy.h"
#include "cudart_layouts.h"

/* 11.x and 12.x; then 13.x. The union is bytes here: each resType's member
 * is copied whole, and 12's members all fit in the first 56 bytes of 13's. */
struct cudaResourceDesc_12 {
	enum cudaResourceType resType;
	union {
		void *align;
		unsigned char bytes[56];
	} res;
};
struct cudaResourceDesc_13 {
	enum cudaResourceType resType;
	union {
		void *align;
		unsigned char bytes[128];
	} res;
	unsigned int flags;
};
struct cudaResourceViewDesc_12 {
	enum cudaResourceViewFormat format;
	size_t width;
	size_t height;
	size_t depth;
	unsigned int firstMipmapLevel;
	unsigned int lastMipmapLevel;
	unsigned int firstLayer;
	unsigned int lastLayer;
};
struct cudaResourceViewDesc_13 {
	enum cudaResourceViewFormat format;
	size_t width;
	size_t height;
	size_t depth;
	unsigned int firstMipmapLevel;
	unsigned int lastMipmapLevel;
	unsigned int firstLayer;
	unsigned int lastLayer;
	unsigned int reserved[16];
};
/* 11.x; then 12.x and 13.x, and 11's cudaTextureDesc_v2 */
struct cudaTextureDesc_11 {
	enum cudaTextureAddressMode addressMode[3];
	enum cudaTextureFilterMode filterMode;
	enum cudaTextureReadMode readMode;
	int sRGB;
	float borderColor[4];
	int normalizedCoords;
	unsigned int maxAnisotropy;
	enum cudaTextureFilterMode mipmapFilterMode;
	float mipmapLevelBias;
	float minMipmapLevelClamp;
	float maxMipmapLevelClamp;
	int disableTrilinearOptimization;
};
struct cudaTextureDesc_12 {
	enum cudaTextureAddressMode addressMode[3];
	enum cudaTextureFilterMode filterMode;
	enum cudaTextureReadMode readMode;
	int sRGB;
	float borderColor[4];
	int normalizedCoords;
	unsigned int maxAnisotropy;
	enum cudaTextureFilterMode mipmapFilterMode;
	float mipmapLevelBias;
	float minMipmapLevelClamp;
	float maxMipmapLevelClamp;
	int disableTrilinearOptimization;
	int seamlessCubemap;
};

#define CHECK(s, m, layout, f)                                                                     \
	_Static_assert(offsetof(struct s##_##layout, f) == CUDASTUB_LAYOUT_##s##_##m##_##f,        \
		       #s "." #f)
#define SIZE(s, m, layout)                                                                         \
	_Static_assert(sizeof(struct s##_##layout) == CUDASTUB_LAYOUT_##s##_##m##_SIZE, #s)
SIZE(cudaResourceDesc, 11, 12);
CHECK(cudaResourceDesc, 11, 12, resType);
CHECK(cudaResourceDesc, 11, 12, res);
SIZE(cudaResourceDesc, 12, 12);
CHECK(cudaResourceDesc, 12, 12, resType);
CHECK(cudaResourceDesc, 12, 12, res);
SIZE(cudaResourceDesc, 13, 13);
CHECK(cudaResourceDesc, 13, 13, resType);
CHECK(cudaResourceDesc, 13, 13, res);
CHECK(cudaResourceDesc, 13, 13, flags);
#define CHECK_VIEW(m, layout)                                                                      \
	SIZE(cudaResourceViewDesc, m, layout);                                                     \
	CHECK(cudaResourceViewDesc, m, layout, format);                                            \
	CHECK(cudaResourceViewDesc, m, layout, width);                                             \
	CHECK(cudaResourceViewDesc, m, layout, height);                                            \
	CHECK(cudaResourceViewDesc, m, layout, depth);                                             \
	CHECK(cudaResourceViewDesc, m, layout, firstMipmapLevel);                                  \
	CHECK(cudaResourceViewDesc, m, layout, lastMipmapLevel);                                   \
	CHECK(cudaResourceViewDesc, m, layout, firstLayer);                                        \
	CHECK(cudaResourceViewDesc, m, layout, lastLayer)
CHECK_VIEW(11, 12);
CHECK_VIEW(12, 12);
CHECK_VIEW(13, 13);
CHECK(cudaResourceViewDesc, 13, 13, reserved);
#define CHECK_TEXTURE(m, layout)                                                                   \
	SIZE(cudaTextureDesc, m, layout);                                                          \
	CHECK(cudaTextureDesc, m, layout, addressMode);                                            \
	CHECK(cudaTextureDesc, m, layout, filterMode);                                             \
	CHECK(cudaTextureDesc, m, layout, readMode);                                               \
	CHECK(cudaTextureDesc, m, layout, sRGB);                                                   \
	CHECK(cudaTextureDesc, m, layout, borderColor);                                            \
	CHECK(cudaTextureDesc, m, layout, normalizedCoords);                                       \
	CHECK(cudaTextureDesc, m, layout, maxAnisotropy);                                          \
	CHECK(cudaTextureDesc, m, layout, mipmapFilterMode);                                       \
	CHECK(cudaTextureDesc, m, layout, mipmapLevelBias);                                        \
	CHECK(cudaTextureDesc, m, layout, minMipmapLevelClamp);                                    \
	CHECK(cudaTextureDesc, m, layout, maxMipmapLevelClamp);                                    \
	CHECK(cudaTextureDesc, m, layout, disableTrilinearOptimization)
/* 11's cudaTextureDesc_v2 against 12's layout */
#define CHECK_V2(m, layout, f)                                                                     \
	_Static_assert(offsetof(struct cudaTextureDesc_##layout, f) ==                             \
			       CUDASTUB_LAYOUT_cudaTextureDesc_v2_##m##_##f,                       \
		       "cudaTextureDesc_v2." #f)
#define CHECK_TEXTURE_V2(m, layout)                                                                \
	_Static_assert(sizeof(struct cudaTextureDesc_##layout) ==                                  \
			       CUDASTUB_LAYOUT_cudaTextureDesc_v2_##m##_SIZE,                      \
		       "cudaTextureDesc_v2");                                                      \
	CHECK_V2(m, layout, addressMode);                                                          \
	CHECK_V2(m, layout, filterMode);                                                           \
	CHECK_V2(m, layout, readMode);                                                             \
	CHECK_V2(m, layout, sRGB);                                                                 \
	CHECK_V2(m, layout, borderColor);                                                          \
	CHECK_V2(m, layout, normalizedCoords);                                                     \
	CHECK_V2(m, layout, maxAnisotropy);                                                        \
	CHECK_V2(m, layout, mipmapFilterMode);                                                     \
	CHECK_V2(m, layout, mipmapLevelBias);                                                      \
	CHECK_V2(m, layout, minMipmapLevelClamp);                                                  \
	CHECK_V2(m, layout, maxMipmapLevelClamp);                                                  \
	CHECK_V2(m, layout, disableTrilinearOptimization)
CHECK_TEXTURE(11, 11);
CHECK_TEXTURE(12, 12);
CHECK(cudaTextureDesc, 12, 12, seamlessCubemap);
CHECK_TEXTURE(13, 12);
CHECK(cudaTextureDesc, 13, 12, seamlessCubemap);
CHECK_TEXTURE_V2(11, 12);
CHECK_V2(11, 12, seamlessCubemap);
#undef CHECK_TEXTURE
#undef CHECK_TEXTURE_V2
#undef CHECK_V2
#undef CHECK_VIEW
#undef SIZE
#undef CHECK

/* Where the older layout's fields end, in the newer one. */
#define RESOURCE_DESC_COMMON sizeof(struct cudaResourceDesc_12)
#define VIEW_DESC_COMMON     offsetof(struct cudaResourceViewDesc_13, reserved)
#define TEXTURE_DESC_COMMON  offsetof(struct cudaTextureDesc_12, seamlessCubemap)

union resource_desc_any {
	struct cudaResourceDesc_12 r12;
	struct cudaResourceDesc_13 r13;
};
union view_desc_any {
	struct cudaResourceViewDesc_12 v12;
	struct cudaResourceViewDesc_13 v13;
};
union texture_desc_any {
	struct cudaTextureDesc_11 t11;
	struct cudaTextureDesc_12 t12;
};

/* Which descriptors the stub's major and the runtime's lay out otherwise. */
static int resource_layouts_differ(int major)
{
	return (major == 13) != (CUDASTUB_ABI_MAJOR == 13);
}

static int texture_layouts_differ(int major)
{
	return (major == 11) != (CUDASTUB_ABI_MAJOR == 11);
}

/* The runtime's functions, as it declares them, descriptors by pointer. */
typedef cudaError_t (*runtime_create_texture_fn)(cudaTextureObject_t *, const void *res,
						 const void *tex, const void *view);
typedef cudaError_t (*runtime_create_surface_fn)(cudaSurfaceObject_t *, const void *res);
typedef cudaError_t (*runtime_get_desc_fn)(void *desc, unsigned long long object);

static _Atomic(void *) runtime_create_texture_object;
static _Atomic(void *) runtime_create_texture_object_v2; /* 11.x's, or NULL */
static _Atomic(void *) runtime_create_surface_object;
static _Atomic(void *) runtime_get_texture_resource_desc;
static _Atomic(void *) runtime_get_surface_resource_desc;
static _Atomic(void *) runtime_get_texture_desc;
static _Atomic(void *) runtime_get_view_desc;

/* ---- descriptors the caller gives, in the runtime's layout ---- */

/* The caller's resource descriptor for the runtime: itself, or a widened
 * copy in buf; NULL with *refused set when 13's flags are not zero. */
static const void *resource_desc_for_runtime(const void *desc, union resource_desc_any *buf,
					     int *refused)
{
	int major = adapt_loaded_major();

	*refused = 0;
	if (!desc || !resource_layouts_differ(major))
		return desc;
	if (major == 13) {
		struct_copy_prefix(buf, sizeof buf->r13, desc, RESOURCE_DESC_COMMON);
		return buf;
	}
	*refused = !struct_bytes_are_zero(desc, offsetof(struct cudaResourceDesc_13, flags),
					  sizeof(struct cudaResourceDesc_13));
	return *refused ? NULL : desc;
}

static const void *view_desc_for_runtime(const void *desc, union view_desc_any *buf, int *refused)
{
	int major = adapt_loaded_major();

	*refused = 0;
	if (!desc || !resource_layouts_differ(major))
		return desc;
	if (major == 13) {
		struct_copy_prefix(buf, sizeof buf->v13, desc, VIEW_DESC_COMMON);
		return buf;
	}
	*refused = !struct_bytes_are_zero(desc, VIEW_DESC_COMMON,
					  sizeof(struct cudaResourceViewDesc_13));
	return *refused ? NULL : desc;
}

/* The texture descriptor for the runtime, and the function to create with:
 * on 11.x a 72-byte descriptor goes to _v2 where there is one, else to the
 * plain form only when seamlessCubemap is 0. */
static const void *texture_desc_for_runtime(const void *desc, union texture_desc_any *buf,
					    runtime_create_texture_fn *create, int *refused)
{
	int major = adapt_loaded_major();
	void *v2 = adapt_slot_function(&runtime_create_texture_object_v2);

	*refused = 0;
	*(void **)create = adapt_slot_function(&runtime_create_texture_object);
	if (!desc || !texture_layouts_differ(major))
		return desc;
	if (major != 11) {
		struct_copy_prefix(buf, sizeof buf->t12, desc, TEXTURE_DESC_COMMON);
		return buf;
	}
	if (v2) {
		*(void **)create = v2;
		return desc;
	}
	*refused = !struct_bytes_are_zero(desc, TEXTURE_DESC_COMMON,
					  sizeof(struct cudaTextureDesc_12));
	return *refused ? NULL : desc;
}

static cudaError_t create_texture_object_any(cudaTextureObject_t *pTexObject, const void *res,
					     const void *tex, const void *view)
{
	union resource_desc_any res_buf;
	union view_desc_any view_buf;
	union texture_desc_any tex_buf;
	runtime_create_texture_fn create;
	int refused_res, refused_view, refused_tex;

	res = resource_desc_for_runtime(res, &res_buf, &refused_res);
	view = view_desc_for_runtime(view, &view_buf, &refused_view);
	tex = texture_desc_for_runtime(tex, &tex_buf, &create, &refused_tex);
	if (refused_res || refused_view || refused_tex)
		return cudaErrorNotSupported;
	return create(pTexObject, res, tex, view);
}

static cudaError_t create_texture_object_translated(cudaTextureObject_t *pTexObject,
						    const struct cudaResourceDesc *pResDesc,
						    const struct cudaTextureDesc *pTexDesc,
						    const struct cudaResourceViewDesc *pResViewDesc)
{
	return create_texture_object_any(pTexObject, pResDesc, pTexDesc, pResViewDesc);
}

static cudaError_t create_surface_object_translated(cudaSurfaceObject_t *pSurfObject,
						    const struct cudaResourceDesc *pResDesc)
{
	union resource_desc_any res_buf;
	runtime_create_surface_fn create;
	const void *res;
	int refused;

	res = resource_desc_for_runtime(pResDesc, &res_buf, &refused);
	if (refused)
		return cudaErrorNotSupported;
	*(void **)&create = adapt_slot_function(&runtime_create_surface_object);
	return create(pSurfObject, res);
}

/* ---- descriptors the runtime writes, into the caller's layout ---- */

static cudaError_t get_resource_desc_any(_Atomic(void *) *slot, struct cudaResourceDesc *pResDesc,
					 unsigned long long object)
{
	union resource_desc_any theirs;
	runtime_get_desc_fn get;
	cudaError_t err;

	*(void **)&get = adapt_slot_function(slot);
	if (!pResDesc)
		return get(NULL, object);
	err = get(&theirs, object);
	if (err != cudaSuccess)
		return err;
	if (adapt_loaded_major() == 13 && theirs.r13.flags != 0)
		return cudaErrorNotSupported; /* 12's layout has no flags */
	struct_copy_prefix(pResDesc, sizeof(struct cudaResourceDesc), &theirs,
			   RESOURCE_DESC_COMMON);
	return cudaSuccess;
}

static cudaError_t get_texture_resource_desc_translated(struct cudaResourceDesc *pResDesc,
							cudaTextureObject_t texObject)
{
	return get_resource_desc_any(&runtime_get_texture_resource_desc, pResDesc, texObject);
}

static cudaError_t get_surface_resource_desc_translated(struct cudaResourceDesc *pResDesc,
							cudaSurfaceObject_t surfObject)
{
	return get_resource_desc_any(&runtime_get_surface_resource_desc, pResDesc, surfObject);
}

static cudaError_t get_view_desc_translated(struct cudaResourceViewDesc *pResViewDesc,
					    cudaTextureObject_t texObject)
{
	union view_desc_any theirs;
	runtime_get_desc_fn get;
	cudaError_t err;

	*(void **)&get = adapt_slot_function(&runtime_get_view_desc);
	if (!pResViewDesc)
		return get(NULL, texObject);
	err = get(&theirs, texObject);
	if (err == cudaSuccess)
		struct_copy_prefix(pResViewDesc, sizeof(struct cudaResourceViewDesc), &theirs,
				   VIEW_DESC_COMMON);
	return err;
}

static cudaError_t get_texture_desc_translated(struct cudaTextureDesc *pTexDesc,
					       cudaTextureObject_t texObject)
{
	union texture_desc_any theirs;
	runtime_get_desc_fn get;
	cudaError_t err;

	*(void **)&get = adapt_slot_function(&runtime_get_texture_desc);
	if (!pTexDesc)
		return get(NULL, texObject);
	err = get(&theirs, texObject);
	if (err == cudaSuccess)
		struct_copy_prefix(pTexDesc, sizeof(struct cudaTextureDesc), &theirs,
				   TEXTURE_DESC_COMMON);
	return err;
}

/* ---- the stub's entry points ---- */

/* For the loaded major: the translator, its target (the runtime's name)
 * stored in slot, when differ says the layouts differ; the runtime's name as
 * it is when they agree (11.x and 12.x resource descriptors, which the
 * generator gates only because their anonymous unions are named after the
 * header they were read from); NULL for a major the stub does not know. */
static void *translate_to(int (*differ)(int), const char *name, _Atomic(void *) *slot,
			  void *translator)
{
	return adapt_translate_if_differs(differ, name, slot, translator, "descriptors translated");
}

static int any_layout_differs(int major)
{
	return resource_layouts_differ(major) || texture_layouts_differ(major);
}

static void *create_texture_object_adapter(void *translator)
{
	/* 11.x's _v2 reads a 72-byte texture descriptor (11.x minors that
	 * export it; NULL otherwise) */
	if (adapt_loaded_major() == 11)
		atomic_store_explicit(&runtime_create_texture_object_v2,
				      adapt_loaded_symbol("cudaCreateTextureObject_v2"),
				      memory_order_release);
	return translate_to(any_layout_differs, "cudaCreateTextureObject",
			    &runtime_create_texture_object, translator);
}

cudaCreateTextureObject_fn cudastub_cudart_adapt_cudaCreateTextureObject(void)
{
	cudaCreateTextureObject_fn fn;

	*(void **)&fn = create_texture_object_adapter((void *)create_texture_object_translated);
	return fn;
}

cudaCreateSurfaceObject_fn cudastub_cudart_adapt_cudaCreateSurfaceObject(void)
{
	cudaCreateSurfaceObject_fn fn;

	*(void **)&fn = translate_to(resource_layouts_differ, "cudaCreateSurfaceObject",
				     &runtime_create_surface_object,
				     (void *)create_surface_object_translated);
	return fn;
}

cudaGetTextureObjectResourceDesc_fn cudastub_cudart_adapt_cudaGetTextureObjectResourceDesc(void)
{
	cudaGetTextureObjectResourceDesc_fn fn;

	*(void **)&fn = translate_to(resource_layouts_differ, "cudaGetTextureObjectResourceDesc",
				     &runtime_get_texture_resource_desc,
				     (void *)get_texture_resource_desc_translated);
	return fn;
}

cudaGetSurfaceObjectResourceDesc_fn cudastub_cudart_adapt_cudaGetSurfaceObjectResourceDesc(void)
{
	cudaGetSurfaceObjectResourceDesc_fn fn;

	*(void **)&fn = translate_to(resource_layouts_differ, "cudaGetSurfaceObjectResourceDesc",
				     &runtime_get_surface_resource_desc,
				     (void *)get_surface_resource_desc_translated);
	return fn;
}

cudaGetTextureObjectResourceViewDesc_fn
cudastub_cudart_adapt_cudaGetTextureObjectResourceViewDesc(void)
{
	cudaGetTextureObjectResourceViewDesc_fn fn;

	*(void **)&fn =
		translate_to(resource_layouts_differ, "cudaGetTextureObjectResourceViewDesc",
			     &runtime_get_view_desc, (void *)get_view_desc_translated);
	return fn;
}

cudaGetTextureObjectTextureDesc_fn cudastub_cudart_adapt_cudaGetTextureObjectTextureDesc(void)
{
	cudaGetTextureObjectTextureDesc_fn fn;
	void *v2;

	/* 11.x's _v2 writes 12's layout: as is, where that 11.x exports it */
	if (CUDASTUB_ABI_MAJOR != 11 && adapt_loaded_major() == 11 &&
	    (v2 = adapt_loaded_symbol("cudaGetTextureObjectTextureDesc_v2")) != NULL) {
		*(void **)&fn =
			adapt_chosen("cudaGetTextureObjectTextureDesc", "11's _v2, as it is", v2);
		return fn;
	}
	*(void **)&fn =
		translate_to(texture_layouts_differ, "cudaGetTextureObjectTextureDesc",
			     &runtime_get_texture_desc, (void *)get_texture_desc_translated);
	return fn;
}

#if CUDASTUB_ABI_MAJOR == 11
/* 11's _v2 forms take 12's texture descriptor: on 12.x and 13.x, their
 * plain names, with the resource descriptors translated for 13. */
static cudaError_t create_texture_object_v2_translated(
	cudaTextureObject_t *pTexObject, const struct cudaResourceDesc *pResDesc,
	const struct cudaTextureDesc_v2 *pTexDesc, const struct cudaResourceViewDesc *pResViewDesc)
{
	union resource_desc_any res_buf;
	union view_desc_any view_buf;
	runtime_create_texture_fn create;
	const void *res, *view;
	int refused_res, refused_view;

	res = resource_desc_for_runtime(pResDesc, &res_buf, &refused_res);
	view = view_desc_for_runtime(pResViewDesc, &view_buf, &refused_view);
	if (refused_res || refused_view)
		return cudaErrorNotSupported;
	*(void **)&create = adapt_slot_function(&runtime_create_texture_object);
	return create(pTexObject, res, pTexDesc, view);
}

static int always(int major)
{
	(void)major;
	return 1;
}

cudaCreateTextureObject_v2_fn cudastub_cudart_adapt_cudaCreateTextureObject_v2(void)
{
	cudaCreateTextureObject_v2_fn fn = NULL;
	int major = adapt_loaded_major();

	/* an 11.x without _v2 has no place for the 72-byte descriptor */
	if (major == 12 || major == 13)
		*(void **)&fn = translate_to(always, "cudaCreateTextureObject",
					     &runtime_create_texture_object,
					     (void *)create_texture_object_v2_translated);
	return fn;
}

cudaGetTextureObjectTextureDesc_v2_fn cudastub_cudart_adapt_cudaGetTextureObjectTextureDesc_v2(void)
{
	cudaGetTextureObjectTextureDesc_v2_fn fn;
	int major = adapt_loaded_major();

	if (major == 12 || major == 13)
		*(void **)&fn = adapt_chosen(
			"cudaGetTextureObjectTextureDesc_v2", "the plain name, as it is",
			adapt_loaded_symbol("cudaGetTextureObjectTextureDesc"));
	else
		fn = NULL;
	return fn;
}
#endif

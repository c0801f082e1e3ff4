/*
 * Same-size structs whose reserved bytes or union members a newer major put
 * to use: cudaMemPoolProps (maxSize in 12, usage in 13; the spec's `layout`
 * lines, copied by stubs/cudart/layout/layout.c, inside cudaMemAllocNodeParams
 * too) and launch attributes (stubs/cudart/adapt_launch_attributes.c: new
 * attribute ids in 12 and 13). A newer stub reaches an older runtime with
 * the caller's fields, unless it uses what the runtime lacks: then
 * cudaErrorNotSupported and no call. An older stub reaches a newer runtime
 * with its fields and the new ones zero. Launch attributes pass as they are.
 */
#define _GNU_SOURCE
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <string.h>

#include "adapters_test.h"

#define GRAPH		  ((void *)0x6a0)
#define STREAM		  ((void *)0x57)
#define NODE		  ((void *)0x40d)
#define MAX_SIZE	  CUDASTUB_LAYOUT_cudaMemPoolProps_12_maxSize
#define USAGE		  CUDASTUB_LAYOUT_cudaMemPoolProps_13_usage
#define ALLOC_PARAMS_SIZE 120 /* cudaMemAllocNodeParams, every major */
#define ALLOC_DPTR	  112
#define POOL_PROPS_SIZE	  88 /* cudaMemPoolProps, every major */
#define ALLOC_L(m)	  (&cudastub_cudart_layout_cudaMemAllocNodeParams_##m)

typedef cudaError_t (*pool_create_fn)(void **pool, const void *props);
typedef cudaError_t (*add_alloc_node_fn)(void **node, void *graph, void *const *deps, size_t n,
					 void *params);
typedef cudaError_t (*get_alloc_params_fn)(void *node, void *params);
typedef cudaError_t (*attribute_fn)(void *stream_or_node, int id, void *value);
typedef cudaError_t (*launch_fn)(const cudaLaunchConfig_t *config, const void *func, void **args);
typedef cudaError_t (*occupancy_fn)(int *out, const void *func, const cudaLaunchConfig_t *config);

#define STUB(type, name) ((type)ad_stub_symbol(name))

static const struct fake_received *received(void)
{
	return ad_fake_symbol("fake_descs_received");
}

/* ---- memory pool properties ---- */

/* Creates a pool and adds an allocation node with props whose field at
 * offset `field` (size bytes) is set: refused when refuse, else the
 * runtime gets the same bytes (the fields at the same offsets in every
 * major, the others zero). */
static void pool_props(size_t field, size_t size, int refuse)
{
	unsigned char params[ALLOC_PARAMS_SIZE];
	void *pool = NULL, *node = NULL, *dptr;
	int mark;

	memset(params, 0, sizeof params);
	memset(params + field, 1, size);
	mark = ad_mark();
	if (refuse) {
		AD_EXPECT(STUB(pool_create_fn, "cudaMemPoolCreate")(&pool, params) ==
			  cudaErrorNotSupported);
		AD_EXPECT(STUB(add_alloc_node_fn, "cudaGraphAddMemAllocNode")(
				  &node, GRAPH, NULL, 0, params) == cudaErrorNotSupported);
		AD_EXPECT(!ad_any_call_since(mark) && pool == NULL && node == NULL);
		return;
	}
	AD_EXPECT(STUB(pool_create_fn, "cudaMemPoolCreate")(&pool, params) == cudaSuccess);
	AD_EXPECT(ad_called_since(mark, "cudaMemPoolCreate") && pool == (void *)0x9001);
	AD_EXPECT(ad_received_as(received(), params, POOL_PROPS_SIZE, POOL_PROPS_SIZE));
	AD_EXPECT(STUB(add_alloc_node_fn, "cudaGraphAddMemAllocNode")(&node, GRAPH, NULL, 0,
								      params) == cudaSuccess);
	/* dptr is the runtime's answer, copied back after the call */
	AD_EXPECT(ad_received_as(received(), params, ALLOC_PARAMS_SIZE, ALLOC_DPTR));
	AD_EXPECT(node == (void *)0xa110c);
	memcpy(&dptr, params + ALLOC_DPTR, sizeof dptr);
	AD_EXPECT(dptr == (void *)0xd0); /* the runtime's output, in the caller's struct */
}

/* cudaGraphMemAllocNodeGetParams: the runtime's struct (120 bytes in every
 * major, the pattern over all of it) in the caller's layout `mine`: the
 * fields both have, the caller's other fields and the pools' reserved
 * bytes zero. */
static void alloc_params(const struct cudastub_layout *mine, const struct cudastub_layout *theirs)
{
	unsigned char *params = ad_guarded(ALLOC_PARAMS_SIZE);

	AD_EXPECT(STUB(get_alloc_params_fn, "cudaGraphMemAllocNodeGetParams")(NODE, params) ==
		  cudaSuccess);
	AD_EXPECT(ad_copied_at(params, mine, theirs));
	/* the node's own fields, after the pool's properties, in every major */
	AD_EXPECT(ad_pattern_at(params, POOL_PROPS_SIZE, POOL_PROPS_SIZE,
				ALLOC_PARAMS_SIZE - POOL_PROPS_SIZE));
	AD_EXPECT(ad_guard_intact(params, ALLOC_PARAMS_SIZE));
}

static int pool_13_on_12(void)
{
	pool_props(MAX_SIZE, 8, 0); /* 12 has maxSize */
	pool_props(USAGE, 2, 1);
	alloc_params(ALLOC_L(13), ALLOC_L(12));
	return ad_finish();
}

static int pool_13_on_11(void)
{
	pool_props(MAX_SIZE, 8, 1);
	pool_props(USAGE, 2, 1);
	pool_props(MAX_SIZE, 0, 0);
	alloc_params(ALLOC_L(13), ALLOC_L(11));
	return ad_finish();
}

static int pool_12_on_11(void)
{
	pool_props(MAX_SIZE, 8, 1);
	pool_props(MAX_SIZE, 0, 0);
	alloc_params(ALLOC_L(12), ALLOC_L(11));
	return ad_finish();
}

/* An older stub on a newer runtime: the caller's fields, the new ones at
 * their default, zero. */
static int pool_older_on_newer(void)
{
	pool_props(MAX_SIZE, 0, 0);
	return ad_finish();
}

static int pool_12_on_13(void)
{
	pool_older_on_newer();
	alloc_params(ALLOC_L(12), ALLOC_L(13));
	return ad_finish();
}

static int pool_11_on_newer(void)
{
	pool_older_on_newer();
	/* 11's layout of the struct is the same as it reached from 12 or 13 */
	alloc_params(ALLOC_L(11), ALLOC_L(12));
	return ad_finish();
}

/* ---- launch attributes ---- */

/* Sets and gets attribute id on a stream (both forms) and a kernel node:
 * passed as it is when known, else refused without a call. */
static void attribute(int id, int known)
{
	static const char *const names[][2] = {
		{"cudaStreamSetAttribute", "cudaStreamGetAttribute"},
		{"cudaStreamSetAttribute_ptsz", "cudaStreamGetAttribute_ptsz"},
		{"cudaGraphKernelNodeSetAttribute", "cudaGraphKernelNodeGetAttribute"},
	};
	const int *got_id = ad_fake_symbol("fake_descs_attribute");

	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		unsigned char value[64] = {1}, *out = ad_guarded(sizeof value);
		int mark = ad_mark();
		cudaError_t set = STUB(attribute_fn, names[i][0])(STREAM, id, value);
		cudaError_t get = STUB(attribute_fn, names[i][1])(STREAM, id, out);

		if (!known) {
			AD_EXPECT(set == cudaErrorNotSupported && get == cudaErrorNotSupported);
			AD_EXPECT(!ad_any_call_since(mark));
			continue;
		}
		AD_EXPECT(set == cudaSuccess && get == cudaSuccess);
		AD_EXPECT(ad_called_since(mark, names[i][0]) && ad_called_since(mark, names[i][1]));
		AD_EXPECT(*got_id == id && received()->ptr == value);
		AD_EXPECT(ad_pattern_at(out, 0, 0, sizeof value));
		AD_EXPECT(ad_guard_intact(out, sizeof value));
	}
}

/* Launches and occupancy queries with the attributes ids: every id must be
 * known, else refused without a call. */
static void launch(const int *ids, unsigned n, int known)
{
	cudaLaunchAttribute attrs[4];
	cudaLaunchConfig_t config;
	int out = 0, mark = ad_mark();
	cudaError_t want = known ? cudaSuccess : cudaErrorNotSupported;

	memset(&config, 0, sizeof config);
	memset(attrs, 0, sizeof attrs);
	for (unsigned i = 0; i < n; i++)
		attrs[i].id = (cudaLaunchAttributeID)ids[i];
	config.attrs = attrs;
	config.numAttrs = n;
	AD_EXPECT(STUB(launch_fn, "cudaLaunchKernelExC")(&config, (void *)0xf, NULL) == want);
	AD_EXPECT(STUB(launch_fn, "cudaLaunchKernelExC_ptsz")(&config, (void *)0xf, NULL) == want);
	AD_EXPECT(STUB(occupancy_fn, "cudaOccupancyMaxActiveClusters")(&out, (void *)0xf,
								       &config) == want);
	AD_EXPECT(!known || out == 4);
	AD_EXPECT(STUB(occupancy_fn, "cudaOccupancyMaxPotentialClusterSize")(&out, (void *)0xf,
									     &config) == want);
	AD_EXPECT(!known || out == 8);
	if (!known) {
		AD_EXPECT(!ad_any_call_since(mark));
		return;
	}
	AD_EXPECT(ad_called_since(mark, "cudaLaunchKernelExC_ptsz"));
	AD_EXPECT(received()->ptr == &config);
}

static int launch_13_on_12(void)
{
	attribute(cudaLaunchAttributeMemSyncDomain, 1);
	attribute(cudaLaunchAttributePreferredClusterDimension, 0); /* 13's */
	attribute(cudaLaunchAttributeNvlinkUtilCentricScheduling, 0);
	launch((const int[]){cudaLaunchAttributeCooperative,
			     cudaLaunchAttributeLaunchCompletionEvent},
	       2, 1);
	launch((const int[]){cudaLaunchAttributeCooperative,
			     cudaLaunchAttributePreferredSharedMemoryCarveout},
	       2, 0);
	return ad_finish();
}

static int launch_13_on_11(void)
{
	attribute(cudaLaunchAttributePriority, 1);
	attribute(cudaLaunchAttributeMemSyncDomainMap, 0); /* 12's */
	launch((const int[]){cudaLaunchAttributeClusterDimension}, 1, 1);
	launch((const int[]){cudaLaunchAttributeDeviceUpdatableKernelNode}, 1, 0);
	return ad_finish();
}

static int launch_12_on_11(void)
{
	attribute(cudaLaunchAttributeAccessPolicyWindow, 1);
	attribute(cudaLaunchAttributeLaunchCompletionEvent, 0);
	launch(NULL, 0, 1);
	return ad_finish();
}

static int launch_older_on_newer(void)
{
	attribute(cudaLaunchAttributePriority, 1);
	launch((const int[]){cudaLaunchAttributeClusterDimension}, 1, 1);
	return ad_finish();
}

static const struct ad_case cases[] = {
	AD_TEST("cudaMemPoolProps: maxSize (12) and usage (13)"),
	AD_CHECKED(13, "12", pool_13_on_12),
	AD_CHECKED(13, "11", pool_13_on_11),
	AD_CHECKED(12, "11", pool_12_on_11),
	AD_CHECKED(12, "13", pool_12_on_13),
	AD_CHECKED(11, "13", pool_11_on_newer),
	AD_CHECKED(11, "12", pool_11_on_newer),
	AD_TEST("launch attribute ids each major knows"),
	AD_CHECKED(13, "12", launch_13_on_12),
	AD_CHECKED(13, "11", launch_13_on_11),
	AD_CHECKED(12, "11", launch_12_on_11),
	AD_CHECKED(12, "13", launch_older_on_newer),
	AD_CHECKED(11, "13", launch_older_on_newer),
	AD_CHECKED(11, "12", launch_older_on_newer),
	AD_END,
};

AD_MAIN("pool properties and launch attributes", cases)

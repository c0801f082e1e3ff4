/*
 * Launch attributes: union cudaLaunchAttributeValue is 64 bytes in every
 * major; each major added members (and attribute ids), so the generator
 * sees the layout differ, but every member keeps its place and meaning.
 *
 *   all majors (11.8+):
 *   cudaError_t cudaStreamGetAttribute(cudaStream_t hStream, cudaLaunchAttributeID attr,
 *                                      cudaLaunchAttributeValue *value_out);      and _ptsz
 *   cudaError_t cudaStreamSetAttribute(cudaStream_t hStream, cudaLaunchAttributeID attr,
 *                                      const cudaLaunchAttributeValue *value);    and _ptsz
 *   cudaError_t cudaGraphKernelNodeGetAttribute(cudaGraphNode_t hNode, cudaLaunchAttributeID attr,
 *                                               cudaLaunchAttributeValue *value_out);
 *   cudaError_t cudaGraphKernelNodeSetAttribute(cudaGraphNode_t hNode, cudaLaunchAttributeID attr,
 *                                               const cudaLaunchAttributeValue *value);
 *   cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func,
 *                                   void **args);                                  and _ptsz
 *   cudaError_t cudaOccupancyMaxActiveClusters(int *numClusters, const void *func,
 *                                              const cudaLaunchConfig_t *launchConfig);
 *   cudaError_t cudaOccupancyMaxPotentialClusterSize(int *clusterSize, const void *func,
 *                                                    const cudaLaunchConfig_t *launchConfig);
 *   cudaLaunchConfig_t (56 bytes) and cudaLaunchAttribute (72: id, pad, value) are the same
 *   in every major.
 *
 *   Each version's headers define more attribute ids (values never
 *   changed); which, the ABI records say (the spec's `enum
 *   cudaLaunchAttributeID`, generated into cudart_enums.c): 11.8 has 0-8,
 *   12.4 0-10, 12 and 13, 12.5 adds 14, 13.0 has 0-14 and 16.
 *
 * The rule:
 *   An older stub on a newer runtime: the runtime's function as it is;
 *     every id the stub's headers name means the same there.
 *   A newer stub on an older runtime: an id the runtime's headers do not
 *     define (the newest recorded headers of its major no newer than it)
 *     is refused with cudaErrorNotSupported and nothing is called; every
 *     attribute of a launch configuration is checked. Otherwise the
 *     caller's pointers are passed as they are: the member an id selects
 *     has the same layout.
 */
#define _GNU_SOURCE
#include <stddef.h>

#include "adapt_loaded.h"
#include "cudart_enums.h"
#include "cudart_layouts.h"

_Static_assert(sizeof(cudaLaunchAttributeValue) ==
			       CUDASTUB_LAYOUT_cudaLaunchAttributeValue_11_SIZE &&
		       sizeof(cudaLaunchAttributeValue) ==
			       CUDASTUB_LAYOUT_cudaLaunchAttributeValue_12_SIZE &&
		       sizeof(cudaLaunchAttributeValue) ==
			       CUDASTUB_LAYOUT_cudaLaunchAttributeValue_13_SIZE,
	       "64 bytes in every major");

/* The configuration and its attributes: the same in every major. */
#define CHECK_CONFIG(m)                                                                            \
	_Static_assert(sizeof(cudaLaunchConfig_t) ==                                               \
				       CUDASTUB_LAYOUT_cudaLaunchConfig_st_##m##_SIZE &&           \
			       offsetof(cudaLaunchConfig_t, attrs) ==                              \
				       CUDASTUB_LAYOUT_cudaLaunchConfig_st_##m##_attrs &&          \
			       offsetof(cudaLaunchConfig_t, numAttrs) ==                           \
				       CUDASTUB_LAYOUT_cudaLaunchConfig_st_##m##_numAttrs &&       \
			       sizeof(struct cudaLaunchAttribute_st) ==                            \
				       CUDASTUB_LAYOUT_cudaLaunchAttribute_st_##m##_SIZE &&        \
			       offsetof(struct cudaLaunchAttribute_st, val) ==                     \
				       CUDASTUB_LAYOUT_cudaLaunchAttribute_st_##m##_val,           \
		       "cudaLaunchConfig_t " #m)
CHECK_CONFIG(11);
CHECK_CONFIG(12);
CHECK_CONFIG(13);
#undef CHECK_CONFIG

/* Whether the loaded runtime's headers define attribute id (the records'
 * values of enum cudaLaunchAttributeID, by major and minor). */
static int launch_attribute_known(unsigned id)
{
	const cudastub_library_info *info = cudastub_loader_info(&cudastub_cudart_library);

	return cudastub_enum_defined(cudastub_cudart_enum_cudaLaunchAttributeID, info->major,
				     info->minor, (int)id);
}

static int config_attributes_known(const cudaLaunchConfig_t *config)
{
	for (unsigned i = 0; config && config->attrs && i < config->numAttrs; i++)
		if (!launch_attribute_known((unsigned)config->attrs[i].id))
			return 0;
	return 1;
}

typedef cudaError_t (*stream_get_fn)(cudaStream_t, cudaLaunchAttributeID,
				     cudaLaunchAttributeValue *);
typedef cudaError_t (*stream_set_fn)(cudaStream_t, cudaLaunchAttributeID,
				     const cudaLaunchAttributeValue *);
typedef cudaError_t (*node_get_fn)(cudaGraphNode_t, cudaLaunchAttributeID,
				   cudaLaunchAttributeValue *);
typedef cudaError_t (*node_set_fn)(cudaGraphNode_t, cudaLaunchAttributeID,
				   const cudaLaunchAttributeValue *);
typedef cudaError_t (*launch_fn)(const cudaLaunchConfig_t *, const void *, void **);
typedef cudaError_t (*occupancy_fn)(int *, const void *, const cudaLaunchConfig_t *);

/* The translators, one per name. A name's _ptsz, or another name of its
 * prototype, comes next: they share a translator body (ADAPT_TWINS), which
 * adds the twin's index. */
enum launch_function {
	STREAM_GET,
	STREAM_GET_PTSZ,
	STREAM_SET,
	STREAM_SET_PTSZ,
	NODE_GET,
	NODE_SET,
	LAUNCH,
	LAUNCH_PTSZ,
	MAX_ACTIVE_CLUSTERS,
	MAX_POTENTIAL_CLUSTER_SIZE,
	LAUNCH_FUNCTION_COUNT
};
_Static_assert(STREAM_GET_PTSZ == STREAM_GET + 1 && STREAM_SET_PTSZ == STREAM_SET + 1 &&
		       LAUNCH_PTSZ == LAUNCH + 1 &&
		       MAX_POTENTIAL_CLUSTER_SIZE == MAX_ACTIVE_CLUSTERS + 1,
	       "twins are adjacent");
static _Atomic(void *) callees[LAUNCH_FUNCTION_COUNT];

static void *runtime_function(enum launch_function which)
{
	return adapt_callee(&callees[which]);
}

static int attribute_known(cudaLaunchAttributeID attr)
{
	return launch_attribute_known((unsigned)attr);
}

static cudaError_t stream_get(int ptsz, cudaStream_t hStream, cudaLaunchAttributeID attr,
			      cudaLaunchAttributeValue *value_out)
{
	stream_get_fn get;

	if (!attribute_known(attr))
		return cudaErrorNotSupported;
	*(void **)&get = runtime_function(STREAM_GET + ptsz);
	return get(hStream, attr, value_out);
}

static cudaError_t stream_set(int ptsz, cudaStream_t hStream, cudaLaunchAttributeID attr,
			      const cudaLaunchAttributeValue *value)
{
	stream_set_fn set;

	if (!attribute_known(attr))
		return cudaErrorNotSupported;
	*(void **)&set = runtime_function(STREAM_SET + ptsz);
	return set(hStream, attr, value);
}

ADAPT_PTSZ_TWINS(cudaError_t, stream_get,
		 (cudaStream_t hStream, cudaLaunchAttributeID attr,
		  cudaLaunchAttributeValue *value_out),
		 (hStream, attr, value_out))
ADAPT_PTSZ_TWINS(cudaError_t, stream_set,
		 (cudaStream_t hStream, cudaLaunchAttributeID attr,
		  const cudaLaunchAttributeValue *value),
		 (hStream, attr, value))

static cudaError_t node_get(cudaGraphNode_t hNode, cudaLaunchAttributeID attr,
			    cudaLaunchAttributeValue *value_out)
{
	node_get_fn get;

	if (!attribute_known(attr))
		return cudaErrorNotSupported;
	*(void **)&get = runtime_function(NODE_GET);
	return get(hNode, attr, value_out);
}

static cudaError_t node_set(cudaGraphNode_t hNode, cudaLaunchAttributeID attr,
			    const cudaLaunchAttributeValue *value)
{
	node_set_fn set;

	if (!attribute_known(attr))
		return cudaErrorNotSupported;
	*(void **)&set = runtime_function(NODE_SET);
	return set(hNode, attr, value);
}

static cudaError_t launch(int ptsz, const cudaLaunchConfig_t *config, const void *func, void **args)
{
	launch_fn fn;

	if (!config_attributes_known(config))
		return cudaErrorNotSupported;
	*(void **)&fn = runtime_function(LAUNCH + ptsz);
	return fn(config, func, args);
}

ADAPT_PTSZ_TWINS(cudaError_t, launch,
		 (const cudaLaunchConfig_t *config, const void *func, void **args),
		 (config, func, args))

static cudaError_t occupancy(int which, int *out, const void *func,
			     const cudaLaunchConfig_t *config)
{
	occupancy_fn fn;

	if (!config_attributes_known(config))
		return cudaErrorNotSupported;
	*(void **)&fn = runtime_function(MAX_ACTIVE_CLUSTERS + which);
	return fn(out, func, config);
}

ADAPT_TWINS(cudaError_t, occupancy, max_active_clusters, max_potential_cluster_size,
	    (int *out, const void *func, const cudaLaunchConfig_t *config), (out, func, config))

/* The translators by number, for the registry. */
static void *translator(int via)
{
	switch (via) {
	case STREAM_GET: return (void *)stream_get_legacy;
	case STREAM_GET_PTSZ: return (void *)stream_get_ptsz;
	case STREAM_SET: return (void *)stream_set_legacy;
	case STREAM_SET_PTSZ: return (void *)stream_set_ptsz;
	case NODE_GET: return (void *)node_get;
	case NODE_SET: return (void *)node_set;
	case LAUNCH: return (void *)launch_legacy;
	case LAUNCH_PTSZ: return (void *)launch_ptsz;
	case MAX_ACTIVE_CLUSTERS: return (void *)max_active_clusters;
	case MAX_POTENTIAL_CLUSTER_SIZE: return (void *)max_potential_cluster_size;
	}
	return NULL;
}

/* Every recorded major has its own form of these names (each added members
 * to the union): as it is on a newer runtime, the checking translator on
 * an older one. */
#define LAUNCH_ENTRIES(name, which)                                                                \
	ADAPT_ENTRY(ADAPT_##name, 0, ADAPT_ON_NEWER, 0, ADAPT_SELF, ADAPT_##name, ADAPT_AS_IS),    \
		ADAPT_ENTRY(ADAPT_##name, 0, ADAPT_ON_OLDER, 0, ADAPT_SELF, ADAPT_##name, which)

static const struct adapt_entry entries[] = {
	LAUNCH_ENTRIES(cudaStreamGetAttribute, STREAM_GET),
	LAUNCH_ENTRIES(cudaStreamGetAttribute_ptsz, STREAM_GET_PTSZ),
	LAUNCH_ENTRIES(cudaStreamSetAttribute, STREAM_SET),
	LAUNCH_ENTRIES(cudaStreamSetAttribute_ptsz, STREAM_SET_PTSZ),
	LAUNCH_ENTRIES(cudaGraphKernelNodeGetAttribute, NODE_GET),
	LAUNCH_ENTRIES(cudaGraphKernelNodeSetAttribute, NODE_SET),
	LAUNCH_ENTRIES(cudaLaunchKernelExC, LAUNCH),
	LAUNCH_ENTRIES(cudaLaunchKernelExC_ptsz, LAUNCH_PTSZ),
	LAUNCH_ENTRIES(cudaOccupancyMaxActiveClusters, MAX_ACTIVE_CLUSTERS),
	LAUNCH_ENTRIES(cudaOccupancyMaxPotentialClusterSize, MAX_POTENTIAL_CLUSTER_SIZE),
};

ADAPT_FAMILY(launch_attributes, entries, translator, callees)

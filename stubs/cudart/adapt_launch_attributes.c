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
#include <stdatomic.h>
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
			       sizeof(cudaLaunchAttribute) ==                                      \
				       CUDASTUB_LAYOUT_cudaLaunchAttribute_st_##m##_SIZE &&        \
			       offsetof(cudaLaunchAttribute, val) ==                               \
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

/* The runtime's functions, for the translators below; one per name. */
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
static _Atomic(void *) runtime_functions[LAUNCH_FUNCTION_COUNT];

static void *runtime_function(enum launch_function which)
{
	return atomic_load_explicit(&runtime_functions[which], memory_order_acquire);
}

static int attribute_known(cudaLaunchAttributeID attr)
{
	return launch_attribute_known((unsigned)attr);
}

static cudaError_t stream_get(enum launch_function which, cudaStream_t hStream,
			      cudaLaunchAttributeID attr, cudaLaunchAttributeValue *value_out)
{
	stream_get_fn get;

	if (!attribute_known(attr))
		return cudaErrorNotSupported;
	*(void **)&get = runtime_function(which);
	return get(hStream, attr, value_out);
}

static cudaError_t stream_set(enum launch_function which, cudaStream_t hStream,
			      cudaLaunchAttributeID attr, const cudaLaunchAttributeValue *value)
{
	stream_set_fn set;

	if (!attribute_known(attr))
		return cudaErrorNotSupported;
	*(void **)&set = runtime_function(which);
	return set(hStream, attr, value);
}

static cudaError_t stream_get_checked(cudaStream_t hStream, cudaLaunchAttributeID attr,
				      cudaLaunchAttributeValue *value_out)
{
	return stream_get(STREAM_GET, hStream, attr, value_out);
}

static cudaError_t stream_get_ptsz_checked(cudaStream_t hStream, cudaLaunchAttributeID attr,
					   cudaLaunchAttributeValue *value_out)
{
	return stream_get(STREAM_GET_PTSZ, hStream, attr, value_out);
}

static cudaError_t stream_set_checked(cudaStream_t hStream, cudaLaunchAttributeID attr,
				      const cudaLaunchAttributeValue *value)
{
	return stream_set(STREAM_SET, hStream, attr, value);
}

static cudaError_t stream_set_ptsz_checked(cudaStream_t hStream, cudaLaunchAttributeID attr,
					   const cudaLaunchAttributeValue *value)
{
	return stream_set(STREAM_SET_PTSZ, hStream, attr, value);
}

static cudaError_t node_get_checked(cudaGraphNode_t hNode, cudaLaunchAttributeID attr,
				    cudaLaunchAttributeValue *value_out)
{
	node_get_fn get;

	if (!attribute_known(attr))
		return cudaErrorNotSupported;
	*(void **)&get = runtime_function(NODE_GET);
	return get(hNode, attr, value_out);
}

static cudaError_t node_set_checked(cudaGraphNode_t hNode, cudaLaunchAttributeID attr,
				    const cudaLaunchAttributeValue *value)
{
	node_set_fn set;

	if (!attribute_known(attr))
		return cudaErrorNotSupported;
	*(void **)&set = runtime_function(NODE_SET);
	return set(hNode, attr, value);
}

static cudaError_t launch(enum launch_function which, const cudaLaunchConfig_t *config,
			  const void *func, void **args)
{
	launch_fn fn;

	if (!config_attributes_known(config))
		return cudaErrorNotSupported;
	*(void **)&fn = runtime_function(which);
	return fn(config, func, args);
}

static cudaError_t launch_checked(const cudaLaunchConfig_t *config, const void *func, void **args)
{
	return launch(LAUNCH, config, func, args);
}

static cudaError_t launch_ptsz_checked(const cudaLaunchConfig_t *config, const void *func,
				       void **args)
{
	return launch(LAUNCH_PTSZ, config, func, args);
}

static cudaError_t occupancy(enum launch_function which, int *out, const void *func,
			     const cudaLaunchConfig_t *config)
{
	occupancy_fn fn;

	if (!config_attributes_known(config))
		return cudaErrorNotSupported;
	*(void **)&fn = runtime_function(which);
	return fn(out, func, config);
}

static cudaError_t max_active_clusters_checked(int *numClusters, const void *func,
					       const cudaLaunchConfig_t *launchConfig)
{
	return occupancy(MAX_ACTIVE_CLUSTERS, numClusters, func, launchConfig);
}

static cudaError_t max_potential_cluster_size_checked(int *clusterSize, const void *func,
						      const cudaLaunchConfig_t *launchConfig)
{
	return occupancy(MAX_POTENTIAL_CLUSTER_SIZE, clusterSize, func, launchConfig);
}

/* The runtime's name for the loaded major: as it is on a newer runtime, the
 * checking translator on an older one; NULL on the stub's own major. */
static void *launch_adapter(const char *name, enum launch_function which, void *checked)
{
	int major = adapt_loaded_major();
	void *sym;

	if (major < 11 || major > 13 || major == CUDASTUB_ABI_MAJOR)
		return NULL;
	sym = adapt_loaded_symbol(name);
	if (!sym || major > CUDASTUB_ABI_MAJOR)
		return adapt_chosen(name, "a newer runtime, as it is", sym);
	atomic_store_explicit(&runtime_functions[which], sym, memory_order_release);
	return adapt_chosen(name, "attribute ids the runtime lacks refused", checked);
}

#define LAUNCH_ADAPTER(name, which, checked)                                                       \
	name##_fn cudastub_cudart_adapt_##name(void)                                               \
	{                                                                                          \
		name##_fn fn;                                                                      \
                                                                                                   \
		*(void **)&fn = launch_adapter(#name, which, (void *)checked);                     \
		return fn;                                                                         \
	}

LAUNCH_ADAPTER(cudaStreamGetAttribute, STREAM_GET, stream_get_checked)
LAUNCH_ADAPTER(cudaStreamGetAttribute_ptsz, STREAM_GET_PTSZ, stream_get_ptsz_checked)
LAUNCH_ADAPTER(cudaStreamSetAttribute, STREAM_SET, stream_set_checked)
LAUNCH_ADAPTER(cudaStreamSetAttribute_ptsz, STREAM_SET_PTSZ, stream_set_ptsz_checked)
LAUNCH_ADAPTER(cudaGraphKernelNodeGetAttribute, NODE_GET, node_get_checked)
LAUNCH_ADAPTER(cudaGraphKernelNodeSetAttribute, NODE_SET, node_set_checked)
LAUNCH_ADAPTER(cudaLaunchKernelExC, LAUNCH, launch_checked)
LAUNCH_ADAPTER(cudaLaunchKernelExC_ptsz, LAUNCH_PTSZ, launch_ptsz_checked)
LAUNCH_ADAPTER(cudaOccupancyMaxActiveClusters, MAX_ACTIVE_CLUSTERS, max_active_clusters_checked)
LAUNCH_ADAPTER(cudaOccupancyMaxPotentialClusterSize, MAX_POTENTIAL_CLUSTER_SIZE,
	       max_potential_cluster_size_checked)

/*
 * Functions that read or write a descriptor whose layout differs between
 * majors, each in the fake's major's layout (this file is compiled against
 * each major's headers): texture and surface objects (and 11.x's _v2
 * texture forms), external memory and semaphore import, memory pool
 * properties, and launch attributes.
 *
 * Descriptors given are kept in fake_descs_received[0..2] (in argument
 * order); descriptors written are filled with FAKE_PATTERN over their whole
 * size, except a 13.x resource descriptor's flags, which report
 * fake_descs_resource_flags. Launch attribute calls keep the id in
 * fake_descs_attribute.
 */
#define _GNU_SOURCE
#include <string.h>

#include "fake_cudart.h"
#include "fake_cudart_props.h"

FAKE_EXPORT struct fake_received fake_descs_received[3];
FAKE_EXPORT unsigned int fake_descs_resource_flags;
FAKE_EXPORT int fake_descs_attribute = -1;

static void fill_pattern(void *p, size_t size)
{
	for (size_t k = 0; k < size; k++)
		((unsigned char *)p)[k] = FAKE_PATTERN(k);
}

static void receive(int i, const void *p, size_t size)
{
	fake_descs_received[i].ptr = p;
	fake_descs_received[i].size = p ? size : 0;
	if (p)
		memcpy(fake_descs_received[i].bytes, p, size);
}

/* ---- texture and surface objects ---- */

FAKE_EXPORT cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
						const struct cudaResourceDesc *pResDesc,
						const struct cudaTextureDesc *pTexDesc,
						const struct cudaResourceViewDesc *pResViewDesc)
{
	fake_cudart_record("cudaCreateTextureObject");
	receive(0, pResDesc, sizeof *pResDesc);
	receive(1, pTexDesc, sizeof *pTexDesc);
	receive(2, pResViewDesc, sizeof *pResViewDesc);
	*pTexObject = 0x7e;
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
						const struct cudaResourceDesc *pResDesc)
{
	fake_cudart_record("cudaCreateSurfaceObject");
	receive(0, pResDesc, sizeof *pResDesc);
	*pSurfObject = 0x5f;
	return cudaSuccess;
}

static cudaError_t write_resource_desc(const char *name, struct cudaResourceDesc *pResDesc)
{
	fake_cudart_record(name);
	if (!pResDesc)
		return cudaErrorInvalidValue;
	fill_pattern(pResDesc, sizeof *pResDesc);
#if CUDART_VERSION >= 13000
	pResDesc->flags = fake_descs_resource_flags;
#endif
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc,
							 cudaTextureObject_t texObject)
{
	(void)texObject;
	return write_resource_desc("cudaGetTextureObjectResourceDesc", pResDesc);
}

FAKE_EXPORT cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc,
							 cudaSurfaceObject_t surfObject)
{
	(void)surfObject;
	return write_resource_desc("cudaGetSurfaceObjectResourceDesc", pResDesc);
}

FAKE_EXPORT cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc,
							cudaTextureObject_t texObject)
{
	(void)texObject;
	fake_cudart_record("cudaGetTextureObjectTextureDesc");
	if (!pTexDesc)
		return cudaErrorInvalidValue;
	fill_pattern(pTexDesc, sizeof *pTexDesc);
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t cudaGetTextureObjectResourceViewDesc(
	struct cudaResourceViewDesc *pResViewDesc, cudaTextureObject_t texObject)
{
	(void)texObject;
	fake_cudart_record("cudaGetTextureObjectResourceViewDesc");
	if (!pResViewDesc)
		return cudaErrorInvalidValue;
	fill_pattern(pResViewDesc, sizeof *pResViewDesc);
	return cudaSuccess;
}

/* 11.x's forms with the 72-byte descriptor (left out when
 * FAKE_NO_TEXTURE_V2: an 11.x without them) */
#if CUDART_VERSION < 12000 && !defined(FAKE_NO_TEXTURE_V2)
FAKE_EXPORT cudaError_t cudaCreateTextureObject_v2(cudaTextureObject_t *pTexObject,
						   const struct cudaResourceDesc *pResDesc,
						   const struct cudaTextureDesc_v2 *pTexDesc,
						   const struct cudaResourceViewDesc *pResViewDesc)
{
	fake_cudart_record("cudaCreateTextureObject_v2");
	receive(0, pResDesc, sizeof *pResDesc);
	receive(1, pTexDesc, sizeof *pTexDesc);
	receive(2, pResViewDesc, sizeof *pResViewDesc);
	*pTexObject = 0x7f;
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t cudaGetTextureObjectTextureDesc_v2(struct cudaTextureDesc_v2 *pTexDesc,
							   cudaTextureObject_t texObject)
{
	(void)texObject;
	fake_cudart_record("cudaGetTextureObjectTextureDesc_v2");
	if (!pTexDesc)
		return cudaErrorInvalidValue;
	fill_pattern(pTexDesc, sizeof *pTexDesc);
	return cudaSuccess;
}
#endif

/* ---- external memory and semaphores ---- */

FAKE_EXPORT cudaError_t cudaImportExternalMemory(cudaExternalMemory_t *extMem_out,
						 const struct cudaExternalMemoryHandleDesc *desc)
{
	fake_cudart_record("cudaImportExternalMemory");
	receive(0, desc, sizeof *desc);
	*extMem_out = (cudaExternalMemory_t)0xe0;
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t
cudaExternalMemoryGetMappedBuffer(void **devPtr, cudaExternalMemory_t extMem,
				  const struct cudaExternalMemoryBufferDesc *bufferDesc)
{
	(void)extMem;
	fake_cudart_record("cudaExternalMemoryGetMappedBuffer");
	receive(0, bufferDesc, sizeof *bufferDesc);
	*devPtr = (void *)0xb0;
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t cudaExternalMemoryGetMappedMipmappedArray(
	cudaMipmappedArray_t *mipmap, cudaExternalMemory_t extMem,
	const struct cudaExternalMemoryMipmappedArrayDesc *mipmapDesc)
{
	(void)extMem;
	fake_cudart_record("cudaExternalMemoryGetMappedMipmappedArray");
	receive(0, mipmapDesc, sizeof *mipmapDesc);
	*mipmap = (cudaMipmappedArray_t)0x33;
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t cudaImportExternalSemaphore(
	cudaExternalSemaphore_t *extSem_out, const struct cudaExternalSemaphoreHandleDesc *desc)
{
	fake_cudart_record("cudaImportExternalSemaphore");
	receive(0, desc, sizeof *desc);
	*extSem_out = (cudaExternalSemaphore_t)0x5e;
	return cudaSuccess;
}

/* ---- memory pool properties ---- */

FAKE_EXPORT cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool,
					  const struct cudaMemPoolProps *poolProps)
{
	fake_cudart_record("cudaMemPoolCreate");
	receive(0, poolProps, sizeof *poolProps);
	*memPool = (cudaMemPool_t)0x9001;
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
						 const cudaGraphNode_t *pDependencies,
						 size_t numDependencies,
						 struct cudaMemAllocNodeParams *nodeParams)
{
	(void)graph;
	(void)pDependencies;
	(void)numDependencies;
	fake_cudart_record("cudaGraphAddMemAllocNode");
	receive(0, nodeParams, sizeof *nodeParams);
	nodeParams->dptr = (void *)0xd0;
	*pGraphNode = (cudaGraphNode_t)0xa110c;
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node,
						       struct cudaMemAllocNodeParams *params_out)
{
	(void)node;
	fake_cudart_record("cudaGraphMemAllocNodeGetParams");
	fill_pattern(params_out, sizeof *params_out);
	return cudaSuccess;
}

/* ---- launch attributes ---- */

static cudaError_t get_attribute(const char *name, cudaLaunchAttributeID attr,
				 cudaLaunchAttributeValue *value_out)
{
	fake_cudart_record(name);
	fake_descs_attribute = (int)attr;
	fill_pattern(value_out, sizeof *value_out);
	return cudaSuccess;
}

static cudaError_t set_attribute(const char *name, cudaLaunchAttributeID attr,
				 const cudaLaunchAttributeValue *value)
{
	fake_cudart_record(name);
	fake_descs_attribute = (int)attr;
	receive(0, value, sizeof *value);
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t cudaStreamGetAttribute(cudaStream_t hStream, cudaLaunchAttributeID attr,
					       cudaLaunchAttributeValue *value_out)
{
	(void)hStream;
	return get_attribute("cudaStreamGetAttribute", attr, value_out);
}

FAKE_EXPORT cudaError_t cudaStreamSetAttribute(cudaStream_t hStream, cudaLaunchAttributeID attr,
					       const cudaLaunchAttributeValue *value)
{
	(void)hStream;
	return set_attribute("cudaStreamSetAttribute", attr, value);
}

/* The per-thread-stream forms: declared by the headers only for such builds. */
FAKE_EXPORT cudaError_t cudaStreamGetAttribute_ptsz(cudaStream_t, cudaLaunchAttributeID,
						    cudaLaunchAttributeValue *);
FAKE_EXPORT cudaError_t cudaStreamSetAttribute_ptsz(cudaStream_t, cudaLaunchAttributeID,
						    const cudaLaunchAttributeValue *);
FAKE_EXPORT cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *, const void *, void **);

FAKE_EXPORT cudaError_t cudaStreamGetAttribute_ptsz(cudaStream_t hStream,
						    cudaLaunchAttributeID attr,
						    cudaLaunchAttributeValue *value_out)
{
	(void)hStream;
	return get_attribute("cudaStreamGetAttribute_ptsz", attr, value_out);
}

FAKE_EXPORT cudaError_t cudaStreamSetAttribute_ptsz(cudaStream_t hStream,
						    cudaLaunchAttributeID attr,
						    const cudaLaunchAttributeValue *value)
{
	(void)hStream;
	return set_attribute("cudaStreamSetAttribute_ptsz", attr, value);
}

FAKE_EXPORT cudaError_t cudaGraphKernelNodeGetAttribute(cudaGraphNode_t hNode,
							cudaLaunchAttributeID attr,
							cudaLaunchAttributeValue *value_out)
{
	(void)hNode;
	return get_attribute("cudaGraphKernelNodeGetAttribute", attr, value_out);
}

FAKE_EXPORT cudaError_t cudaGraphKernelNodeSetAttribute(cudaGraphNode_t hNode,
							cudaLaunchAttributeID attr,
							const cudaLaunchAttributeValue *value)
{
	(void)hNode;
	return set_attribute("cudaGraphKernelNodeSetAttribute", attr, value);
}

static cudaError_t launch(const char *name, const cudaLaunchConfig_t *config)
{
	fake_cudart_record(name);
	receive(0, config, sizeof *config);
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func,
					    void **args)
{
	(void)func;
	(void)args;
	return launch("cudaLaunchKernelExC", config);
}

FAKE_EXPORT cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func,
						 void **args)
{
	(void)func;
	(void)args;
	return launch("cudaLaunchKernelExC_ptsz", config);
}

FAKE_EXPORT cudaError_t cudaOccupancyMaxActiveClusters(int *numClusters, const void *func,
						       const cudaLaunchConfig_t *launchConfig)
{
	(void)func;
	*numClusters = 4;
	return launch("cudaOccupancyMaxActiveClusters", launchConfig);
}

FAKE_EXPORT cudaError_t cudaOccupancyMaxPotentialClusterSize(int *clusterSize, const void *func,
							     const cudaLaunchConfig_t *launchConfig)
{
	(void)func;
	*clusterSize = 8;
	return launch("cudaOccupancyMaxPotentialClusterSize", launchConfig);
}

/*
 * Device, pointer and function properties, each in the fake's major's
 * layout (this file is compiled against each major's headers):
 *   cudaGetDeviceProperties    11.x and 13.x; 12.x exports it too, but no
 *                              12 header declares it: here it only records
 *                              that it was called, which must never happen
 *   cudaGetDeviceProperties_v2 12.x
 *   cudaDeviceGetAttribute, cudaChooseDevice, cudaPointerGetAttributes,
 *   cudaFuncGetAttributes      every major
 * Structs written are filled with FAKE_PATTERN over their whole size;
 * structs given are kept in fake_props_received (fake_cudart_props.h).
 */
#define _GNU_SOURCE
#include <string.h>

#include "fake_cudart.h"
#include "fake_cudart_props.h"

FAKE_EXPORT struct fake_received fake_props_received;
/* How often each attribute was asked for. */
FAKE_EXPORT int fake_props_attributes_asked[256];

static void fill_pattern(void *p, size_t size)
{
	for (size_t k = 0; k < size; k++)
		((unsigned char *)p)[k] = FAKE_PATTERN(k);
}

static void receive(const void *p, size_t size)
{
	fake_props_received.ptr = p;
	fake_props_received.size = p ? size : 0;
	if (p)
		memcpy(fake_props_received.bytes, p, size);
}

static cudaError_t device_properties(const char *name, struct cudaDeviceProp *prop, int device)
{
	fake_cudart_record(name);
	if (device == FAKE_BAD_DEVICE)
		return cudaErrorInvalidDevice;
	if (!prop)
		return cudaErrorInvalidValue;
	fill_pattern(prop, sizeof *prop);
	return cudaSuccess;
}

#if CUDART_VERSION >= 12000 && CUDART_VERSION < 13000
FAKE_EXPORT cudaError_t cudaGetDeviceProperties_v2(struct cudaDeviceProp *prop, int device)
{
	return device_properties("cudaGetDeviceProperties_v2", prop, device);
}

/* 12's headers map the name to _v2; the library's own unversioned export
 * has a layout no 12 header describes. */
#undef cudaGetDeviceProperties
FAKE_EXPORT cudaError_t cudaGetDeviceProperties(void *prop, int device);
FAKE_EXPORT cudaError_t cudaGetDeviceProperties(void *prop, int device)
{
	(void)prop;
	(void)device;
	fake_cudart_record("cudaGetDeviceProperties");
	return cudaErrorUnknown;
}
#else
FAKE_EXPORT cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
	return device_properties("cudaGetDeviceProperties", prop, device);
}
#endif

FAKE_EXPORT cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
	(void)device;
	fake_cudart_record("cudaDeviceGetAttribute");
	if ((unsigned)attr < 256)
		fake_props_attributes_asked[attr]++;
	if (attr >= cudaDevAttrMax)
		return cudaErrorInvalidValue;
	*value = FAKE_ATTRIBUTE_BASE + (int)attr;
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop)
{
	fake_cudart_record("cudaChooseDevice");
	receive(prop, sizeof *prop);
	if (!prop)
		return cudaErrorInvalidValue;
	*device = FAKE_CHOSEN_DEVICE;
	return cudaSuccess;
}

/* A getter of one struct: logs name, keeps the handle asked about, and
 * fills the caller's struct of size bytes with the pattern. */
static cudaError_t get_struct(const char *name, const void *handle, void *out, size_t size)
{
	fake_cudart_record(name);
	receive(handle, 0);
	if (!out)
		return cudaErrorInvalidValue;
	fill_pattern(out, size);
	return cudaSuccess;
}

FAKE_EXPORT cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes,
						 const void *ptr)
{
	return get_struct("cudaPointerGetAttributes", ptr, attributes, sizeof *attributes);
}

FAKE_EXPORT cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
	return get_struct("cudaFuncGetAttributes", func, attr, sizeof *attr);
}

/*
 * The registration entry points nvcc-generated code calls, exported by
 * hand: until the runtime is live each is recorded (cudart_registry.c) and
 * loads nothing; afterwards each forwards through its generated slot, with
 * the stub's module handles mapped to the runtime's.
 *
 * __cudaRegisterFunction is exported by cudart_register_entry.c, which
 * hands what nvcc registers to cudart_registry_function_plain and anything
 * else to cudart_registry_function_slow (cudart_registry.c).
 *
 * __cudaInitModule is where a host access to a __managed__ variable
 * reaches the runtime (nvcc emits __nv_init_managed_rt() before the first
 * one): it is a first call that needs the runtime, so it loads and
 * replays, then forwards with the real handle. The launch entry points
 * (__cudaPushCallConfiguration, __cudaPopCallConfiguration,
 * __cudaGetKernel, __cudaLaunchKernel[_ptsz]) take no module handle and are
 * plain generated forwarders: their first call loads and replays too.
 */
#define _GNU_SOURCE
#include "cudart_registry.h"

CUDASTUB_EXPORT void **__cudaRegisterFatBinary(void *fatCubin)
{
	void **handle = cudart_registry_add_module(fatCubin);

	return handle ? handle : cudastub_cudart_forward___cudaRegisterFatBinary(fatCubin);
}

CUDASTUB_EXPORT void __cudaRegisterFatBinaryEnd(void **fatCubinHandle)
{
	if (!cudart_registry_record(CUDART_RECORD_FAT_BINARY_END, fatCubinHandle, NULL, NULL, NULL,
				    NULL))
		cudastub_cudart_forward___cudaRegisterFatBinaryEnd(
			cudart_registry_forward_handle(fatCubinHandle));
}

CUDASTUB_EXPORT void __cudaUnregisterFatBinary(void **fatCubinHandle)
{
	void **real;

	if (!cudart_registry_unregister(fatCubinHandle, &real))
		cudastub_cudart_forward___cudaUnregisterFatBinary(real);
}

CUDASTUB_EXPORT void __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress,
				       const char *deviceName, int ext, size_t size, int constant,
				       int global)
{
	union cudart_record_more more = {.var = {ext, constant, global, size}};

	if (!cudart_registry_record(CUDART_RECORD_VAR, fatCubinHandle, hostVar, deviceAddress,
				    deviceName, &more))
		cudastub_cudart_forward___cudaRegisterVar(
			cudart_registry_forward_handle(fatCubinHandle), hostVar, deviceAddress,
			deviceName, ext, size, constant, global);
}

CUDASTUB_EXPORT void __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress,
					      char *deviceAddress, const char *deviceName, int ext,
					      size_t size, int constant, int global)
{
	union cudart_record_more more = {.var = {ext, constant, global, size}};

	if (!cudart_registry_record(CUDART_RECORD_MANAGED_VAR, fatCubinHandle, hostVarPtrAddress,
				    deviceAddress, deviceName, &more))
		cudastub_cudart_forward___cudaRegisterManagedVar(
			cudart_registry_forward_handle(fatCubinHandle), hostVarPtrAddress,
			deviceAddress, deviceName, ext, size, constant, global);
}

CUDASTUB_EXPORT char __cudaInitModule(void **fatCubinHandle)
{
	return cudastub_cudart_forward___cudaInitModule(
		cudart_registry_forward_handle(fatCubinHandle));
}

#if CUDASTUB_CUDART_VERSION < 12000
CUDASTUB_EXPORT void __cudaRegisterTexture(void **fatCubinHandle,
					   const struct textureReference *hostVar,
					   const void **deviceAddress, const char *deviceName,
					   int dim, int norm, int ext)
{
	union cudart_record_more more = {.ref = {dim, norm, ext}};

	if (!cudart_registry_record(CUDART_RECORD_TEXTURE, fatCubinHandle, hostVar,
				    (void *)deviceAddress, deviceName, &more))
		cudastub_cudart_forward___cudaRegisterTexture(
			cudart_registry_forward_handle(fatCubinHandle), hostVar, deviceAddress,
			deviceName, dim, norm, ext);
}

CUDASTUB_EXPORT void __cudaRegisterSurface(void **fatCubinHandle,
					   const struct surfaceReference *hostVar,
					   const void **deviceAddress, const char *deviceName,
					   int dim, int ext)
{
	union cudart_record_more more = {.ref = {dim, 0, ext}};

	if (!cudart_registry_record(CUDART_RECORD_SURFACE, fatCubinHandle, hostVar,
				    (void *)deviceAddress, deviceName, &more))
		cudastub_cudart_forward___cudaRegisterSurface(
			cudart_registry_forward_handle(fatCubinHandle), hostVar, deviceAddress,
			deviceName, dim, ext);
}
#endif

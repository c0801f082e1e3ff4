/*
 * Deferred kernel registration: what nvcc's generated code registers before
 * the runtime is loaded, kept as records and replayed into the real runtime
 * on the first call that needs it (cudart_registry.c). cudart_register.c
 * holds the exported entry points that use it.
 */
#ifndef CUDASTUB_CUDART_REGISTRY_H
#define CUDASTUB_CUDART_REGISTRY_H

#include "cudart_stub.h"

/* The registration calls a record can hold; each keeps the arguments as
 * the program passed them (pointers to what the program owns, never a
 * copy of what they point to). */
enum cudart_record_kind {
	CUDART_RECORD_FAT_BINARY, /* the module itself: host is the fat binary */
	CUDART_RECORD_FAT_BINARY_END,
	CUDART_RECORD_FUNCTION,
	CUDART_RECORD_VAR,
	CUDART_RECORD_MANAGED_VAR, /* host is then a void ** */
	CUDART_RECORD_TEXTURE,	   /* 11.x headers only */
	CUDART_RECORD_SURFACE,	   /* 11.x headers only */
};

/* The arguments of a registration beyond the handle, the host and device
 * addresses and the device name. None are kept for a function registered
 * as nvcc registers every one (no thread limit, -1, and no tid, bid,
 * dimension or warp size pointers): see cudart_registry_record. */
union cudart_record_more {
	struct {
		int thread_limit;
		uint3 *tid, *bid;
		dim3 *block_dim, *grid_dim;
		int *warp_size;
	} function;
	struct { /* VAR and MANAGED_VAR */
		int ext, constant, global;
		size_t size;
	} var;
	struct { /* TEXTURE and SURFACE (norm: TEXTURE only) */
		int dim, norm, ext;
	} ref;
};

/*
 * A new module. Returns the handle the program keeps for it: the stub's own
 * while the runtime is not live, or NULL when it is (the caller then
 * forwards to the real runtime and hands out its handle).
 */
void **cudart_registry_add_module(void *fat_binary);

/* Records a call on a module (more NULL: a function's defaults, or a
 * call with nothing more); 1 if recorded, 0 if the runtime is live and the
 * caller must forward (with cudart_registry_real_handle). */
int cudart_registry_record(enum cudart_record_kind kind, void **handle, const void *host,
			   void *device, const char *device_name,
			   const union cudart_record_more *more);

/* __cudaRegisterFunction for a function registered with nvcc's defaults,
 * as cudart_register_entry.c finds it (MAGMA records 3,736 such): recorded
 * without a call or a saved register on a module being recorded; anything
 * else goes on to cudart_registry_function_slow. */
void cudart_registry_function_plain(void **handle, const char *host_fun, char *device_fun,
				    const char *device_name);

/* The rest of __cudaRegisterFunction: recorded with
 * cudart_registry_record, or forwarded. */
void cudart_registry_function_slow(void **handle, const char *host_fun, char *device_fun,
				   const char *device_name, int thread_limit, uint3 *tid,
				   uint3 *bid, dim3 *block_dim, dim3 *grid_dim, int *warp_size);

/* The runtime's handle for what the program holds: the replayed module's
 * real handle for one of the stub's, NULL for one of the stub's that was
 * never replayed (no runtime), anything else unchanged. */
void **cudart_registry_real_handle(void **handle);
/* The handle to forward with: the runtime loaded first (or known to be
 * missing, when the forwarder's fallback ignores the handle). */
void **cudart_registry_forward_handle(void **handle);

/* __cudaUnregisterFatBinary: 1 if the module was never replayed (its
 * records are released; nothing to forward), else 0 with *real set to the
 * handle to forward. */
int cudart_registry_unregister(void **handle, void ***real);

/* The loader's after_load hook: replays every record, once. */
void cudart_registry_replay(struct cudastub_library *lib);

#endif

/*
 * cudaSignalExternalSemaphoresAsync / cudaWaitExternalSemaphoresAsync: the
 * same function under the name each major gives it.
 *
 *   11.2+, 12.x cudaError_t cudaSignalExternalSemaphoresAsync_v2[_ptsz](
 *                       const cudaExternalSemaphore_t *extSemArray,
 *                       const struct cudaExternalSemaphoreSignalParams *paramsArray,
 *                       unsigned int numExtSems, cudaStream_t stream);
 *               (and _Wait_ with struct cudaExternalSemaphoreWaitParams)
 *   13.0        cudaSignalExternalSemaphoresAsync[_ptsz] and
 *               cudaWaitExternalSemaphoresAsync[_ptsz] with the same prototypes;
 *               the _v2 names are gone.
 *
 * The element structs did not grow in 13.0: cudaExternalSemaphoreSignalParams
 * and cudaExternalSemaphoreWaitParams are 144 bytes in 11.8, 12.4 and 13.0,
 * with the same fields at the same offsets (asserted below against the
 * generated layout constants and, for the nested fields the constants do
 * not list, the records' numbers), and identical text in the three
 * driver_types.h; their ABI records agree in all three majors (the layout
 * constants list them because this adapter reaches them). So the arrays
 * are passed on as they are, with nothing copied; what needs the adapter
 * is the names, not the layouts.
 *
 * What 11.x and 12.x export under the plain names is another function: the
 * 11.0 form, whose _v1 element is 32 bytes (params without reserved[12],
 * and no reserved[16]). No stub of another ABI calls it: a 144-byte array
 * handed to it would be misread, and a 32-byte one handed to 13 overrun.
 *
 *   13-ABI stub on 12 or 11      the runtime's _v2[_ptsz], as it is
 *   12-/11-ABI _v2 on 13         13's plain name[_ptsz], as it is
 *   12-ABI _v2 on 11, and back   the runtime's _v2[_ptsz], as it is
 */
#define _GNU_SOURCE
#include <stddef.h>

#include "adapt_loaded.h"
#include "cudart_layouts.h"

#define SAME_LAYOUT(type, m)                                                                       \
	_Static_assert(                                                                            \
		sizeof(struct type) == CUDASTUB_LAYOUT_##type##_##m##_SIZE &&                      \
			offsetof(struct type, params) == CUDASTUB_LAYOUT_##type##_##m##_params &&  \
			offsetof(struct type, flags) == CUDASTUB_LAYOUT_##type##_##m##_flags &&    \
			offsetof(struct type, reserved) ==                                         \
				CUDASTUB_LAYOUT_##type##_##m##_reserved,                           \
		#type " differs from CUDA " #m "'s")
SAME_LAYOUT(cudaExternalSemaphoreSignalParams, 11);
SAME_LAYOUT(cudaExternalSemaphoreSignalParams, 12);
SAME_LAYOUT(cudaExternalSemaphoreSignalParams, 13);
SAME_LAYOUT(cudaExternalSemaphoreWaitParams, 11);
SAME_LAYOUT(cudaExternalSemaphoreWaitParams, 12);
SAME_LAYOUT(cudaExternalSemaphoreWaitParams, 13);

/* The nested fields, as the 11.8, 12.4 and 13.0 records all give them. */
#define AT(type, field, offset)                                                                    \
	_Static_assert(offsetof(struct type, field) == (offset), #type "." #field)
AT(cudaExternalSemaphoreSignalParams, params.fence.value, 0);
AT(cudaExternalSemaphoreSignalParams, params.nvSciSync.fence, 8);
AT(cudaExternalSemaphoreSignalParams, params.keyedMutex.key, 16);
AT(cudaExternalSemaphoreSignalParams, params.reserved, 24);
AT(cudaExternalSemaphoreWaitParams, params.fence.value, 0);
AT(cudaExternalSemaphoreWaitParams, params.nvSciSync.fence, 8);
AT(cudaExternalSemaphoreWaitParams, params.keyedMutex.key, 16);
AT(cudaExternalSemaphoreWaitParams, params.keyedMutex.timeoutMs, 24);
AT(cudaExternalSemaphoreWaitParams, params.reserved, 32);

/* The loaded runtime's name for the function the caller calls `name`:
 * 13's plain name, or 11's and 12's _v2. */
static void *same_function(const char *name, const char *plain, const char *v2)
{
	int major = adapt_loaded_major();
	const char *target = major == 13 ? plain : major == 12 || major == 11 ? v2 : NULL;

	return target ? adapt_chosen(name, target, adapt_loaded_symbol(target)) : NULL;
}

#if CUDART_VERSION >= 13000

cudaSignalExternalSemaphoresAsync_fn cudastub_cudart_adapt_cudaSignalExternalSemaphoresAsync(void)
{
	cudaSignalExternalSemaphoresAsync_fn fn;

	*(void **)&fn = same_function("cudaSignalExternalSemaphoresAsync", NULL,
				      "cudaSignalExternalSemaphoresAsync_v2");
	return fn;
}

cudaSignalExternalSemaphoresAsync_ptsz_fn
cudastub_cudart_adapt_cudaSignalExternalSemaphoresAsync_ptsz(void)
{
	cudaSignalExternalSemaphoresAsync_ptsz_fn fn;

	*(void **)&fn = same_function("cudaSignalExternalSemaphoresAsync_ptsz", NULL,
				      "cudaSignalExternalSemaphoresAsync_v2_ptsz");
	return fn;
}

cudaWaitExternalSemaphoresAsync_fn cudastub_cudart_adapt_cudaWaitExternalSemaphoresAsync(void)
{
	cudaWaitExternalSemaphoresAsync_fn fn;

	*(void **)&fn = same_function("cudaWaitExternalSemaphoresAsync", NULL,
				      "cudaWaitExternalSemaphoresAsync_v2");
	return fn;
}

cudaWaitExternalSemaphoresAsync_ptsz_fn
cudastub_cudart_adapt_cudaWaitExternalSemaphoresAsync_ptsz(void)
{
	cudaWaitExternalSemaphoresAsync_ptsz_fn fn;

	*(void **)&fn = same_function("cudaWaitExternalSemaphoresAsync_ptsz", NULL,
				      "cudaWaitExternalSemaphoresAsync_v2_ptsz");
	return fn;
}

#else /* an 11- or 12-ABI caller of the _v2 names */

cudaSignalExternalSemaphoresAsync_v2_fn
cudastub_cudart_adapt_cudaSignalExternalSemaphoresAsync_v2(void)
{
	cudaSignalExternalSemaphoresAsync_v2_fn fn;

	*(void **)&fn = same_function("cudaSignalExternalSemaphoresAsync_v2",
				      "cudaSignalExternalSemaphoresAsync",
				      "cudaSignalExternalSemaphoresAsync_v2");
	return fn;
}

cudaSignalExternalSemaphoresAsync_v2_ptsz_fn
cudastub_cudart_adapt_cudaSignalExternalSemaphoresAsync_v2_ptsz(void)
{
	cudaSignalExternalSemaphoresAsync_v2_ptsz_fn fn;

	*(void **)&fn = same_function("cudaSignalExternalSemaphoresAsync_v2_ptsz",
				      "cudaSignalExternalSemaphoresAsync_ptsz",
				      "cudaSignalExternalSemaphoresAsync_v2_ptsz");
	return fn;
}

cudaWaitExternalSemaphoresAsync_v2_fn cudastub_cudart_adapt_cudaWaitExternalSemaphoresAsync_v2(void)
{
	cudaWaitExternalSemaphoresAsync_v2_fn fn;

	*(void **)&fn = same_function("cudaWaitExternalSemaphoresAsync_v2",
				      "cudaWaitExternalSemaphoresAsync",
				      "cudaWaitExternalSemaphoresAsync_v2");
	return fn;
}

cudaWaitExternalSemaphoresAsync_v2_ptsz_fn
cudastub_cudart_adapt_cudaWaitExternalSemaphoresAsync_v2_ptsz(void)
{
	cudaWaitExternalSemaphoresAsync_v2_ptsz_fn fn;

	*(void **)&fn = same_function("cudaWaitExternalSemaphoresAsync_v2_ptsz",
				      "cudaWaitExternalSemaphoresAsync_ptsz",
				      "cudaWaitExternalSemaphoresAsync_v2_ptsz");
	return fn;
}

#endif

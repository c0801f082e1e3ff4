/*
 * The runtime's pure functions, answered by the stub itself: their result
 * depends on their arguments only, so nothing is searched or loaded for
 * them (spec: in_place). CUDA 11 code with namespace-scope texture<>
 * references calls cudaCreateChannelDesc from its constructors, before
 * main; a patched program must not map the runtime for it.
 *
 * NVIDIA's runtime packs the five arguments as they are, whatever their
 * values (tests/cudart/test_in_place.c compares a sweep against it).
 */
#define _GNU_SOURCE
#include "cudart_stub.h"

struct cudaChannelFormatDesc
cudastub_cudart_fallback_cudaCreateChannelDesc(int x, int y, int z, int w,
					       enum cudaChannelFormatKind f)
{
	struct cudaChannelFormatDesc desc = {.x = x, .y = y, .z = z, .w = w, .f = f};

	return desc;
}

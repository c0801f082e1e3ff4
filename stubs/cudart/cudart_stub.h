/* What the runtime stub's hand-written and generated halves share. */
#ifndef CUDASTUB_CUDART_STUB_H
#define CUDASTUB_CUDART_STUB_H

/* The runtime's declarations for the stub's ABI, from its record
 * (generated/cudart/cu<major>/): its types, enums and prototypes, the
 * private registration entry points nvcc's code calls among them. */
#include "cudart_declarations.h"

#include "loader.h"
#include "cudart_generated.h"

/* CUDART_VERSION of the headers the stub's ABI was recorded from (12040
 * for the 12.4 record of the 12 ABI): what the stub tells the runtime it
 * was built for, where a call asks. */
#define CUDASTUB_CUDART_VERSION (CUDASTUB_ABI_MAJOR * 1000 + CUDASTUB_ABI_MINOR * 10)

extern struct cudastub_library cudastub_cudart_library;

#endif

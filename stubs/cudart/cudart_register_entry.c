/*
 * __cudaRegisterFunction's entry, in assembly: it tells a function
 * registered as nvcc registers every one (thread limit -1, and no tid,
 * bid, dimension or warp size pointers) from any other and jumps on, to
 * cudart_registry_function_plain or to cudart_registry_function_slow,
 * with every argument where the caller left it.
 *
 * Why not C: a recorded kernel may cost the stub no more than a twentieth
 * of what NVIDIA's runtime spends registering it (cudart_registry.c,
 * invariant 9). Four of the ten arguments are on the stack on x86-64 (two
 * on aarch64), and a C function that tests them and may tail-call with all
 * ten keeps them in saved registers and stores them back: 16 instructions
 * where these take 9.
 *
 * It keeps no frame, so its unwind information is the entry's (the caller's
 * return address on the stack, or in x30): .cfi_startproc alone says so,
 * for a profiler or debugger that stops inside it.
 *
 * The instructions are each architecture's, with its other assembly:
 * stubs/arch/<arch>/cudart_register_entry_<arch>.h. Included here, they
 * are assembled into this file's object, as C's own code would be.
 */
#if defined(__x86_64__)
#include "x86_64/cudart_register_entry_x86_64.h"
#elif defined(__aarch64__)
#include "aarch64/cudart_register_entry_aarch64.h"
#else
#error "cudastub supports x86-64 and aarch64 only: stubs/arch/ has no __cudaRegisterFunction entry for this architecture"
#endif

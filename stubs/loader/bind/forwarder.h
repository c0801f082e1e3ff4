/*
 * The shape of every exported forwarder; a library's table
 * (table_define.h) names it once per row. What is shared lives here: the
 * slots, their section and order, and the symbols around the
 * instructions. The instructions are each architecture's, in
 * stubs/arch/<arch>/forwarder_<arch>.h, which define CUDASTUB_ASM_JUMP,
 * CUDASTUB_ASM_RESOLVE, CUDASTUB_BRANCH_TARGET, CUDASTUB_ASM_ALIGN and
 * CUDASTUB_ASM_TYPE.
 *
 * After its first call an export reaches the real function through one
 * indirect jump through its slot, the least a stub that stays lazy can do:
 *   x86-64:   name:  jmp *slot(%rip)
 *             (endbr64 first when the build enables indirect-branch tracking)
 *   aarch64:  name:  adrp x16, slot
 *                    ldr  x16, [x16, :lo12:slot]
 *                    br   x16
 *             (bti c first when the build enables branch protection)
 *
 * The slot starts at the export's resolve stub, which puts the slot's own
 * address in a scratch register (%r11, x17) and jumps to
 * cudastub_asm_resolve (stubs/arch/<arch>/loader_resolve_<arch>.S). That
 * resolver saves every register that can carry an argument, calls
 * cudastub_bind_slot (loader_bind.c), which finds the slot's row in its
 * library's table, asks the loader once and stores the answer in the slot,
 * restores them and jumps to the answer: the function reached sees the
 * caller's arguments, stack, struct-return pointer and return address
 * untouched, whatever its prototype.
 *
 * The slots of one library are one array, in the order of its rows: each
 * row's slot is emitted here into the section .data.cudastub_slots, after
 * the array's start (CUDASTUB_SLOTS_BEGIN), in the order the table's
 * translation unit names them, which the assembler keeps. The bind turns a
 * slot's address back into its row by that order alone.
 *
 * Only x86-64 and aarch64 are supported: an export with no prototype (and
 * the cost contract) needs this assembly, and a C wrapper per export was a
 * second path no supported build compiled.
 */
#ifndef CUDASTUB_FORWARDER_H
#define CUDASTUB_FORWARDER_H

#if defined(__x86_64__)
#include "x86_64/forwarder_x86_64.h"
#elif defined(__aarch64__)
#include "aarch64/forwarder_aarch64.h"
#else
#error "cudastub supports x86-64 and aarch64 only: stubs/arch/ has no export shape for this architecture (see docs/performance.md)"
#endif

/* The names, as strings, of a row's slot and resolve stub (lib and name
 * are string literals). */
#define CUDASTUB_SLOT_NAME(lib, name)	 "cudastub_" lib "_slot_" name
#define CUDASTUB_RESOLVE_NAME(lib, name) "cudastub_" lib "_resolve_" name

/* The assembly below reads one directive a line, as written by hand. */
/* clang-format off */

/* The start of library lib's slot array, cudastub_<lib>_slots. */
#define CUDASTUB_SLOTS_BEGIN(lib)                                                   \
	__asm__("\t.pushsection .data.cudastub_slots, \"aw\", "                     \
		CUDASTUB_ASM_TYPE("progbits") "\n"                                 \
		"\t.p2align 3\n"                                                    \
		"\t.globl cudastub_" lib "_slots\n"                                 \
		"\t.hidden cudastub_" lib "_slots\n"                                \
		"cudastub_" lib "_slots:\n"                                         \
		"\t.popsection\n")

/* A row's slot, the next in the array, aimed at its resolve stub; and the
 * resolve stub, reached by the jump through the slot (so a landing pad). */
#define CUDASTUB_ASM_SLOT_AND_RESOLVE(lib, name)                                    \
	"\t.pushsection .data.cudastub_slots, \"aw\", "                             \
	CUDASTUB_ASM_TYPE("progbits") "\n"                                         \
	"\t.type " CUDASTUB_SLOT_NAME(lib, name) ", "                               \
	CUDASTUB_ASM_TYPE("object") "\n"                                           \
	"\t.size " CUDASTUB_SLOT_NAME(lib, name) ", 8\n"                            \
	CUDASTUB_SLOT_NAME(lib, name) ":\n"                                         \
	"\t.quad " CUDASTUB_RESOLVE_NAME(lib, name) "\n"                            \
	"\t.popsection\n"                                                           \
	"\t.pushsection .text\n"                                                    \
	CUDASTUB_ASM_ALIGN                                                          \
	"\t.type " CUDASTUB_RESOLVE_NAME(lib, name) ", "                            \
	CUDASTUB_ASM_TYPE("function") "\n"                                         \
	CUDASTUB_RESOLVE_NAME(lib, name) ":\n"                                      \
	CUDASTUB_BRANCH_TARGET                                                      \
	CUDASTUB_ASM_RESOLVE(CUDASTUB_SLOT_NAME(lib, name))                         \
	"\t.size " CUDASTUB_RESOLVE_NAME(lib, name) ", .-"                          \
	CUDASTUB_RESOLVE_NAME(lib, name) "\n"                                       \
	"\t.popsection\n"

/* The exported function name, jumping through its slot; then the slot and
 * the resolve stub. */
#define CUDASTUB_ROW_FORWARDER(lib, name)                                           \
	__asm__("\t.pushsection .text\n"                                            \
		CUDASTUB_ASM_ALIGN                                                  \
		"\t.globl " name "\n"                                               \
		"\t.type " name ", " CUDASTUB_ASM_TYPE("function") "\n"             \
		name ":\n"                                                          \
		CUDASTUB_BRANCH_TARGET                                              \
		CUDASTUB_ASM_JUMP(CUDASTUB_SLOT_NAME(lib, name))                    \
		"\t.size " name ", .-" name "\n"                                     \
		"\t.popsection\n"                                                   \
		CUDASTUB_ASM_SLOT_AND_RESOLVE(lib, name))

/* A row whose export is hand-written C (spec: handwritten): only the slot
 * and its resolve stub; the C export calls through the slot after its own
 * work (cudastub_<lib>_forward_<name>, generated). */
#define CUDASTUB_ROW_SLOT_ONLY(lib, name) __asm__(CUDASTUB_ASM_SLOT_AND_RESOLVE(lib, name))

/* clang-format on */

#endif /* CUDASTUB_FORWARDER_H */

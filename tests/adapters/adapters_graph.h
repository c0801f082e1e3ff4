/*
 * The suites of the graph-edge, device-property and struct-layout adapters
 * (stubs/cudart/adapt_{graph_edges,capture_edges,graph_node_params,
 * device_props,pointer_attributes,func_attributes,texture_descs,
 * external_memory,pool_props,launch_attributes}.c). One executable per
 * family.
 *
 * Each case runs a child scenario: the stub of one ABI (the build's 13, or
 * the 12- and 11-ABI stubs of tests/abi_stubs.cmake), opened by path, loading one
 * fake runtime (tests/cudart/fakes/cudart-<M>, or a variant). The fakes log their calls and
 * keep what they were given (fake_cudart_graph.c, fake_cudart_props.c, fake_cudart_descs.c). The
 * scenario checks as it goes: each failed expectation prints a "fail=" line, and the child exits 1.
 * The structs are read at the offsets of the generated layout constants (cudart_layouts.h),
 * independently of the adapters' own struct definitions.
 */
#ifndef CUDASTUB_TESTS_ADAPTERS_GRAPH_H
#define CUDASTUB_TESTS_ADAPTERS_GRAPH_H

#include <CUnit/CUnit.h>
#include <stddef.h>

#include "cudart_layout_tables.h"
#include "cudart_layouts.h"
#include "fake_cudart_graph.h"
#include "fake_cudart_props.h"
#include "test_support.h"

/* ---- parent ---- */

/* Runs scenario with the stub of ABI stub_abi over the fake runtime fake
 * ("11", "12", "13", or a variant built here: "12.2", a 12.x without the
 * edge-data _v2 forms; "11-plain", an 11.x without the _v2 texture forms) and asserts that every
 * expectation held. A missing fixture is reported (a failure in CI, a SKIP elsewhere). */
void ag_run(int stub_abi, const char *fake, const char *scenario);

/* Registers a suite, or prints SKIP when the build is not the 13.0 ABI
 * these cases are written for; NULL then. */
CU_pSuite ag_suite(const char *name);

/* ---- child ---- */

/* The stub's export name; exits when missing. */
void *ag_stub(const char *name);
/* The loaded fake's export name (its records), after the stub loaded it;
 * exits when missing. */
void *ag_fake(const char *name);
/* The fake's call log position now; whether name was called since mark. */
int ag_mark(void);
int ag_called_since(int mark, const char *name);
/* Whether the fake was called at all since mark. */
int ag_any_call_since(int mark);

/* Checks: a failure prints where and what, and is counted. */
#define AG_EXPECT(cond) ag_expect((cond), __FILE__, __LINE__, #cond)
void ag_expect(int ok, const char *file, int line, const char *what);
/* Exit code of a scenario: 0 when every expectation held. Frees the
 * buffers of ag_guarded. */
int ag_finish(void);

/* Byte checks on a struct the adapter wrote or the fake received:
 * bytes [at, at + size) of p hold FAKE_PATTERN(from + k), or zeros. */
int ag_pattern_at(const void *p, size_t at, size_t from, size_t size);
int ag_zero_at(const void *p, size_t at, size_t size);

/*
 * The same, for a struct the stub copied field by field into or out of the
 * runtime's layout (stubs/common/layout.h): padding is never carried, so a
 * caller's struct is filled, and a copy checked, over the fields alone.
 * layout is the generated table of the struct's major (cudart_layout_tables.h,
 * the same records the layout constants come from).
 *   ag_fill_fields:  the bytes of every field below upto hold
 *                    FAKE_PATTERN(offset), every other byte of the layout 0;
 *   ag_fields_at:    whether p holds exactly that.
 */
void ag_fill_fields(void *p, const struct cudastub_layout *layout, size_t upto);
int ag_fields_at(const void *p, const struct cudastub_layout *layout, size_t upto);
/* Whether p (layout to) holds what the runtime's struct (layout from),
 * FAKE_PATTERN over its whole size, reaches the caller as: each field both
 * layouts have, up to the smaller size (nested structs field by field), at
 * to's offset; every other byte 0. */
int ag_copied_at(const void *p, const struct cudastub_layout *to,
		 const struct cudastub_layout *from);
/* Whether byte at of layout lies in one of its fields (not padding). */
int ag_in_field(const struct cudastub_layout *layout, size_t at);
/* Whether the runtime was given size bytes holding p's first common bytes
 * and zeros after them (a copy, or p itself). */
int ag_received_as(const struct fake_received *got, const void *p, size_t size, size_t common);

/* A caller's struct of size bytes with a guard after it: filled with
 * AG_FILL before the call, the guard checked after; valid until ag_finish. */
#define AG_GUARD 64
#define AG_FILL	 0xa5
void *ag_guarded(size_t size);
int ag_guard_intact(const void *p, size_t size);

#endif

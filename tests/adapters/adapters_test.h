/*
 * The suites of the runtime stub's adapters (stubs/cudart/adapt_*.c) and of
 * its struct translations (the spec's `layout` and `same_function` lines in
 * stubs/cudart/cudart.spec; stubs/cudart/layout/layout.c copies them):
 * one executable per adapter family or translated struct.
 *
 * A suite is a table of cases (struct ad_case, ad_main). Each case runs a
 * child scenario: the stub of one ABI (the build's 13, or the 12- and
 * 11-ABI stubs of tests/abi_stubs.cmake), opened by path, loading one fake
 * runtime (tests/cudart/fakes: cudart-<M>, or the variants
 * cudart-12.2 and cudart-11-plain). The fakes log their calls and keep what
 * they were given (fake_cudart_graph.c, fake_cudart_props.c,
 * fake_cudart_descs.c, fake_cudart_memory.c). A scenario is checked in one
 * of two ways:
 *
 *  - in the child, as it goes (AD_CHECKED): each failed AD_EXPECT
 *    prints a "fail=" line, ad_finish gives the exit code, and the parent
 *    asserts that none failed. Structs are read at the offsets of the
 *    generated layout constants (cudart_layouts.h) and filled and compared
 *    over the generated layout tables (cudart_layout_tables.h),
 *    independently of the stub's own struct definitions;
 *  - in the parent (AD_REPORTED): the scenario makes calls in named
 *    steps; after each, ad_report prints
 *      <step>.rc      what the stub returned
 *      <step>.calls   the fake's functions called since the previous step,
 *                     as ",name,name,"
 *      <step>.argN    the last call's arguments (fake_memory_args)
 *    and the scenario adds what the outputs held. The case's check
 *    function reads them with AD_EXPECT_VALUE, AD_CALLED and the like.
 */
#ifndef CUDASTUB_TESTS_ADAPTERS_TEST_H
#define CUDASTUB_TESTS_ADAPTERS_TEST_H

#include <CUnit/CUnit.h>
#include <cuda_runtime_api.h>
#include <stddef.h>

#include "cudart_layout_tables.h"
#include "cudart_layouts.h"
#include "fake_cudart_graph.h"
#include "fake_cudart_props.h"
#include "test_support.h"

/* What fake_cudart_memory.c answers with (see there). */
#define AD_BAD_GRAPH	   0xbad
#define AD_ERROR_NODE	   0xe7
#define AD_ERROR_FROM_NODE 0xf7
#define AD_GRAPH_EXEC	   0xe8e
#define AD_GRAPH	   0x6a0

/* ---- parent ---- */

/*
 * A suite is one table of cases, each written once: it gives both the
 * child's scenario dispatch and the CUnit tests. AD_TEST names a CUnit test,
 * made of the cases after it up to the next test's row; each case runs its
 * scenario in a child with the stub of ABI stub_abi over the fake runtime
 * fake ("11", "12", "13", or a variant: "12.2", a 12.x without the
 * edge-data _v2 forms; "11-plain", an 11.x without the _v2 texture forms).
 * A missing fixture is reported (a failure in CI, a SKIP elsewhere).
 *
 *   AD_CHECKED(stub_abi, fake, scenario): the scenario checks in the child,
 *     and the parent asserts that every expectation held and it exited 0;
 *   AD_REPORTED(name, stub_abi, fake, scenario, check): a CUnit test of
 *     its own, of this one case: the scenario reports to the parent
 *     (CUDASTUB_DEBUG=1), which asserts that it exited 0 and then runs
 *     check on its output.
 *
 * The table ends in AD_END. A scenario named by several cases is one
 * function: it reads the case's majors with ad_stub_abi and ad_fake_major.
 */
struct ad_case {
	const char *test; /* the CUnit test's name; NULL in AD_CHECKED */
	int stub_abi;
	const char *fake;
	const char *scenario;
	int (*run)(void);
	void (*check)(const struct ts_child *c); /* NULL: checked in the child */
};
#define AD_TEST(name)                                                                              \
	{                                                                                          \
		.test = (name)                                                                     \
	}
#define AD_CHECKED(abi, fake_name, fn)                                                             \
	{                                                                                          \
		.stub_abi = (abi), .fake = (fake_name), .scenario = #fn, .run = fn                 \
	}
#define AD_REPORTED(name, abi, fake_name, fn, check_fn)                                            \
	{                                                                                          \
		.test = (name), .stub_abi = (abi), .fake = (fake_name), .scenario = #fn,           \
		.run = fn, .check = check_fn                                                       \
	}
#define AD_END                                                                                     \
	{                                                                                          \
		.test = NULL                                                                       \
	}

/* main() of a suite: the child's scenario or, without --child, the CUnit
 * suite suite_name of cases' tests (ts_main). */
int ad_main(int argc, char **argv, const char *suite_name, const struct ad_case *cases);
/* The main of a suite's binary, ending its file (without a semicolon). */
#define AD_MAIN(suite_name, cases)                                                                 \
	int main(int argc, char **argv)                                                            \
	{                                                                                          \
		return ad_main(argc, argv, suite_name, cases);                                     \
	}

/* Expectations on a reported case's output; failures name the case. */
#define AD_EXPECT_VALUE(c, key, want) ad_expect_value_at(__FILE__, __LINE__, (c), (key), (want))
#define AD_CALLED(c, step, fn)	      ad_called_at(__FILE__, __LINE__, (c), (step), (fn), 1)
#define AD_NOT_CALLED(c, step, fn)    ad_called_at(__FILE__, __LINE__, (c), (step), (fn), 0)
/* The step called nothing in the fake. */
#define AD_NO_CALLS(c, step)	 ad_called_at(__FILE__, __LINE__, (c), (step), NULL, 0)
#define AD_SAME(c, key_a, key_b) ad_same_at(__FILE__, __LINE__, (c), (key_a), (key_b))
void ad_expect_value_at(const char *file, int line, const struct ts_child *c, const char *key,
			long long want);
void ad_called_at(const char *file, int line, const struct ts_child *c, const char *step,
		  const char *fn, int want); /* fn NULL: nothing at all */
void ad_same_at(const char *file, int line, const struct ts_child *c, const char *key_a,
		const char *key_b);
/* The same on the key "<step>.<field>", for checks repeated over steps. */
#define AD_STEP_VALUE(c, step, field, want)                                                        \
	ad_step_value_at(__FILE__, __LINE__, (c), (step), (field), (want))
#define AD_STEP_SAME(c, step, field, key_b)                                                        \
	ad_step_same_at(__FILE__, __LINE__, (c), (step), (field), (key_b))
void ad_step_value_at(const char *file, int line, const struct ts_child *c, const char *step,
		      const char *field, long long want);
void ad_step_same_at(const char *file, int line, const struct ts_child *c, const char *step,
		     const char *field, const char *key_b);

/* ---- child ---- */

/* The case's stub ABI, and the major of its fake (12 for "12.2"). */
int ad_stub_abi(void);
int ad_fake_major(void);

/* The stub's export name (the stub is AD_STUB); exits when missing. */
void *ad_stub_symbol(const char *name);
/* Whether the stub exports name. */
int ad_stub_exports(const char *name);
/* The loaded fake's export name (its records), after the stub loaded it
 * (the stub's first call is made here if need be); exits when missing. */
void *ad_fake_symbol(const char *name);

/* Reporting to the parent: prints <step>.rc, .calls and .argN, as above. */
void ad_report(const char *step, int rc);

/* Checking in the child. The fake's call log position now; whether name
 * was called since mark; whether the fake was called at all since mark. */
int ad_mark(void);
int ad_called_since(int mark, const char *name);
int ad_any_call_since(int mark);

/* Checks: a failure prints where and what, and is counted. */
#define AD_EXPECT(cond) ad_expect((cond), __FILE__, __LINE__, #cond)
void ad_expect(int ok, const char *file, int line, const char *what);
/* Exit code of a checked scenario: 0 when every expectation held. Frees
 * the buffers of ad_guarded. */
int ad_finish(void);

/* Byte checks on a struct the adapter wrote or the fake received:
 * bytes [at, at + size) of p hold FAKE_PATTERN(from + k), or zeros. */
int ad_pattern_at(const void *p, size_t at, size_t from, size_t size);
int ad_zero_at(const void *p, size_t at, size_t size);

/*
 * The same, for a struct the stub copied field by field into or out of the
 * runtime's layout (stubs/cudart/layout/layout.h): padding is never carried, so a
 * caller's struct is filled, and a copy checked, over the fields alone.
 * layout is the generated table of the struct's major (cudart_layout_tables.h,
 * the same records the layout constants come from).
 *   ad_fill_fields:  the bytes of every field below upto hold
 *                    FAKE_PATTERN(offset), every other byte of the layout 0;
 *   ad_fields_at:    whether p holds exactly that.
 */
void ad_fill_fields(void *p, const struct cudastub_layout *layout, size_t upto);
int ad_fields_at(const void *p, const struct cudastub_layout *layout, size_t upto);
/* Whether p (layout to) holds what the runtime's struct (layout from),
 * FAKE_PATTERN over its whole size, reaches the caller as: each field both
 * layouts have, up to the smaller size (nested structs field by field), at
 * to's offset; every other byte 0. */
int ad_copied_at(const void *p, const struct cudastub_layout *to,
		 const struct cudastub_layout *from);
/* Whether byte at of layout lies in one of its fields (not padding). */
int ad_in_field(const struct cudastub_layout *layout, size_t at);
/* Whether the runtime was given size bytes holding p's first common bytes
 * and zeros after them (a copy, or p itself). */
int ad_received_as(const struct fake_received *got, const void *p, size_t size, size_t common);

/* A caller's struct of size bytes with a guard after it: filled with
 * AD_FILL before the call, the guard checked after; valid until ad_finish. */
#define AD_GUARD 64
#define AD_FILL	 0xa5
void *ad_guarded(size_t size);
int ad_guard_intact(const void *p, size_t size);

#endif

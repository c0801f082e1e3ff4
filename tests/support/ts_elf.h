/*
 * What a shared library exports, and what its exported functions are made
 * of: shared by the suites that check a stub's exports (tests/nvrtc,
 * tests/cudart, tests/cuda_driver).
 *
 *   names    a set of symbol names, read from a list file or from nm -D
 *   shapes   objdump's view of each function: is it a tail jump through a
 *            slot, the stub's cost contract?
 */
#ifndef CUDASTUB_TS_ELF_H
#define CUDASTUB_TS_ELF_H

#include <stddef.h>

/* A set of names, in the order they were added, without duplicates. */
struct ts_names {
	size_t count, capacity;
	char **names;
};

void ts_names_free(struct ts_names *s); /* and empties it */
int ts_names_has(const struct ts_names *s, const char *name);
void ts_names_add(struct ts_names *s, const char *name);

/* Adds each line of path, less blank and '#' lines. 0, or -1 if unreadable. */
int ts_names_read_list(struct ts_names *s, const char *path);

/*
 * Adds what `nm -D --defined-only lib` lists, each name without its
 * "@version" suffix. With node (a version node such as "libcudart.so.13"),
 * the absolute symbol naming the node is left out, and *unversioned counts
 * the symbols that are not "name@@node". 0, or -1 if nm failed.
 */
int ts_names_exported(struct ts_names *s, const char *lib, const char *node, int *unversioned);

/*
 * Adds each defined dynamic symbol of lib as nm -D --defined-only shows it,
 * "<type> <name>[@@<node>]" ("T cudaMalloc@@libcudart.so.13"): what a
 * program or the dynamic loader can bind to, versions and kinds included.
 * Reads any architecture's ELF file. 0, or -1 if nm failed.
 */
int ts_names_dynamic_symbols(struct ts_names *s, const char *lib);

/*
 * The entries of one tag of lib's dynamic section, as `readelf -d` lists
 * them: "NEEDED" and "SONAME" add the bracketed name, any other tag
 * ("VERDEF") its value. 0, or -1 if readelf failed.
 */
int ts_names_dynamic(struct ts_names *s, const char *lib, const char *tag);

/*
 * A CUnit failure for each name of want missing from got and each name of
 * got missing from want (the first few named, then one with the count),
 * each message starting with label. Returns the number of differences.
 */
int ts_names_expect_same_at(const struct ts_names *want, const struct ts_names *got,
			    const char *label, const char *file, unsigned line);
#define TS_EXPECT_SAME_NAMES(want, got, label)                                                     \
	ts_names_expect_same_at(want, got, label, __FILE__, __LINE__)

/* ---- the instructions of a function ---- */

enum ts_shape_kind {
	TS_SHAPE_OTHER = 0,
	/* x86-64: [endbr64] mov X(%rip),%reg; jmp *%reg, then padding */
	TS_SHAPE_SLOT_JUMP,
	/* x86-64: [endbr64] jmp *X(%rip), then padding */
	TS_SHAPE_RIP_JUMP,
	/* aarch64: [bti c] adrp xN, PAGE; ldr xN, [xN, #OFF]; br xN, then padding */
	TS_SHAPE_PAGE_JUMP
};

/*
 * The forwarder of this architecture (stubs/loader/bind/forwarder.h): its shape,
 * how a message names it, and how many instructions it is without a
 * branch-target landing pad. TS_FORWARDER_KNOWN is 0 where forwarder.h
 * has no assembly.
 */
#if defined(__x86_64__)
#define TS_FORWARDER_KNOWN 1
#define TS_FORWARDER_SHAPE TS_SHAPE_RIP_JUMP
#define TS_FORWARDER_WORDS "one jmp *slot(%rip)"
#define TS_FORWARDER_INSNS 1
#elif defined(__aarch64__)
#define TS_FORWARDER_KNOWN 1
#define TS_FORWARDER_SHAPE TS_SHAPE_PAGE_JUMP
#define TS_FORWARDER_WORDS "adrp/ldr/br through its slot"
#define TS_FORWARDER_INSNS 3
#else
#define TS_FORWARDER_KNOWN 0
#define TS_FORWARDER_SHAPE TS_SHAPE_OTHER
#define TS_FORWARDER_WORDS "(no forwarder shape on this architecture)"
#define TS_FORWARDER_INSNS 0
#endif

enum { TS_INSN = 128, TS_MAX_INSNS = 64 };

/* Instructions as normalize leaves them ("mov 0x98c9(%rip),%rax",
 * "adrp x16, 0x59000", "ldr x16, [x16, #304]"). */
enum ts_shape_kind ts_shape_of(char insns[][TS_INSN], int n);

struct ts_function_shape {
	const char *name; /* without "@version" */
	enum ts_shape_kind kind;
	int count; /* instructions, padding left out */
	/* the slot X: the symbol objdump names ("cudaMalloc_slot",
	 * "cudastub_cudart_opaque_slots+0x8") on x86-64, its address on
	 * aarch64 (page plus offset: "0x59130"); or "" */
	const char *slot;
};

/*
 * Disassembles lib (the build's objdump -d, which reads this architecture)
 * and calls visit for each function whose
 * name is in wanted (PLT entries left out). Returns the number of calls,
 * or -1 if objdump could not run.
 */
int ts_each_shape(const char *lib, const struct ts_names *wanted,
		  void (*visit)(const struct ts_function_shape *shape, void *ctx), void *ctx);

/*
 * The forwarders of a stub's exports, judged one shape at a time: each
 * must be this architecture's forwarder, each through a slot no other
 * export uses (when the slots are named, that is the symbol table is
 * there). Both are CUnit assertions naming the export.
 */
struct ts_forwarders {
	struct ts_names slots; /* the slots seen */
	int judged;
	int fewest, most; /* instructions of a forwarder */
};
/* A ts_each_shape visit: forwarders is a struct ts_forwarders. */
void ts_judge_forwarder(const struct ts_function_shape *shape, void *forwarders);
/* Prints "  <lib>: <what>, N distinct slots, A to B instructions each". */
void ts_forwarders_print(const struct ts_forwarders *f, const char *lib, const char *what);
void ts_forwarders_free(struct ts_forwarders *f); /* and empties it */

#endif

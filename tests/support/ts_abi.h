/*
 * Reading a CUDA version's ABI record (data/abi/), one
 * tab-separated record a line (tools/gen_stubs/abi_extract.py):
 *   fn       <name> <return type> <canonical return type>
 *   enum     <enum, as the canonical types name it> <enumerator> <value>
 *   typedef  <the name the spec asks it by> <enum>
 */
#ifndef CUDASTUB_TS_ABI_H
#define CUDASTUB_TS_ABI_H

struct ts_abi_fn {
	char name[96];
	char ret[64]; /* "cudaError_t", "CUresult", "void", "struct ..." */
};
struct ts_abi_code {
	char name[96];
	int value;
};
enum { TS_ABI_MAX = 2048 };

/* The "fn" lines of an ABI record: count, or -1 when unreadable. */
int ts_abi_functions(const char *record, struct ts_abi_fn *out, int max);
/* The enumerators of one enum, by its record name or a typedef line's
 * ("cudaError_t", "enum cudaError"): count, or -1. */
int ts_abi_codes(const char *record, const char *type, struct ts_abi_code *out, int max);

/* The return type of name among fns (n of them), or NULL. */
const char *ts_abi_return_type(const struct ts_abi_fn *fns, int n, const char *name);

#endif

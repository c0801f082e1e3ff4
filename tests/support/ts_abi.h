/*
 * Reading a CUDA version's ABI record (tools/gen_stubs/data/abi/), one
 * tab-separated record a line:
 *   fn    <name> <return type> <type> <declaration> <structs>
 *   enum  <enum type> <enumerator> <value>
 */
#ifndef CUDASTUB_TS_ABI_H
#define CUDASTUB_TS_ABI_H

struct ts_abi_fn {
	char name[96];
	char ret[64]; /* "cudaError_t", "CUresult", "void", "struct ..." */
	/* "enum cudaError_enum (unsigned int, unsigned char, unsigned int)" */
	char type[512];
};
struct ts_abi_code {
	char name[96];
	int value;
};
enum { TS_ABI_MAX = 2048 };

/* The "fn" lines of an ABI record: count, or -1 when unreadable. */
int ts_abi_functions(const char *record, struct ts_abi_fn *out, int max);
/* The enumerators of one enum ("cudaError_t", "CUresult"): count, or -1. */
int ts_abi_codes(const char *record, const char *type, struct ts_abi_code *out, int max);

/* The return type of name among fns (n of them), or NULL. */
const char *ts_abi_return_type(const struct ts_abi_fn *fns, int n, const char *name);

#endif

/*
 * Every export of the stub (its cudart.symbols), called once through dlsym
 * with zero arguments, no runtime to be found. Each is called through a
 * pointer of its own return type, read from the ABI record ("fn" lines),
 * with six integer arguments: enough for every prototype, since the
 * stub's fallbacks read none of them. An export the record lacks is one of
 * the stub's opaque forwarders (no prototype anywhere), which return the
 * stub's code in eax.
 *
 * What each kind must return without a runtime:
 *   cudaError_t, opaque     CT_NO_RUNTIME (35)
 *   void                    (it returns)
 *   void ** (__cudaRegisterFatBinary)  a module handle of the stub's own:
 *                           registration is recorded, never forwarded,
 *                           while no runtime is loaded (it is then
 *                           unregistered again, which loads nothing)
 *   char, unsigned int      0
 *   const char *            a string (the error-name functions)
 *   struct cudaChannelFormatDesc   what it was asked for: a pure function,
 *                           answered in place (tests/cudart/in_place.c)
 *
 * "calling <name>" goes to stderr before each call, so a crash names its
 * function. Prints: exports, missing, called, error_codes, voids,
 * pointers, values, opaque, wrong, first_wrong.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "no_library.h"
#include "ts_elf.h"

#define ARGS  long, long, long, long, long, long
#define ZEROS 0, 0, 0, 0, 0, 0

struct tally {
	int missing, called, error_codes, voids, pointers, values, opaque, wrong;
	char first_wrong[256];
};

static void wrong(struct tally *t, const char *name, const char *what)
{
	if (!t->wrong++)
		snprintf(t->first_wrong, sizeof t->first_wrong, "%s: %s", name, what);
}

static int returns_error_code(void *sym)
{
	int (*fn)(ARGS);

	*(void **)&fn = sym;
	return fn(ZEROS);
}

/* Calls sym as ret says; 1 when the result is the one expected. */
static int call(void *stub, void *sym, const char *ret, struct tally *t)
{
	if (!ret) {
		t->opaque++;
		return returns_error_code(sym) == CT_NO_RUNTIME;
	}
	if (!strcmp(ret, "cudaError_t")) {
		t->error_codes++;
		return returns_error_code(sym) == CT_NO_RUNTIME;
	}
	if (!strcmp(ret, "void")) {
		void (*fn)(ARGS);

		*(void **)&fn = sym;
		fn(ZEROS);
		t->voids++;
		return 1;
	}
	if (!strcmp(ret, "void **") || !strcmp(ret, "const char *")) {
		void *(*fn)(ARGS);
		void *got;

		*(void **)&fn = sym;
		got = fn(ZEROS);
		t->pointers++;
		if (ret[0] == 'v') {
			void (*unregister)(void **);

			*(void **)&unregister = dlsym(stub, "__cudaUnregisterFatBinary");
			if (got && unregister)
				unregister(got);
			return got != NULL && unregister;
		}
		return got != NULL && *(const char *)got;
	}
	if (!strcmp(ret, "char") || !strcmp(ret, "unsigned int")) {
		unsigned (*fn)(ARGS);
		char (*fc)(ARGS);

		t->values++;
		if (ret[0] == 'c') {
			*(void **)&fc = sym;
			return fc(ZEROS) == 0;
		}
		*(void **)&fn = sym;
		return fn(ZEROS) == 0;
	}
	if (!strcmp(ret, "struct cudaChannelFormatDesc")) {
		struct cudaChannelFormatDesc (*fn)(int, int, int, int, enum cudaChannelFormatKind);
		struct cudaChannelFormatDesc d;

		*(void **)&fn = sym;
		d = fn(32, 0, 0, 0, cudaChannelFormatKindFloat);
		t->values++;
		return d.x == 32 && !d.y && !d.z && !d.w && d.f == cudaChannelFormatKindFloat;
	}
	return -1; /* a return type this test does not know */
}

int nl_scenario_every_export(void)
{
	static struct ts_abi_fn fns[TS_ABI_MAX];
	struct ts_names symbols = {0};
	struct tally t = {0};
	const char *list = getenv(NL_SYMBOLS_VAR), *record = getenv(NL_ABI_VAR);
	void *stub = nl_open_stub();
	int n;

	n = record ? ts_abi_functions(record, fns, TS_ABI_MAX) : -1;
	if (!stub || n <= 0 || !list || ts_names_read_list(&symbols, list) != 0)
		return 3;
	for (size_t i = 0; i < symbols.count; i++) {
		const char *name = symbols.names[i];
		const char *ret = ts_abi_return_type(fns, n, name);
		void *sym = dlsym(stub, name);
		int ok;

		if (!sym) {
			t.missing++;
			wrong(&t, name, "not exported");
			continue;
		}
		fprintf(stderr, "calling %s\n", name);
		ok = call(stub, sym, ret, &t);
		t.called++;
		if (ok != 1)
			wrong(&t, name,
			      ok < 0 ? "return type unknown to the test" : "wrong result");
	}
	printf("exports=%zu\nmissing=%d\ncalled=%d\n", symbols.count, t.missing, t.called);
	printf("error_codes=%d\nvoids=%d\npointers=%d\nvalues=%d\nopaque=%d\n", t.error_codes,
	       t.voids, t.pointers, t.values, t.opaque);
	printf("wrong=%d\nfirst_wrong=%s\n", t.wrong, t.first_wrong[0] ? t.first_wrong : "none");
	ts_names_free(&symbols);
	return 0;
}

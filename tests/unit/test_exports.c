/*
 * What the stub and the shim export, and what an exported wrapper is.
 *
 *  - `nm -D --defined-only` lists exactly the generated nvrtc.symbols plus
 *    cudastub_nvrtc_info and cudastub_nvrtc_load: no loader internals. The
 *    shim's symbols all carry its version node (its SONAME), which nm also
 *    shows as one absolute symbol of that name.
 *  - The cost contract: each generated wrapper is a load of a RIP-relative
 *    slot and an indirect jump (optionally after endbr64), then padding.
 *    nvrtcGetErrorString is hand-written and exempt. Not checked in a
 *    sanitizer build, whose instrumentation changes every function.
 */
#define _GNU_SOURCE
#include "unit_common.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_SYMS = 256, NAME = 128 };

struct symset {
	int n;
	char name[MAX_SYMS][NAME];
};

static int symset_has(const struct symset *s, const char *name)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->name[i], name))
			return 1;
	return 0;
}

static void symset_add(struct symset *s, const char *name)
{
	if (s->n < MAX_SYMS && !symset_has(s, name))
		snprintf(s->name[s->n++], NAME, "%.120s", name);
}

static int expected_symbols(struct symset *s)
{
	FILE *f = fopen(UC_SYMBOLS_FILE, "r");
	char line[256];

	memset(s, 0, sizeof *s);
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] && line[0] != '#')
			symset_add(s, line);
	}
	fclose(f);
	symset_add(s, "cudastub_nvrtc_info");
	symset_add(s, "cudastub_nvrtc_load");
	return 0;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/*
 * Runs nm on lib. Names go to out, without their version suffix; the
 * absolute symbol that names the version node is left out. *unversioned
 * counts function symbols without "@@node" when node is given.
 */
static int exported(const char *lib, const char *node, struct symset *out, int *unversioned)
{
	char cmd[4200], line[1024];
	FILE *p;

	memset(out, 0, sizeof *out);
	*unversioned = 0;
	snprintf(cmd, sizeof cmd, "nm -D --defined-only '%s'", lib);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof line, p)) {
		char addr[64], type[8], name[512], *at;

		if (sscanf(line, "%63s %7s %511s", addr, type, name) != 3)
			continue;
		if (node && !strcmp(type, "A") && !strcmp(name, node))
			continue; /* the version definition itself */
		at = strchr(name, '@');
		if (node && (!at || strcmp(at, uc_fmt("@@%s", node))))
			(*unversioned)++;
		if (at)
			*at = '\0';
		symset_add(out, name);
	}
	return pclose(p) == 0 ? 0 : -1;
}

static void check_exports(const char *lib, const char *node)
{
	struct symset want, got;
	int i, unversioned;

	CU_ASSERT_EQUAL_FATAL(expected_symbols(&want), 0);
	CU_ASSERT_EQUAL_FATAL(exported(lib, node, &got, &unversioned), 0);
	for (i = 0; i < want.n; i++)
		CU_assertImplementation(symset_has(&got, want.name[i]), __LINE__,
					uc_fmt("exported: %s", want.name[i]), __FILE__, "",
					CU_FALSE);
	for (i = 0; i < got.n; i++)
		CU_assertImplementation(symset_has(&want, got.name[i]), __LINE__,
					uc_fmt("not expected: %s", got.name[i]), __FILE__, "",
					CU_FALSE);
	CU_ASSERT_EQUAL(got.n, want.n);
	CU_ASSERT_EQUAL(unversioned, 0);
}

static void test_stub_exports(void)
{
	check_exports(uc_stub(), NULL);
}

static void test_shim_exports(void)
{
	check_exports(uc_shim(), base_name(uc_shim()));
}

/* ---- wrapper shape ---- */

/* "mov    0x98c9(%rip),%rax   # c760 <x>" -> "mov 0x98c9(%rip),%rax" */
static void normalize(char *insn)
{
	char *hash = strchr(insn, '#'), *r = insn, *w = insn;
	int space = 0;

	if (hash)
		*hash = '\0';
	for (; *r; r++) {
		if (*r == ' ' || *r == '\t' || *r == '\n') {
			space = w != insn;
			continue;
		}
		if (space)
			*w++ = ' ';
		space = 0;
		*w++ = *r;
	}
	*w = '\0';
}

static int is_padding(const char *insn)
{
	return strstr(insn, "nop") || !strcmp(insn, "int3") || !strcmp(insn, "xchg %ax,%ax") ||
	       !strcmp(insn, "");
}

/* 1 if the instructions are [endbr64] (jmp *X(%rip) | mov X(%rip),%r; jmp *%r)
 * followed by padding only. */
static int is_tail_jump(char insns[][128], int n)
{
	int i = 0;

	if (i < n && !strcmp(insns[i], "endbr64"))
		i++;
	if (i < n && !strncmp(insns[i], "jmp *", 5) && strstr(insns[i], "(%rip)")) {
		i++;
	} else if (i + 1 < n && !strncmp(insns[i], "mov ", 4) && strstr(insns[i], "(%rip),%")) {
		const char *reg = strstr(insns[i], "(%rip),") + 7;

		if (strncmp(insns[i + 1], "jmp *", 5) || strcmp(insns[i + 1] + 5, reg))
			return 0;
		i += 2;
	} else {
		return 0;
	}
	for (; i < n; i++)
		if (!is_padding(insns[i]))
			return 0;
	return 1;
}

/* Checks every wrapper of lib; returns how many were found. */
static int check_wrappers(const char *lib, const struct symset *want)
{
	static char insns[64][128];
	char cmd[4200], line[1024], current[256] = "";
	int n = 0, checked = 0;
	FILE *p;

	snprintf(cmd, sizeof cmd, "objdump -d --no-show-raw-insn '%s'", lib);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	for (;;) {
		int more = fgets(line, sizeof line, p) != NULL;
		char *lt = more ? strchr(line, '<') : NULL, *tab;

		/* a new symbol, or the end: judge the one before */
		if (!more || (lt && strstr(line, ">:"))) {
			if (current[0]) {
				CU_assertImplementation(is_tail_jump(insns, n), __LINE__,
							uc_fmt("tail jump: %s", current), __FILE__,
							"", CU_FALSE);
				checked++;
			}
			current[0] = '\0';
			n = 0;
			if (!more)
				break;
			snprintf(current, sizeof current, "%.*s", (int)strcspn(lt + 1, ">@"),
				 lt + 1);
			if (!strstr(lt, "@plt>") && !strncmp(current, "nvrtc", 5) &&
			    symset_has(want, current) && strcmp(current, "nvrtcGetErrorString"))
				continue;
			current[0] = '\0';
			continue;
		}
		tab = strchr(line, ':');
		if (!current[0] || !tab || n == 64)
			continue;
		snprintf(insns[n], sizeof insns[n], "%.127s", tab + 1);
		normalize(insns[n]);
		if (insns[n][0])
			n++;
	}
	pclose(p);
	return checked;
}

static void check_shape(const char *lib)
{
	struct symset want;
	int wrappers = 0, i;

	CU_ASSERT_EQUAL_FATAL(expected_symbols(&want), 0);
	for (i = 0; i < want.n; i++)
		wrappers += !strncmp(want.name[i], "nvrtc", 5) &&
			    strcmp(want.name[i], "nvrtcGetErrorString");
	CU_ASSERT_TRUE(wrappers > 0);
	CU_ASSERT_EQUAL(check_wrappers(lib, &want), wrappers);
}

static void test_stub_wrapper_shape(void)
{
	check_shape(uc_stub());
}

static void test_shim_wrapper_shape(void)
{
	check_shape(uc_shim());
}

/* The checker itself: what it must accept and refuse. */
static void test_shape_checker(void)
{
	char good1[][128] = {"mov 0x98c9(%rip),%rax", "jmp *%rax", "nopl 0x0(%rax)"};
	char good2[][128] = {"endbr64", "jmp *0x2fe2(%rip)"};
	char bad1[][128] = {"push %rbx", "mov 0x98c9(%rip),%rax", "jmp *%rax"};
	char bad2[][128] = {"mov 0x98c9(%rip),%rax", "jmp *%rdx"};
	char bad3[][128] = {"mov 0x98c9(%rip),%rax", "call *%rax", "ret"};

	CU_ASSERT_TRUE(is_tail_jump(good1, 3));
	CU_ASSERT_TRUE(is_tail_jump(good2, 2));
	CU_ASSERT_FALSE(is_tail_jump(bad1, 3));
	CU_ASSERT_FALSE(is_tail_jump(bad2, 2));
	CU_ASSERT_FALSE(is_tail_jump(bad3, 3));
}

static void register_suites(void)
{
	CU_pSuite s = CU_add_suite("exports", NULL, NULL);

	CU_add_test(s, "stub exports exactly the ABI", test_stub_exports);
	if (uc_shim())
		CU_add_test(s, "shim exports exactly the ABI", test_shim_exports);
#if defined(__x86_64__)
	CU_add_test(s, "shape checker", test_shape_checker);
	if (!UC_SANITIZE[0]) {
		CU_add_test(s, "stub wrappers are tail jumps", test_stub_wrapper_shape);
		if (uc_shim())
			CU_add_test(s, "shim wrappers are tail jumps", test_shim_wrapper_shape);
	} else {
		printf("SKIP: wrapper shape in a sanitizer build (%s)\n", UC_SANITIZE);
	}
#else
	(void)test_shape_checker;
	(void)test_stub_wrapper_shape;
	(void)test_shim_wrapper_shape;
#endif
}

int main(int argc, char **argv)
{
	return ts_main(argc, argv, NULL, register_suites);
}

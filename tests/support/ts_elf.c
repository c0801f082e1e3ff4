#define _GNU_SOURCE
#include "ts_elf.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- names ---- */

void ts_names_free(struct ts_names *s)
{
	for (size_t i = 0; i < s->count; i++)
		free(s->names[i]);
	free(s->names);
	memset(s, 0, sizeof *s);
}

int ts_names_has(const struct ts_names *s, const char *name)
{
	for (size_t i = 0; i < s->count; i++)
		if (!strcmp(s->names[i], name))
			return 1;
	return 0;
}

void ts_names_add(struct ts_names *s, const char *name)
{
	char *copy;

	if (ts_names_has(s, name))
		return;
	if (s->count == s->capacity) {
		size_t cap = s->capacity ? 2 * s->capacity : 64;
		char **grown = realloc(s->names, cap * sizeof *grown);

		if (!grown)
			return;
		s->names = grown;
		s->capacity = cap;
	}
	copy = strdup(name);
	if (copy)
		s->names[s->count++] = copy;
}

int ts_names_read_list(struct ts_names *s, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512];

	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] && line[0] != '#')
			ts_names_add(s, line);
	}
	fclose(f);
	return 0;
}

int ts_names_exported(struct ts_names *s, const char *lib, const char *node, int *unversioned)
{
	char cmd[4200], line[1024], versioned[256];
	FILE *p;

	*unversioned = 0;
	snprintf(versioned, sizeof versioned, "@@%s", node ? node : "");
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
		if (node && (!at || strcmp(at, versioned)))
			(*unversioned)++;
		if (at)
			*at = '\0';
		ts_names_add(s, name);
	}
	return pclose(p) == 0 ? 0 : -1;
}

int ts_names_dynamic_symbols(struct ts_names *s, const char *lib)
{
	char cmd[4200], line[1024];
	FILE *p;

	snprintf(cmd, sizeof cmd, "nm -D --defined-only '%s'", lib);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof line, p)) {
		char addr[64], type[8], name[512], entry[600];

		if (sscanf(line, "%63s %7s %511s", addr, type, name) != 3)
			continue;
		snprintf(entry, sizeof entry, "%s %s", type, name);
		ts_names_add(s, entry);
	}
	return pclose(p) == 0 ? 0 : -1;
}

int ts_names_dynamic(struct ts_names *s, const char *lib, const char *tag)
{
	char cmd[4200], line[1024], want[64];
	FILE *p;

	snprintf(want, sizeof want, "(%s)", tag);
	snprintf(cmd, sizeof cmd, "readelf -d '%s'", lib);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof line, p)) {
		char *value = strstr(line, want), *lb;

		if (!value)
			continue;
		value += strlen(want);
		value[strcspn(value, "\n")] = '\0';
		lb = strchr(value, '[');
		if (lb) { /* "Library soname: [libcuda.so.1]" */
			value = lb + 1;
			value[strcspn(value, "]")] = '\0';
		} else {
			value += strspn(value, " ");
		}
		ts_names_add(s, value);
	}
	return pclose(p) == 0 ? 0 : -1;
}

/* Reports the names of a that b lacks; returns how many. */
static int report_missing(const struct ts_names *a, const struct ts_names *b, const char *label,
			  const char *what, const char *file, unsigned line)
{
	enum { NAMED = 8 };
	char msg[1024];
	int missing = 0;

	for (size_t i = 0; i < a->count; i++) {
		if (ts_names_has(b, a->names[i]))
			continue;
		if (missing++ < NAMED) {
			snprintf(msg, sizeof msg, "%s: %s %s", label, what, a->names[i]);
			CU_assertImplementation(CU_FALSE, line, msg, file, "", CU_FALSE);
		}
	}
	if (missing > NAMED) {
		snprintf(msg, sizeof msg, "%s: %d more %s", label, missing - NAMED, what);
		CU_assertImplementation(CU_FALSE, line, msg, file, "", CU_FALSE);
	}
	return missing;
}

int ts_names_expect_same_at(const struct ts_names *want, const struct ts_names *got,
			    const char *label, const char *file, unsigned line)
{
	int differences = report_missing(want, got, label, "missing:", file, line) +
			  report_missing(got, want, label, "not expected:", file, line);
	char msg[1024];

	snprintf(msg, sizeof msg, "%s: %zu names, expected %zu", label, got->count, want->count);
	CU_assertImplementation(got->count == want->count, line, msg, file, "", CU_FALSE);
	return differences;
}

/* ---- shapes ---- */

/* The objdump of the build's target (CMAKE_OBJDUMP): the host's reads no
 * other architecture. */
#ifndef CUDASTUB_TEST_OBJDUMP
#define CUDASTUB_TEST_OBJDUMP "objdump"
#endif

/* Where objdump's comment starts: x86-64 "mov 0x98c9(%rip),%rax # c760 <x>",
 * aarch64 "add x17, x17, #0x10 // #16" ('#' marks its immediates) and
 * "adrp x16, 59000 <x>" (a bare annotation). */
static char *comment_of(char *insn)
{
#if defined(__aarch64__)
	char *slashes = strstr(insn, "//"), *lt = strstr(insn, " <");

	return slashes && (!lt || slashes < lt) ? slashes : lt;
#else
	return strchr(insn, '#');
#endif
}

/* "mov    0x98c9(%rip),%rax   # c760 <x>" -> "mov 0x98c9(%rip),%rax";
 * "adrp	x16, 59000 <x>" -> "adrp x16, 59000" */
static void normalize(char *insn)
{
	char *comment = comment_of(insn), *r = insn, *w = insn;
	int space = 0;

	if (comment)
		*comment = '\0';
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
	       !strncmp(insn, "udf", 3) || !strncmp(insn, ".inst 0x00000000", 16) ||
	       !strcmp(insn, "");
}

/* "adrp x16, 59000", "ldr x16, [x16, #304]", "br x16": the register, the
 * page and the offset, or 0 when the three are not that. */
static int page_jump(char insns[][TS_INSN], unsigned long *page, unsigned long *offset)
{
	char reg[8], reg2[8], reg3[8], reg4[8], tail[8];
	int n;

	*offset = 0;
	if (sscanf(insns[0], "adrp %7[^,], %lx%n", reg, page, &n) != 2 || insns[0][n])
		return 0;
	if (sscanf(insns[1], "ldr %7[^,], [%7[^],], #%lu%7s", reg2, reg3, offset, tail) != 4 ||
	    strcmp(tail, "]")) {
		if (sscanf(insns[1], "ldr %7[^,], [%7[^]]%7s", reg2, reg3, tail) != 3 ||
		    strcmp(tail, "]"))
			return 0;
	}
	if (sscanf(insns[2], "br %7s", reg4) != 1)
		return 0;
	return reg[0] == 'x' && !strcmp(reg, reg2) && !strcmp(reg, reg3) && !strcmp(reg, reg4);
}

enum ts_shape_kind ts_shape_of(char insns[][TS_INSN], int n)
{
	enum ts_shape_kind kind;
	unsigned long page, offset;
	int i = 0;

	if (i < n && (!strcmp(insns[i], "endbr64") || !strcmp(insns[i], "bti c")))
		i++;
	if (i < n && !strncmp(insns[i], "jmp *", 5) && strstr(insns[i], "(%rip)")) {
		kind = TS_SHAPE_RIP_JUMP;
		i++;
	} else if (i + 1 < n && !strncmp(insns[i], "mov ", 4) && strstr(insns[i], "(%rip),%")) {
		const char *reg = strstr(insns[i], "(%rip),") + 7;

		if (strncmp(insns[i + 1], "jmp *", 5) || strcmp(insns[i + 1] + 5, reg))
			return TS_SHAPE_OTHER;
		kind = TS_SHAPE_SLOT_JUMP;
		i += 2;
	} else if (i + 2 < n && page_jump(insns + i, &page, &offset)) {
		kind = TS_SHAPE_PAGE_JUMP;
		i += 3;
	} else {
		return TS_SHAPE_OTHER;
	}
	for (; i < n; i++)
		if (!is_padding(insns[i]))
			return TS_SHAPE_OTHER;
	return kind;
}

static int count_instructions(char insns[][TS_INSN], int n)
{
	int count = 0;

	for (int i = 0; i < n; i++)
		count += !is_padding(insns[i]);
	return count;
}

/* The function being read from objdump's output. */
struct reading {
	char name[256];
	char slot[256];
	char insns[TS_MAX_INSNS][TS_INSN];
	int n;
};

/* x86-64: "... # 36c70 <cudaMalloc_slot>" -> "cudaMalloc_slot", the first
 * one only. (aarch64 names no slot: slot_address does, once the function
 * is read.) */
static void note_slot(struct reading *r, const char *insn)
{
#if defined(__aarch64__)
	(void)r;
	(void)insn;
#else
	const char *hash = strchr(insn, '#'), *lt = hash ? strchr(hash, '<') : NULL;

	if (r->slot[0] || !lt)
		return;
	snprintf(r->slot, sizeof r->slot, "%.*s", (int)strcspn(lt + 1, ">"), lt + 1);
#endif
}

/* aarch64: a page jump's slot as its address, page plus offset. */
static void slot_address(struct reading *r)
{
	unsigned long page, offset;
	int i = r->n > 0 && !strcmp(r->insns[0], "bti c");

	if (r->n - i >= 3 && page_jump(r->insns + i, &page, &offset))
		snprintf(r->slot, sizeof r->slot, "0x%lx", page + offset);
}

int ts_each_shape(const char *lib, const struct ts_names *wanted,
		  void (*visit)(const struct ts_function_shape *shape, void *ctx), void *ctx)
{
	static struct reading r;
	char cmd[4200], line[1024];
	int visited = 0;
	FILE *p;

	snprintf(cmd, sizeof cmd, "%s -d --no-show-raw-insn '%s'", CUDASTUB_TEST_OBJDUMP, lib);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	memset(&r, 0, sizeof r);
	for (;;) {
		int more = fgets(line, sizeof line, p) != NULL;
		char *lt = more ? strchr(line, '<') : NULL, *colon;

		/* a new symbol, or the end: judge the one before */
		if (!more || (lt && strstr(line, ">:"))) {
			if (r.name[0]) {
				struct ts_function_shape shape;

				slot_address(&r);
				shape = (struct ts_function_shape){
					r.name, ts_shape_of(r.insns, r.n),
					count_instructions(r.insns, r.n), r.slot};

				visit(&shape, ctx);
				visited++;
			}
			memset(&r, 0, sizeof r);
			if (!more)
				break;
			snprintf(r.name, sizeof r.name, "%.*s", (int)strcspn(lt + 1, ">@"), lt + 1);
			if (strstr(lt, "@plt>") || !ts_names_has(wanted, r.name))
				r.name[0] = '\0';
			continue;
		}
		colon = strchr(line, ':');
		if (!r.name[0] || !colon || r.n == TS_MAX_INSNS)
			continue;
		note_slot(&r, colon + 1);
		snprintf(r.insns[r.n], TS_INSN, "%.127s", colon + 1);
		normalize(r.insns[r.n]);
		if (r.insns[r.n][0])
			r.n++;
	}
	return pclose(p) == 0 ? visited : -1;
}

void ts_judge_forwarder(const struct ts_function_shape *shape, void *forwarders)
{
	struct ts_forwarders *f = forwarders;
	char msg[256];

	f->judged++;
	if (!f->fewest || shape->count < f->fewest)
		f->fewest = shape->count;
	if (shape->count > f->most)
		f->most = shape->count;
	snprintf(msg, sizeof msg, "%s: %d instructions, not %s", shape->name, shape->count,
		 TS_FORWARDER_WORDS);
	CU_assertImplementation(shape->kind == TS_FORWARDER_SHAPE, __LINE__, msg, __FILE__, "",
				CU_FALSE);
	if (!shape->slot[0])
		return;
	snprintf(msg, sizeof msg, "%s shares its slot %s", shape->name, shape->slot);
	CU_assertImplementation(!ts_names_has(&f->slots, shape->slot), __LINE__, msg, __FILE__, "",
				CU_FALSE);
	ts_names_add(&f->slots, shape->slot);
}

void ts_forwarders_print(const struct ts_forwarders *f, const char *lib, const char *what)
{
	printf("  %s: %s, %zu distinct slots, %d to %d instructions each\n", lib, what,
	       f->slots.count, f->fewest, f->most);
}

void ts_forwarders_free(struct ts_forwarders *f)
{
	ts_names_free(&f->slots);
	memset(f, 0, sizeof *f);
}

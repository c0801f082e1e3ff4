/* Running the adapter cases (parent) and checking as they go (child). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adapters_graph.h"

/* ---- parent ---- */

/* The fetched headers a stub or fake of another major needs, or NULL. */
static const char *fixture_of(const char *major)
{
	return !strncmp(major, "11", 2)	  ? "headers-11.8"
	       : !strncmp(major, "12", 2) ? "headers-12.4"
					  : NULL;
}

static void stub_path(int abi, char *buf, size_t size)
{
	if (abi == AG_BUILD_ABI)
		snprintf(buf, size, "%s", AG_BUILD_STUB);
	else
		snprintf(buf, size, "%s/tests/abi-%d/libcudart_stub.so", ts_build_dir(), abi);
}

static void fake_path(const char *fake, char *buf, size_t size)
{
	if (!strcmp(fake, "12.2"))
		snprintf(buf, size, "%s", AG_FAKE_12_2);
	else if (!strcmp(fake, "11-plain"))
		snprintf(buf, size, "%s", AG_FAKE_11_PLAIN);
	else
		snprintf(buf, size, "%s/tests/cudart/fakes/cudart-%s/libcudart.so.%s",
			 ts_build_dir(), fake, !strcmp(fake, "11") ? "11.0" : fake);
}

static int built(const char *path)
{
	char why[4200];

	if (access(path, R_OK) == 0)
		return 1;
	snprintf(why, sizeof why,
		 "%s was not built: its headers were fetched after configuring; re-run cmake",
		 path);
	ts_unavailable(why);
	return 0;
}

void ag_run(int stub_abi, const char *fake, const char *scenario)
{
	char stub[4096], lib[4096], env_stub[4200], env_fake[4200], msg[1024], major[8];
	const char *env[] = {env_stub, env_fake, NULL};
	struct ts_child *child = malloc(sizeof *child);
	const char *line;

	snprintf(major, sizeof major, "%d", stub_abi);
	if (!child || (fixture_of(major) && !ts_fixture(fixture_of(major))) ||
	    (fixture_of(fake) && !ts_fixture(fixture_of(fake))))
		goto out;
	stub_path(stub_abi, stub, sizeof stub);
	fake_path(fake, lib, sizeof lib);
	if (!built(stub) || !built(lib))
		goto out;
	snprintf(env_stub, sizeof env_stub, "AG_STUB=%s", stub);
	snprintf(env_fake, sizeof env_fake, "CUDASTUB_CUDART_PATH=%s", lib);
	if (ts_run_child(scenario, env, child) != 0) {
		snprintf(msg, sizeof msg, "[stub %d on fake %s: %s] the child did not start",
			 stub_abi, fake, scenario);
		CU_assertImplementation(CU_FALSE, __LINE__, msg, __FILE__, "", CU_FALSE);
		goto out;
	}
	/* each failed expectation is one "fail=" line */
	for (line = strstr(child->out, "fail="); line; line = strstr(line + 1, "fail=")) {
		int len = (int)strcspn(line + 5, "\n");

		snprintf(msg, sizeof msg, "[stub %d on fake %s: %s] %.*s", stub_abi, fake, scenario,
			 len, line + 5);
		CU_assertImplementation(CU_FALSE, __LINE__, msg, __FILE__, "", CU_FALSE);
	}
	snprintf(msg, sizeof msg, "[stub %d on fake %s: %s] the child exited %d", stub_abi, fake,
		 scenario, child->exit_code);
	CU_assertImplementation(child->exit_code == 0, __LINE__, msg, __FILE__, "", CU_FALSE);
	if (child->exit_code != 0)
		fprintf(stderr, "%s\nstdout:\n%s\nstderr:\n%s\n", msg, child->out, child->err);
out:
	free(child);
}

CU_pSuite ag_suite(const char *name)
{
	if (AG_BUILD_ABI != 13) {
		printf("SKIP: %s: the cases are written for the 13.0-ABI build\n", name);
		return NULL;
	}
	return CU_add_suite(name, NULL, NULL);
}

/* ---- child ---- */

static int failures;
/* The buffers ag_guarded handed out, freed by ag_finish. */
static void *guarded[256];
static unsigned guarded_count;

void ag_expect(int ok, const char *file, int line, const char *what)
{
	if (ok)
		return;
	failures++;
	printf("fail=%s:%d: %s\n", file, line, what);
	fflush(stdout);
}

int ag_finish(void)
{
	while (guarded_count > 0)
		free(guarded[--guarded_count]);
	return failures ? 1 : 0;
}

static void *stub_handle(void)
{
	static void *stub;
	const char *path = getenv("AG_STUB");

	if (!stub && path)
		stub = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!stub) {
		fprintf(stderr, "cannot open the stub %s: %s\n", path ? path : "(AG_STUB unset)",
			dlerror());
		exit(2);
	}
	return stub;
}

void *ag_stub(const char *name)
{
	void *sym = dlsym(stub_handle(), name);

	if (!sym) {
		fprintf(stderr, "the stub does not export %s\n", name);
		exit(3);
	}
	return sym;
}

/* The fake, loaded by the stub on its first call (made here if need be). */
static void *fake_handle(void)
{
	static void *fake;
	const char *path = getenv("CUDASTUB_CUDART_PATH");
	int (*load)(void);

	if (fake)
		return fake;
	*(void **)&load = ag_stub("cudastub_cudart_load");
	load();
	fake = path ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : NULL;
	if (!fake) {
		fprintf(stderr, "the stub did not load the fake %s\n", path ? path : "(unset)");
		exit(4);
	}
	return fake;
}

void *ag_fake(const char *name)
{
	void *sym = dlsym(fake_handle(), name);

	if (!sym) {
		fprintf(stderr, "the fake does not export %s\n", name);
		exit(5);
	}
	return sym;
}

int ag_mark(void)
{
	return *(int *)ag_fake("fake_cudart_call_count");
}

int ag_called_since(int mark, const char *name)
{
	const char **calls = ag_fake("fake_cudart_calls");
	int count = ag_mark();

	for (int i = mark; i < count && i < 256; i++)
		if (!strcmp(calls[i], name))
			return 1;
	return 0;
}

int ag_any_call_since(int mark)
{
	return ag_mark() != mark;
}

int ag_pattern_at(const void *p, size_t at, size_t from, size_t size)
{
	const unsigned char *b = p;

	for (size_t k = 0; k < size; k++)
		if (b[at + k] != FAKE_PATTERN(from + k))
			return 0;
	return 1;
}

int ag_zero_at(const void *p, size_t at, size_t size)
{
	const unsigned char *b = p;

	for (size_t k = 0; k < size; k++)
		if (b[at + k])
			return 0;
	return 1;
}

int ag_in_field(const struct cudastub_layout *layout, size_t at)
{
	for (unsigned i = 0; i < layout->family->field_count; i++) {
		const struct cudastub_layout_place f = layout->places[i];

		if (f.size && at >= f.offset && at < (size_t)f.offset + f.size)
			return 1;
	}
	return 0;
}

void ag_fill_fields(void *p, const struct cudastub_layout *layout, size_t upto)
{
	unsigned char *b = p;

	for (size_t k = 0; k < layout->size; k++)
		b[k] = k < upto && ag_in_field(layout, k) ? FAKE_PATTERN(k) : 0;
}

int ag_fields_at(const void *p, const struct cudastub_layout *layout, size_t upto)
{
	const unsigned char *b = p;

	for (size_t k = 0; k < layout->size; k++)
		if (b[k] != (k < upto && ag_in_field(layout, k) ? FAKE_PATTERN(k) : 0))
			return 0;
	return 1;
}

/* Writes into want what a copy of a pattern-filled struct of layout from
 * holds in layout to: every field both have, up to the smaller size, a
 * nested family field by field. */
static void copied_bytes(unsigned char *want, const struct cudastub_layout *to, size_t to_at,
			 const struct cudastub_layout *from, size_t from_at)
{
	for (unsigned i = 0; i < to->family->field_count; i++) {
		const struct cudastub_layout_place t = to->places[i], f = from->places[i];

		if (!t.size || !f.size)
			continue;
		if (to->nested && to->nested[i] && from->nested && from->nested[i]) {
			copied_bytes(want, to->nested[i], to_at + t.offset, from->nested[i],
				     from_at + f.offset);
			continue;
		}
		for (size_t k = 0; k < t.size && k < f.size; k++)
			want[to_at + t.offset + k] = FAKE_PATTERN(from_at + f.offset + k);
	}
}

int ag_copied_at(const void *p, const struct cudastub_layout *to,
		 const struct cudastub_layout *from)
{
	unsigned char want[sizeof(union cudastub_cudart_layout_room)] = {0};

	copied_bytes(want, to, 0, from, 0);
	return !memcmp(p, want, to->size);
}

int ag_received_as(const struct fake_received *got, const void *p, size_t size, size_t common)
{
	return got->ptr && got->size == size && !memcmp(got->bytes, p, common) &&
	       ag_zero_at(got->bytes, common, size - common);
}

void *ag_guarded(size_t size)
{
	unsigned char *p = malloc(size + AG_GUARD);

	if (!p || guarded_count == sizeof guarded / sizeof *guarded)
		exit(6);
	guarded[guarded_count++] = p;
	memset(p, AG_FILL, size + AG_GUARD);
	return p;
}

int ag_guard_intact(const void *p, size_t size)
{
	const unsigned char *b = p;

	for (size_t k = size; k < size + AG_GUARD; k++)
		if (b[k] != AG_FILL)
			return 0;
	return 1;
}

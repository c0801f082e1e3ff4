/*
 * The lookup in /etc/ld.so.cache (stubs/loader/search/loader_ldcache.c), compiled
 * in: a bisection over entries that ldconfig sorts greatest first, runs
 * of digits by their value.
 *
 * The expected answers do not come from the lookup's own order: the
 * synthetic cache is written here in the order ldconfig writes, by hand,
 * and this machine's cache is checked against a scan of every entry.
 */
#define _GNU_SOURCE
#include <CUnit/CUnit.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader.h"
#include "test_support.h"
#include "loader_ldcache.h"

enum { HEADER = 48, ENTRY = 24, MAX_VISITS = 8 };

/* The paths a lookup visited, in order. */
struct visits {
	int count;
	char path[MAX_VISITS][128];
};

static int record(const char *path, void *ctx)
{
	struct visits *v = ctx;

	if (v->count < MAX_VISITS)
		snprintf(v->path[v->count], sizeof v->path[0], "%s", path);
	v->count++;
	return 0;
}

static int stop_at_first(const char *path, void *ctx)
{
	record(path, ctx);
	return 7;
}

static void put_u32(unsigned char *at, uint32_t v)
{
	memcpy(at, &v, sizeof v);
}

/* A cache of n entries {soname, path}, as ldconfig would write it when
 * they are given in its order; *size its length. */
static unsigned char *make_cache(const char *const (*entries)[2], uint32_t n, size_t *size)
{
	size_t strings = HEADER + (size_t)n * ENTRY, at;
	unsigned char *cache;

	*size = strings;
	for (uint32_t i = 0; i < n; i++)
		*size += strlen(entries[i][0]) + strlen(entries[i][1]) + 2;
	cache = calloc(1, *size);
	CU_ASSERT_PTR_NOT_NULL_FATAL(cache);
	memcpy(cache, "glibc-ld.so.cache1.1", 20);
	put_u32(cache + 20, n);
	at = strings;
	for (uint32_t i = 0; i < n; i++) {
		unsigned char *e = cache + HEADER + (size_t)i * ENTRY;

		put_u32(e, 0x0303); /* x86-64 libc6: not read by the lookup */
		for (int k = 0; k < 2; k++) {
			put_u32(e + 4 + 4 * k, (uint32_t)at);
			strcpy((char *)cache + at, entries[i][k]);
			at += strlen(entries[i][k]) + 1;
		}
	}
	return cache;
}

/* Greatest first: a digit after "lib" is greater than a letter, runs of
 * digits compare by value (13 > 12 > 9), '.' is less than a letter. */
static const char *const in_ldconfig_order[][2] = {
	{"lib1.so", "/l/lib1.so"},
	{"libzstd.so.1", "/l/libzstd.so.1"},
	{"libnvrtc.so.13", "/l/libnvrtc.so.13"},
	{"libnvrtc.so.12", "/l/libnvrtc.so.12"},
	{"libcudart.so.13", "/l/a/libcudart.so.13"},
	{"libcudart.so.13", "/l/b/libcudart.so.13"},
	{"libcudart.so.12", "/l/libcudart.so.12"},
	{"libcudart.so.9", "/l/libcudart.so.9"},
	{"libcuda.so.1", "/l/libcuda.so.1"},
	{"libc.so.6", "/l/libc.so.6"},
};
enum { IN_ORDER = sizeof in_ldconfig_order / sizeof *in_ldconfig_order };

static void test_every_name_and_its_paths(void)
{
	size_t size;
	unsigned char *cache = make_cache(in_ldconfig_order, IN_ORDER, &size);

	for (int i = 0; i < IN_ORDER; i++) {
		struct visits v = {0};
		int expected = 0;

		for (int j = 0; j < IN_ORDER; j++)
			if (!strcmp(in_ldconfig_order[j][0], in_ldconfig_order[i][0]))
				expected++;
		CU_ASSERT_EQUAL(
			cudastub_ldcache_parse(cache, size, in_ldconfig_order[i][0], record, &v),
			0);
		CU_ASSERT_EQUAL(v.count, expected);
		if (v.count != expected)
			fprintf(stderr, "  %s: %d paths, expected %d\n", in_ldconfig_order[i][0],
				v.count, expected);
	}
	/* both copies of one name, in the file's order */
	struct visits two = {0};

	cudastub_ldcache_parse(cache, size, "libcudart.so.13", record, &two);
	CU_ASSERT_EQUAL_FATAL(two.count, 2);
	CU_ASSERT_STRING_EQUAL(two.path[0], "/l/a/libcudart.so.13");
	CU_ASSERT_STRING_EQUAL(two.path[1], "/l/b/libcudart.so.13");
	free(cache);
}

TS_TEST(test_every_name_and_its_paths, "every name finds all its paths, in order");

static void test_absent_names(void)
{
	static const char *const absent[] = {
		"libcudart.so.11",  "libcudart.so.130",
		"libcudart.so.1",   "libcudart.so",
		"libnvrtc.so",	    "lib0.so",
		"lib2.so",	    "libzzz.so.1",
		"liba.so.1",	    "",
		"libcudart.so.13x", "libcuda.so.01x",
	};
	size_t size;
	unsigned char *cache = make_cache(in_ldconfig_order, IN_ORDER, &size);

	for (size_t i = 0; i < sizeof absent / sizeof *absent; i++) {
		struct visits v = {0};

		cudastub_ldcache_parse(cache, size, absent[i], record, &v);
		CU_ASSERT_EQUAL(v.count, 0);
		if (v.count)
			fprintf(stderr, "  %s: found %s\n", absent[i], v.path[0]);
	}
	free(cache);
}

TS_TEST(test_absent_names, "names not in the cache find nothing");

static void test_visit_stops_the_lookup(void)
{
	size_t size;
	unsigned char *cache = make_cache(in_ldconfig_order, IN_ORDER, &size);
	struct visits v = {0};

	CU_ASSERT_EQUAL(cudastub_ldcache_parse(cache, size, "libcudart.so.13", stop_at_first, &v),
			7);
	CU_ASSERT_EQUAL(v.count, 1);
	free(cache);
}

TS_TEST(test_visit_stops_the_lookup, "a visit that answers stops the lookup");

/* A count of entries past the end of the file, a key past the end, a
 * string without its NUL: nothing is read outside the bytes given. */
static void test_damaged_caches(void)
{
	size_t size;
	unsigned char *cache = make_cache(in_ldconfig_order, IN_ORDER, &size);
	struct visits v = {0};

	put_u32(cache + 20, 0xffffffffu);
	cudastub_ldcache_parse(cache, size, "libcuda.so.1", record, &v);
	CU_ASSERT_TRUE(v.count <= 1); /* strings read as entries: found or not */
	put_u32(cache + HEADER + 4 * ENTRY + 4, (uint32_t)size + 100);
	v.count = 0;
	cudastub_ldcache_parse(cache, size, "libcudart.so.13", record, &v);
	CU_ASSERT_TRUE(v.count <= 1);
	v.count = 0;
	cudastub_ldcache_parse(cache, size - 1, "libc.so.6", record, &v); /* no final NUL */
	CU_ASSERT_EQUAL(v.count, 0);
	v.count = 0;
	cudastub_ldcache_parse(cache, 40, "libc.so.6", record, &v); /* shorter than a header */
	CU_ASSERT_EQUAL(v.count, 0);
	free(cache);
}

TS_TEST(test_damaged_caches, "damaged caches: nothing read outside the bytes");

/* This machine's own cache: for every name in it, the lookup visits what a
 * scan of every entry finds, in the same order. */
static void test_this_machines_cache(void)
{
	static unsigned char cache[8 << 20];
	FILE *f = fopen("/etc/ld.so.cache", "rb");
	size_t size;
	uint32_t n, wrong = 0;

	if (!f) {
		ts_unavailable("no /etc/ld.so.cache on this machine");
		return;
	}
	size = fread(cache, 1, sizeof cache, f);
	fclose(f);
	if (size < HEADER || memcmp(cache, "glibc-ld.so.cache1.1", 20) != 0) {
		ts_unavailable("/etc/ld.so.cache is not glibc's new format");
		return;
	}
	memcpy(&n, cache + 20, sizeof n);
	CU_ASSERT_TRUE_FATAL(HEADER + (size_t)n * ENTRY <= size);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t key;
		struct visits got = {0}, scanned = {0};

		memcpy(&key, cache + HEADER + (size_t)i * ENTRY + 4, sizeof key);
		for (uint32_t j = 0; j < n; j++) {
			uint32_t k, value;

			memcpy(&k, cache + HEADER + (size_t)j * ENTRY + 4, sizeof k);
			memcpy(&value, cache + HEADER + (size_t)j * ENTRY + 8, sizeof value);
			if (!strcmp((char *)cache + k, (char *)cache + key))
				record((char *)cache + value, &scanned);
		}
		cudastub_ldcache_parse(cache, size, (char *)cache + key, record, &got);
		if (got.count != scanned.count ||
		    (got.count && strcmp(got.path[0], scanned.path[0]) != 0)) {
			if (wrong++ < 5)
				fprintf(stderr, "  %s: %d paths, a scan finds %d\n",
					(char *)cache + key, got.count, scanned.count);
		}
	}
	CU_ASSERT_EQUAL(wrong, 0);
	printf("  %u entries of /etc/ld.so.cache looked up\n", n);
}

TS_TEST(test_this_machines_cache, "this machine's cache: as a scan of every entry");

/* The mapped file: the same answers as the bytes read here, twice (the
 * second from the kept mapping). */
static void test_the_file_itself(void)
{
	struct visits first = {0}, second = {0};

	cudastub_ldcache_each("libc.so.6", record, &first);
	cudastub_ldcache_each("libc.so.6", record, &second);
	CU_ASSERT_TRUE(first.count >= 1);
	CU_ASSERT_EQUAL(first.count, second.count);
	if (first.count >= 1 && second.count >= 1)
		CU_ASSERT_STRING_EQUAL(first.path[0], second.path[0]);
}

TS_TEST(test_the_file_itself, "the file mapped once: the same answers again");

TS_MAIN_SUITE("loader: the ld.so.cache lookup", NULL, NULL, NULL)

/*
 * The layout engine on its own (stubs/cudart/layout/layout.c): every generated
 * translator calls it, so its rules are proven here once, on tables built
 * by hand, with expectations written out byte by byte:
 *   - a field both layouts have is copied to its new offset, up to the
 *     smaller size, zero-extended when it grew;
 *   - padding, and what no field covers, is 0 in the destination;
 *   - a non-zero value that cannot be carried over is refused or dropped
 *     as its policy says, in each direction, and a refusal writes nothing;
 *   - a field only the destination has is 0, or the runtime's answer to a
 *     query when a reported struct asks for it;
 *   - a nested family is translated by the same rules.
 */
#include <CUnit/CUnit.h>
#include <string.h>

#include "layout.h"
#include "test_support.h"

/*
 * A struct "point" nested in a struct "shape", in two majors:
 *
 *   point, old (8 bytes):   x @0 (4)  y @4 (4)
 *   point, new (16 bytes):  y @0 (4)  x @4 (8)  z @12 (4)     x grew, y moved, z added
 *
 *   shape, old (32 bytes):  kind @0 (4)  pad  at @8 (point, 8)  tag @16 (8)  lost @24 (4)  pad
 *   shape, new (40 bytes):  at @0 (point, 16)  kind @16 (4)  strict @20 (4)  tag @24 (2)
 *                           pad  asked @28 (4)  loose @32 (4)  pad
 *
 * tag shrank (8 -> 2), lost and the other old-only fields only the old
 * layout has, strict/asked/loose only the new one.
 */
/* point: x, y, z */
static const unsigned char point_policies[] = {
	CUDASTUB_LAYOUT_GIVEN,
	CUDASTUB_LAYOUT_GIVEN,
	CUDASTUB_LAYOUT_GIVEN,
};
static const struct cudastub_layout_family point = {3, point_policies};
static const struct cudastub_layout point_old = {
	&point, 11, 8, (const struct cudastub_layout_place[]){{0, 4}, {4, 4}, {0, 0}}, NULL, NULL};
static const struct cudastub_layout point_new = {
	&point, 13,  16, (const struct cudastub_layout_place[]){{4, 8}, {0, 4}, {12, 4}},
	NULL,	NULL};

enum { KIND, AT, TAG, LOST, STRICT, ASKED, LOOSE, SHAPE_FIELDS };
static const unsigned char shape_policies[] = {
	[KIND] = CUDASTUB_LAYOUT_GIVEN,	   [AT] = CUDASTUB_LAYOUT_GIVEN,
	[TAG] = CUDASTUB_LAYOUT_GIVEN,	   [LOST] = CUDASTUB_LAYOUT_DROP,
	[STRICT] = CUDASTUB_LAYOUT_REFUSE, [ASKED] = CUDASTUB_LAYOUT_GIVEN,
	[LOOSE] = CUDASTUB_LAYOUT_DROP,
};
static const struct cudastub_layout_family shape = {SHAPE_FIELDS, shape_policies};
static const struct cudastub_layout *const shape_nested_old[SHAPE_FIELDS] = {[AT] = &point_old};
static const struct cudastub_layout *const shape_nested_new[SHAPE_FIELDS] = {[AT] = &point_new};
/* the old headers' enumerators for the fields their struct lacks */
static const int shape_queries_old[SHAPE_FIELDS] = {-1, -1, -1, -1, 7, 9, -1};
static const struct cudastub_layout shape_old = {
	&shape,
	11,
	32,
	(const struct cudastub_layout_place[SHAPE_FIELDS]){
		[KIND] = {0, 4}, [AT] = {8, 8}, [TAG] = {16, 8}, [LOST] = {24, 4}},
	shape_queries_old,
	shape_nested_old};
static const struct cudastub_layout shape_new = {
	&shape,
	13,
	40,
	(const struct cudastub_layout_place[SHAPE_FIELDS]){[KIND] = {16, 4},
							   [AT] = {0, 16},
							   [TAG] = {24, 2},
							   [STRICT] = {20, 4},
							   [ASKED] = {28, 4},
							   [LOOSE] = {32, 4}},
	NULL,
	shape_nested_new};

/* Structs as byte arrays: fields written at their offsets, little-endian
 * as on every platform the stubs build for. */
static void put(unsigned char *s, size_t at, unsigned long long v, size_t n)
{
	for (size_t k = 0; k < n; k++)
		s[at + k] = (unsigned char)(v >> (8 * k));
}

static unsigned long long get(const unsigned char *s, size_t at, size_t n)
{
	unsigned long long v = 0;

	for (size_t k = 0; k < n; k++)
		v |= (unsigned long long)s[at + k] << (8 * k);
	return v;
}

static int all_equal(const unsigned char *s, size_t at, size_t n, unsigned char byte)
{
	for (size_t k = 0; k < n; k++)
		if (s[at + k] != byte)
			return 0;
	return 1;
}

/* An old shape: kind 3, at (x 0x11, y 0x22), tag 0x4455, padding 0xee. */
static void old_shape(unsigned char *s)
{
	memset(s, 0xee, 32);
	put(s, 0, 3, 4);
	put(s, 8, 0x11, 4);
	put(s, 12, 0x22, 4);
	put(s, 16, 0x4455, 8);
	put(s, 24, 0, 4);
}

/* A new shape: at (y 0x22, x 0x11, z 0), kind 3, tag 0x4455, padding 0xee. */
static void new_shape(unsigned char *s)
{
	memset(s, 0xee, 40);
	put(s, 0, 0x22, 4);
	put(s, 4, 0x11, 8);
	put(s, 12, 0, 4);
	put(s, 16, 3, 4);
	put(s, 20, 0, 4);
	put(s, 24, 0x4455, 2);
	put(s, 28, 0, 4);
	put(s, 32, 0, 4);
}

static void test_give_old_to_new(void)
{
	unsigned char src[32], room[64];
	const void *got;

	old_shape(src);
	memset(room, 0xcc, sizeof room);
	got = cudastub_layout_give(&shape_old, src, &shape_new, room);
	CU_ASSERT_PTR_EQUAL(got, room);
	/* nested point: y moved to 0, x grew to 8 bytes (zero-extended), z 0 */
	CU_ASSERT_EQUAL(get(room, 0, 4), 0x22);
	CU_ASSERT_EQUAL(get(room, 4, 8), 0x11);
	CU_ASSERT_EQUAL(get(room, 12, 4), 0);
	CU_ASSERT_EQUAL(get(room, 16, 4), 3);	   /* kind moved */
	CU_ASSERT_EQUAL(get(room, 24, 2), 0x4455); /* tag: its low 2 bytes */
	/* strict, asked, loose: the old layout lacks them; padding 0 */
	CU_ASSERT_TRUE(all_equal(room, 20, 4, 0));
	CU_ASSERT_TRUE(all_equal(room, 26, 14, 0));
	/* nothing past the destination's size */
	CU_ASSERT_TRUE(all_equal(room, 40, sizeof room - 40, 0xcc));
}

TS_TEST(test_give_old_to_new, "give: old to new (moved, grown, nested, added)");

static void test_give_new_to_old(void)
{
	unsigned char src[40], room[32];

	new_shape(src);
	CU_ASSERT_PTR_EQUAL(cudastub_layout_give(&shape_new, src, &shape_old, room), room);
	CU_ASSERT_EQUAL(get(room, 0, 4), 3);
	CU_ASSERT_TRUE(all_equal(room, 4, 4, 0)); /* padding, whatever the caller had */
	CU_ASSERT_EQUAL(get(room, 8, 4), 0x11);	  /* x: 8 bytes, its value fits in 4 */
	CU_ASSERT_EQUAL(get(room, 12, 4), 0x22);
	CU_ASSERT_EQUAL(get(room, 16, 8), 0x4455); /* tag widened */
	CU_ASSERT_TRUE(all_equal(room, 24, 8, 0)); /* lost (only old), padding */
}

TS_TEST(test_give_new_to_old, "give: new to old (shrunk, padding not carried)");

/* Giving: GIVEN and REFUSE refuse a non-zero value the runtime cannot
 * hold; DROP leaves it out. Nothing is written when refused. */
static void test_give_refusals(void)
{
	static const struct {
		size_t at, size;
		unsigned long long value;
		int refused;
		const char *what;
	} cases[] = {
		{20, 4, 1, 1, "strict: only the new layout, REFUSE"},
		{28, 4, 1, 1, "asked: only the new layout, GIVEN"},
		{32, 4, 1, 0, "loose: only the new layout, DROP"},
		{12, 4, 5, 1, "point.z: nested, GIVEN"},
		{4, 8, 1ull << 32, 1, "point.x: its high bytes do not fit in 4"},
	};

	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		unsigned char src[40], room[32];
		const void *got;

		new_shape(src);
		put(src, cases[i].at, cases[i].value, cases[i].size);
		memset(room, 0xcc, sizeof room);
		got = cudastub_layout_give(&shape_new, src, &shape_old, room);
		if (cases[i].refused) {
			CU_ASSERT_PTR_NULL(got);
			CU_ASSERT_TRUE(all_equal(room, 0, sizeof room, 0xcc));
		} else {
			CU_ASSERT_PTR_EQUAL(got, room);
		}
		if ((got == NULL) != cases[i].refused)
			fprintf(stderr, "  case: %s\n", cases[i].what);
	}
}

TS_TEST(test_give_refusals, "give: policies refuse or drop, nothing written");

/* Reporting (the runtime's struct back to the caller): GIVEN leaves out
 * what the caller cannot hold, REFUSE still refuses, DROP drops. */
static void test_report_policies(void)
{
	unsigned char src[40], dst[40];

	/* new runtime, old caller: asked and loose left out, strict refused */
	new_shape(src);
	put(src, 28, 1, 4);
	put(src, 32, 1, 4);
	put(src, 12, 9, 4); /* point.z, GIVEN */
	memset(dst, 0xcc, sizeof dst);
	CU_ASSERT_EQUAL(cudastub_layout_report(&shape_new, src, &shape_old, dst, NULL, 0), 0);
	CU_ASSERT_EQUAL(get(dst, 16, 8), 0x4455);
	CU_ASSERT_TRUE(all_equal(dst, 24, 8, 0));
	CU_ASSERT_TRUE(all_equal(dst, 32, 8, 0xcc)); /* past the old size */

	put(src, 20, 1, 4); /* strict */
	memset(dst, 0xcc, sizeof dst);
	CU_ASSERT_EQUAL(cudastub_layout_report(&shape_new, src, &shape_old, dst, NULL, 0), -1);
	CU_ASSERT_TRUE(all_equal(dst, 0, sizeof dst, 0xcc));

	/* old runtime, new caller: the old tag's high bytes and `lost` (DROP)
	 * are left out when reported, though tag's GIVEN would refuse giving */
	old_shape(src);
	put(src, 16, 0x112233445566ull, 8);
	put(src, 24, 7, 4);
	CU_ASSERT_EQUAL(cudastub_layout_report(&shape_old, src, &shape_new, dst, NULL, 0), 0);
	CU_ASSERT_EQUAL(get(dst, 24, 2), 0x5566);
	CU_ASSERT_PTR_NULL(cudastub_layout_give(&shape_old, src, &shape_new, dst));
}

TS_TEST(test_report_policies, "report: policies in the other direction");

/* The runtime's answer to a query fills a field its struct lacks: asked
 * with the enumerator of the runtime's (source) headers and the argument
 * given; only a 0 return counts, and an enumerator of -1 is not asked. */
static int queries_seen[8], query_count;

static int answer(int *value, int enumerator, int argument)
{
	queries_seen[query_count++ & 7] = enumerator;
	if (enumerator == 9)
		return 1; /* "not supported": the field stays 0 */
	*value = enumerator * 100 + argument;
	return 0;
}

static void test_report_queries(void)
{
	unsigned char src[32], dst[40];

	old_shape(src);
	query_count = 0;
	CU_ASSERT_EQUAL(cudastub_layout_report(&shape_old, src, &shape_new, dst, answer, 2), 0);
	CU_ASSERT_EQUAL(query_count, 2);
	CU_ASSERT_TRUE(queries_seen[0] == 7 && queries_seen[1] == 9);
	CU_ASSERT_EQUAL(get(dst, 20, 4), 702); /* strict: asked, answered */
	CU_ASSERT_EQUAL(get(dst, 28, 4), 0);   /* asked: the query declined */
	CU_ASSERT_EQUAL(get(dst, 32, 4), 0);   /* loose: no enumerator */
	/* giving never asks */
	query_count = 0;
	CU_ASSERT_PTR_NOT_NULL(cudastub_layout_give(&shape_old, src, &shape_new, dst));
	CU_ASSERT_EQUAL(query_count, 0);
	CU_ASSERT_EQUAL(get(dst, 20, 4), 0);
}

TS_TEST(test_report_queries, "report: fields asked of the runtime");

/* Round trip: a value every layout can hold comes back as it was. */
static void test_round_trip(void)
{
	unsigned char src[40], old[32], back[40];

	new_shape(src);
	CU_ASSERT_PTR_NOT_NULL(cudastub_layout_give(&shape_new, src, &shape_old, old));
	CU_ASSERT_EQUAL(cudastub_layout_report(&shape_old, old, &shape_new, back, NULL, 0), 0);
	/* every field equal; padding the source had is 0 */
	CU_ASSERT_EQUAL(memcmp(back, src, 26), 0);
	CU_ASSERT_TRUE(all_equal(back, 26, 2, 0));
	CU_ASSERT_EQUAL(memcmp(back + 28, src + 28, 8), 0);
	CU_ASSERT_TRUE(all_equal(back, 36, 4, 0));
}

TS_TEST(test_round_trip, "round trip through an older layout");

TS_MAIN_SUITE("layout engine: hand-built tables", NULL, NULL, NULL)

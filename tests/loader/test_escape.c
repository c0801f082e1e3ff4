/*
 * The one escape of outside text (stubs/loader/platform/loader_escape.c), compiled
 * in: a table of cases, one or more for each class of input and each
 * boundary between classes; every code point encoded, and encoded past
 * the end of Unicode; every size of output for every case.
 *
 * The checks here do not reuse the escape's own reading of UTF-8: the
 * expected outputs are written out by hand, the output is read back by an
 * unescape of this file's own, and the exhaustive test encodes code points
 * itself.
 */
#define _GNU_SOURCE /* strnlen */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader_escape.h"
#include "test_support.h"

struct escape_case {
	const char *what, *in, *out;
};

static const struct escape_case cases[] = {
	{"empty", "", ""},
	{"ASCII path", "/usr/local/cuda-13.0/lib64/libcudart.so.13",
	 "/usr/local/cuda-13.0/lib64/libcudart.so.13"},
	{"space and tilde, the printable ends of ASCII", " ~", " ~"},
	{"backslash doubled", "C:\\dir\\", "C:\\\\dir\\\\"},
	{"backslash before x, as in an escape", "\\x41", "\\\\x41"},
	{"C0: U+0001", "a\x01z", "a\\x01z"},
	{"C0: tab, newline, carriage return", "\t\n\r", "\\x09\\x0a\\x0d"},
	{"C0: ESC [2J", "\x1b[2J", "\\x1b[2J"},
	{"C0: U+001F, the last", "\x1f", "\\x1f"},
	{"DEL, U+007F", "a\x7fz", "a\\x7fz"},
	{"C1: U+0080, the first", "\xc2\x80", "\\xc2\\x80"},
	{"C1: U+0085 NEL", "a\xc2\x85z", "a\\xc2\\x85z"},
	{"C1: U+009B CSI",
	 "\xc2\x9b"
	 "2J",
	 "\\xc2\\x9b2J"},
	{"C1: U+009F, the last", "\xc2\x9f", "\\xc2\\x9f"},
	{"U+00A0, the first after C1", "\xc2\xa0", "\xc2\xa0"},
	{"u with diaeresis", "/opt/m\xc3\xbcller/lib", "/opt/m\xc3\xbcller/lib"},
	{"Japanese", "/\xe6\x97\xa5\xe6\x9c\xac/lib", "/\xe6\x97\xa5\xe6\x9c\xac/lib"},
	{"U+07FF, the last of two bytes", "\xdf\xbf", "\xdf\xbf"},
	{"U+0800, the first of three bytes", "\xe0\xa0\x80", "\xe0\xa0\x80"},
	{"U+D7FF, before the surrogates", "\xed\x9f\xbf", "\xed\x9f\xbf"},
	{"U+E000, after the surrogates", "\xee\x80\x80", "\xee\x80\x80"},
	{"U+FFFF, the last of three bytes", "\xef\xbf\xbf", "\xef\xbf\xbf"},
	{"U+10000, the first of four bytes", "\xf0\x90\x80\x80", "\xf0\x90\x80\x80"},
	{"U+1F600, an emoji", "\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80"},
	{"U+10FFFF, the last code point", "\xf4\x8f\xbf\xbf", "\xf4\x8f\xbf\xbf"},
	{"U+110000, past the last", "\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80"},
	{"f5 up: leads of nothing", "\xf5\x80\x80\x80", "\\xf5\\x80\\x80\\x80"},
	{"fe and ff", "\xfe\xff", "\\xfe\\xff"},
	{"overlong U+0000 (c0 80)", "\xc0\x80", "\\xc0\\x80"},
	{"overlong '/' (c0 af)", "a\xc0\xafz", "a\\xc0\\xafz"},
	{"overlong U+007F (c1 bf)", "\xc1\xbf", "\\xc1\\xbf"},
	{"overlong U+0000 in three bytes (e0 80 80)", "\xe0\x80\x80", "\\xe0\\x80\\x80"},
	{"overlong U+07FF in three bytes (e0 9f bf)", "\xe0\x9f\xbf", "\\xe0\\x9f\\xbf"},
	{"overlong U+FFFF in four bytes (f0 8f bf bf)", "\xf0\x8f\xbf\xbf", "\\xf0\\x8f\\xbf\\xbf"},
	{"surrogate U+D800 (ed a0 80)", "\xed\xa0\x80", "\\xed\\xa0\\x80"},
	{"surrogate U+DFFF (ed bf bf)", "\xed\xbf\xbf", "\\xed\\xbf\\xbf"},
	{"stray continuation bytes", "a\x80z\xbf", "a\\x80z\\xbf"},
	{"a lead cut short at the end: 2 of 2", "a\xc3", "a\\xc3"},
	{"a lead cut short at the end: 3 of 3", "\xe6\x97", "\\xe6\\x97"},
	{"a lead cut short at the end: 4 of 4", "\xf0\x9f\x98", "\\xf0\\x9f\\x98"},
	{"a sequence cut short by ASCII", "\xe6\x97x", "\\xe6\\x97x"},
	{"a sequence cut short by a valid one", "\xe6\xc3\xbc", "\\xe6\xc3\xbc"},
	{"a sequence cut short by a C1", "\xf0\x9f\xc2\x9b", "\\xf0\\x9f\\xc2\\x9b"},
	{"a lone 0xff in a path",
	 "/tmp/a\xff"
	 "b/lib",
	 "/tmp/a\\xffb/lib"},
	{"everything at once", "/x\xc2\x9b\xc2\x85\xff\n\\\xc3\xbc\x7f",
	 "/x\\xc2\\x9b\\xc2\\x85\\xff\\x0a\\\\\xc3\xbc\\x7f"},
};
enum { CASE_COUNT = sizeof cases / sizeof *cases };

/* Undoes the escape; 0 when text is not something the escape writes. */
static int unescape(const char *text, char *out, size_t size)
{
	size_t n = 0;

	static const char hex[] = "0123456789abcdef";

	for (const char *p = text; *p; n++) {
		const char *high, *low;

		if (n + 1 >= size)
			return 0;
		if (p[0] != '\\') {
			out[n] = *p++;
		} else if (p[1] == '\\') {
			out[n] = '\\';
			p += 2;
		} else if (p[1] == 'x' && p[2] && (high = strchr(hex, p[2])) && p[3] &&
			   (low = strchr(hex, p[3]))) {
			out[n] = (char)((high - hex) << 4 | (low - hex));
			p += 4;
		} else {
			return 0;
		}
	}
	out[n] = '\0';
	return 1;
}

/* Whether text is valid UTF-8 with no C0, DEL or C1 in it, read the long
 * way: decode each sequence, then judge the code point. */
static int clean_utf8(const char *text)
{
	for (const unsigned char *p = (const unsigned char *)text; *p;) {
		unsigned long cp;
		int len = *p < 0x80	  ? 1
			  : *p >> 5 == 6  ? 2
			  : *p >> 4 == 14 ? 3
			  : *p >> 3 == 30 ? 4
					  : 0;

		if (!len)
			return 0;
		cp = len == 1 ? *p : *p & (0x7f >> len);
		for (int i = 1; i < len; i++) {
			if ((p[i] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (p[i] & 0x3f);
		}
		if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) ||
		    (len == 4 && cp < 0x10000))
			return 0; /* overlong */
		if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || (cp >= 0xd800 && cp < 0xe000) ||
		    cp > 0x10ffff)
			return 0;
		p += len;
	}
	return 1;
}

/* Length of the piece of escaped text at p that must never be cut: an
 * escape (\\, \xNN, or the two \xNN of a C1 control, c2 80 to c2 9f), or
 * one UTF-8 character. */
static size_t piece(const char *p)
{
	if (p[0] == '\\' && p[1] == '\\')
		return 2;
	if (p[0] == '\\')
		return !strncmp(p, "\\xc2\\x8", 7) || !strncmp(p, "\\xc2\\x9", 7) ? 8 : 4;
	unsigned char c = (unsigned char)*p;

	return c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
}

static void test_table(void)
{
	for (int i = 0; i < CASE_COUNT; i++) {
		const struct escape_case *c = &cases[i];
		char out[256], back[256];
		size_t n = cudastub_escape(c->in, out, sizeof out);

		if (n != strlen(c->out) || strcmp(out, c->out))
			fprintf(stderr, "escape: %s: got \"%s\"\n", c->what, out);
		CU_ASSERT_EQUAL(n, strlen(c->out));
		CU_ASSERT_STRING_EQUAL(out, c->out);
		/* what it writes is clean, and reads back as the input */
		CU_ASSERT_TRUE(clean_utf8(out));
		CU_ASSERT_TRUE(unescape(out, back, sizeof back));
		CU_ASSERT_STRING_EQUAL(back, c->in);
	}
}

TS_TEST(test_table, "a table of cases: each class and each boundary");

/* UTF-8 of cp the plain way, also for surrogates and past U+10FFFF, the
 * forms the escape must refuse; returns the length. */
static int encode(unsigned long cp, unsigned char *out)
{
	if (cp < 0x80) {
		out[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (unsigned char)(0xc0 | cp >> 6);
		out[1] = (unsigned char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (unsigned char)(0xe0 | cp >> 12);
		out[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		out[2] = (unsigned char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (unsigned char)(0xf0 | cp >> 18);
	out[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
	out[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
	out[3] = (unsigned char)(0x80 | (cp & 0x3f));
	return 4;
}

/* Every code point from U+0001 to U+1FFFFF (the most four bytes encode)
 * passes unchanged or has each of its bytes escaped, as its class says. */
static void test_every_code_point(void)
{
	unsigned long wrong = 0, first_wrong = 0;

	for (unsigned long cp = 1; cp <= 0x1fffff; cp++) {
		unsigned char in[8] = {0};
		char out[40], want[40];
		int len = encode(cp, in), kept;

		kept = cp >= 0xa0 ? !(cp >= 0xd800 && cp <= 0xdfff) && cp <= 0x10ffff
				  : cp >= 0x20 && cp < 0x7f && cp != '\\';
		if (kept)
			memcpy(want, in, (size_t)len + 1);
		else if (cp == '\\')
			strcpy(want, "\\\\");
		else
			for (int i = 0; i < len; i++)
				snprintf(want + 4 * i, sizeof want - 4 * (size_t)i, "\\x%02x",
					 in[i]);
		if (cudastub_escape((const char *)in, out, sizeof out) != strlen(want) ||
		    strcmp(out, want)) {
			if (!wrong++)
				first_wrong = cp;
		}
	}
	if (wrong)
		fprintf(stderr, "escape: %lu code points wrong, the first U+%04lX\n", wrong,
			first_wrong);
	CU_ASSERT_EQUAL(wrong, 0);
}

TS_TEST(test_every_code_point, "every code point, and past U+10FFFF");

/* For every case and every size: terminated, a prefix of the whole, cut
 * only between two pieces, and as long as the size allows; the length
 * returned is the whole escape's. */
static void test_every_size(void)
{
	for (int i = 0; i < CASE_COUNT; i++) {
		const struct escape_case *c = &cases[i];
		size_t whole = strlen(c->out);

		CU_ASSERT_EQUAL(cudastub_escape(c->in, NULL, 0), whole);
		for (size_t size = 1; size <= whole + 2; size++) {
			char out[256];
			size_t len, at = 0;

			memset(out, '#', sizeof out);
			CU_ASSERT_EQUAL(cudastub_escape(c->in, out, size), whole);
			len = strnlen(out, sizeof out);
			CU_ASSERT_TRUE_FATAL(len < size);
			CU_ASSERT_EQUAL(out[size], '#'); /* nothing past size */
			CU_ASSERT_EQUAL(strncmp(out, c->out, len), 0);
			while (at < len)
				at += piece(c->out + at);
			if (at != len || (len < whole && len + piece(c->out + len) < size))
				fprintf(stderr, "escape: %s: size %zu cut at %zu\n", c->what, size,
					len);
			CU_ASSERT_EQUAL(at, len); /* a cut between pieces */
			/* the next piece did not fit */
			CU_ASSERT_TRUE(len == whole || len + piece(c->out + len) >= size);
			CU_ASSERT_TRUE(clean_utf8(out));
		}
	}
}

TS_TEST(test_every_size, "every size: terminated, cut between whole pieces");

/* A piece that does not fit stops the output there, even when a shorter
 * one after it would fit: the text is cut, never thinned out. */
static void test_cut_never_thins(void)
{
	char out[8];

	/* "ab" then U+009B (8 bytes escaped) then "c" */
	CU_ASSERT_EQUAL(cudastub_escape("ab\xc2\x9b"
					"c",
					out, sizeof out),
			11);
	CU_ASSERT_STRING_EQUAL(out, "ab");
}

TS_TEST(test_cut_never_thins, "a cut is a cut: nothing after a piece that did not fit");

TS_MAIN_SUITE("loader: the escape of outside text", NULL, NULL, NULL)

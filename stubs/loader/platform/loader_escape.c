/*
 * The escape of outside text (loader_escape.h). It works on whole
 * characters: at each position either a well formed UTF-8 sequence starts
 * (the table of well formed sequences in the Unicode standard, chapter 3),
 * or the byte there is escaped alone and the next byte is looked at afresh.
 * A broken sequence therefore costs only its own bytes, and the valid text
 * after it stays readable.
 *
 * Why C1 too: terminals that decode UTF-8 obey U+009B (CSI) like ESC [,
 * and U+0085 (NEL) breaks a line, so a file name holding them could move
 * the cursor or print a line that looks like the stub's own. Why invalid
 * bytes too: a terminal may take them for C1 controls (8-bit mode), and
 * JSON cannot carry them.
 */
#include "loader_escape.h"

#include <string.h>

/* Length of the well formed UTF-8 sequence of two to four bytes at s, or 0
 * when none starts there. Reads no byte past a terminating NUL, which is
 * never a continuation byte. */
static size_t sequence_length(const unsigned char *s)
{
	unsigned char low = 0x80, high = 0xbf; /* the second byte's range */
	size_t len;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0; /* ASCII, a continuation byte, c0/c1 (always overlong), f5 up */
	len = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	if (s[0] == 0xe0)
		low = 0xa0; /* below: overlong forms of U+0000 to U+07FF */
	else if (s[0] == 0xed)
		high = 0x9f; /* above: the surrogates U+D800 to U+DFFF */
	else if (s[0] == 0xf0)
		low = 0x90; /* below: overlong forms of U+0000 to U+FFFF */
	else if (s[0] == 0xf4)
		high = 0x8f; /* above: code points past U+10FFFF */
	if (s[1] < low || s[1] > high)
		return 0;
	for (size_t i = 2; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

/* Writes \xNN for each of the count bytes at s into unit; returns the
 * length written. */
static size_t hex_escapes(const unsigned char *s, size_t count, char *unit)
{
	static const char hex[] = "0123456789abcdef";

	for (size_t i = 0; i < count; i++) {
		unit[4 * i] = '\\';
		unit[4 * i + 1] = 'x';
		unit[4 * i + 2] = hex[s[i] >> 4];
		unit[4 * i + 3] = hex[s[i] & 15];
	}
	return 4 * count;
}

size_t cudastub_escape(const char *text, char *out, size_t size)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t n = 0, written = 0;

	while (*p) {
		/* one character of the input, as it is written out: at most
		 * the two bytes of a C1 control, escaped */
		char unit[8];
		size_t len, need;
		const unsigned char *run = p;

		/* a run of printable ASCII but the backslash, the most of any
		 * path, is itself: copied whole, what fits of it when not all */
		while (*p >= 0x20 && *p < 0x7f && *p != '\\')
			p++;
		if (p > run) {
			need = (size_t)(p - run);
			if (written == n && n + 1 < size) {
				size_t fits = n + need < size ? need : size - 1 - n;

				memcpy(out + n, run, fits);
				written = n + fits;
			}
			n += need;
			continue;
		}
		len = *p < 0x80 ? 1 : sequence_length(p);

		if (len == 0) {
			len = 1;
			need = hex_escapes(p, 1, unit);
		} else if (*p < 0x20 || *p == 0x7f || (len == 2 && p[0] == 0xc2 && p[1] < 0xa0)) {
			need = hex_escapes(p, len, unit);
		} else if (*p == '\\') {
			need = 2;
			memcpy(unit, "\\\\", 2);
		} else {
			need = len;
			memcpy(unit, p, len);
		}
		/* once a character did not fit, none after it is written */
		if (written == n && n + need < size) {
			memcpy(out + n, unit, need);
			written = n + need;
		}
		n += need;
		p += len;
	}
	if (size)
		out[written] = '\0';
	return n;
}

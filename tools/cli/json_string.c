/*
 * JSON string escaping. Quotes, backslashes and control characters are
 * escaped; valid UTF-8 passes through; any byte that does not start a
 * valid UTF-8 sequence (overlong forms, surrogates and code points above
 * U+10FFFF included) is written as \ufffd.
 */
#include "json.h"

/* Length of the valid UTF-8 sequence at s (2 to 4), or 0. */
static int utf8_sequence(const unsigned char *s)
{
	unsigned char c = s[0];
	int len, i;
	unsigned long cp;

	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		cp = c & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0; /* also stops at the terminating NUL */
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000))
		return 0; /* overlong */
	if ((cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

static void write_escape(FILE *out, unsigned char c)
{
	switch (c) {
	case '"': fputs("\\\"", out); break;
	case '\\': fputs("\\\\", out); break;
	case '\b': fputs("\\b", out); break;
	case '\f': fputs("\\f", out); break;
	case '\n': fputs("\\n", out); break;
	case '\r': fputs("\\r", out); break;
	case '\t': fputs("\\t", out); break;
	default: fprintf(out, "\\u%04x", c); break;
	}
}

void json_write_string(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', out);
	while (*p) {
		if (*p == '"' || *p == '\\' || *p < 0x20 || *p == 0x7f) {
			write_escape(out, *p++);
		} else if (*p < 0x80) {
			fputc(*p++, out);
		} else {
			int len = utf8_sequence(p);

			if (len) {
				fwrite(p, 1, (size_t)len, out);
				p += len;
			} else {
				fputs("\\ufffd", out);
				p++;
			}
		}
	}
	fputc('"', out);
}

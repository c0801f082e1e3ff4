/* UTF-8 read apart from the loader's escape: ts_utf8.h. */
#include "ts_utf8.h"

size_t ts_clean_character(const unsigned char *p, int lines)
{
	size_t len = *p < 0x80 ? 1 : *p >> 5 == 6 ? 2 : *p >> 4 == 14 ? 3 : *p >> 3 == 30 ? 4 : 0;
	unsigned long cp;

	if (!len)
		return 0;
	cp = len == 1 ? *p : *p & (0x7fu >> len);
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000))
		return 0; /* overlong */
	if ((cp < 0x20 && !(lines && cp == '\n')) || (cp >= 0x7f && cp < 0xa0) ||
	    (cp >= 0xd800 && cp < 0xe000) || cp > 0x10ffff)
		return 0;
	return len;
}

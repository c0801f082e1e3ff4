/*
 * The search's log (stubs/loader/platform/loader_log.c) and the one escape of
 * outside text (stubs/loader/platform/loader_escape.c) under whatever paths and
 * messages the environment can produce: every input line becomes an
 * attempt, the first an error. The log must stay within its arena, keep
 * its conclusion, and print and return no control character; the escape
 * must write valid UTF-8 holding no C0, DEL or C1 control, read back as
 * its input, and fit the size it is given, cut between two characters.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "loader.h"
#include "loader_escape.h"
#include "ts_utf8.h"

static struct cudastub_library lib = {
	.name = "fuzz",
	.env_path = "CUDASTUB_FUZZ_PATH",
	.env_major = "CUDASTUB_FUZZ_MAJOR",
	.family = "libfuzz",
};

/* Whether text is not what the escape writes: a byte that is not clean
 * UTF-8, or a backslash that starts no escape (\\ or \xNN). When last is
 * given, it is left at the last character or escape of text. */
static int badly_escaped_at(const char *text, const char **last)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)text;

	while (*p) {
		size_t len = ts_clean_character(p, 0);

		if (last)
			*last = (const char *)p;

		if (!len)
			return 1;
		if (*p == '\\') {
			if (p[1] == '\\')
				len = 2;
			else if (p[1] == 'x' && p[2] && strchr(hex, p[2]) && p[3] &&
				 strchr(hex, p[3]))
				len = 4;
			else
				return 1;
		}
		p += len;
	}
	return 0;
}

static int badly_escaped(const char *text)
{
	return badly_escaped_at(text, NULL);
}

/* Undoes the escape of text in place; returns its length. */
static size_t unescape(char *text)
{
	size_t n = 0;

	for (char *p = text; *p; n++) {
		if (p[0] == '\\' && p[1] == 'x') {
			char digits[3] = {p[2], p[3], 0};

			text[n] = (char)strtoul(digits, NULL, 16);
			p += 4;
		} else {
			text[n] = *p;
			p += *p == '\\' ? 2 : 1;
		}
	}
	text[n] = '\0';
	return n;
}

/* The escape of text, whole and cut to size bytes: the whole is clean and
 * reads back as text; the cut one is a prefix of the whole, fits, and
 * ends between two characters (what was cut off is not clean text on its
 * own when a cut falls inside an escape or a character). */
static void check_escape(const char *text, size_t size)
{
	size_t need = cudastub_escape(text, NULL, 0), len;
	char *whole = malloc(need + 1), *cut = malloc(size + 1);

	if (!whole || !cut)
		abort();
	if (cudastub_escape(text, whole, need + 1) != need || strlen(whole) != need ||
	    badly_escaped(whole))
		abort();
	cut[size] = 0x55; /* a byte past size that must stay */
	if (cudastub_escape(text, cut, size) != need || cut[size] != 0x55)
		abort();
	if (size) {
		const char *last = cut;

		len = strlen(cut);
		if (len >= size || strncmp(cut, whole, len) || badly_escaped_at(cut, &last) ||
		    badly_escaped(whole + len))
			abort();
		/* nor between the two escapes of a C1 control (c2 80 to c2 9f) */
		if (!strcmp(last, "\\xc2") &&
		    (!strncmp(whole + len, "\\x8", 3) || !strncmp(whole + len, "\\x9", 3)))
			abort();
	}
	if (unescape(whole) != strlen(text) || strcmp(whole, text))
		abort();
	free(whole);
	free(cut);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct cudastub_search s;
	char summary[4096], *text = malloc(size + 1), *line, *next;
	int n;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	memset(&s, 0, sizeof s);
	s.lib = &lib;
	s.info.attempts = s.attempts;
	s.pin = size % 3 ? 0 : 12;
	line = text;
	next = strchr(line, '\n');
	if (next)
		*next++ = '\0';
	s.info.error = cudastub_log_keep_message(&s, line);
	for (line = next; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		cudastub_log_attempt(&s, CUDASTUB_SOURCE_LOADER_SEARCH, 12, line, line);
	}
	if (s.arena_used > CUDASTUB_ARENA_SIZE || badly_escaped(s.info.error))
		abort();
	for (unsigned i = 0; i < s.info.attempt_count; i++)
		if (badly_escaped(s.attempts[i].outcome))
			abort();
	n = cudastub_log_summary(&s, summary, sizeof summary);
	/* bounded, escaped, and ending with its advice */
	if (n < 0 || (size_t)n >= sizeof summary || strlen(summary) != (size_t)n ||
	    badly_escaped(summary) || !strstr(summary, "names it.") || n > 220)
		abort();
	/* the escape, whole and cut to a size the input chooses */
	check_escape(text, size ? data[0] : 0);
	free(text);
	return 0;
}

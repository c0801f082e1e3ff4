/*
 * The search's log (stubs/common/loader_log.c) under whatever paths and
 * messages the environment can produce: every input line becomes an
 * attempt, the first an error. The log must stay within its arena, keep
 * its conclusion, and print and return no control character.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "loader.h"

static struct cudastub_library lib = {
	.name = "fuzz",
	.env_path = "CUDASTUB_FUZZ_PATH",
	.env_major = "CUDASTUB_FUZZ_MAJOR",
	.family = "libfuzz",
};

/* Whether a message holds a control character, or a backslash that starts
 * no escape. */
static int badly_escaped(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p == 0x7f || (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
			return 1;
		if (*p == '\\') {
			if (p[1] != '\\' && p[1] != 'x')
				return 1;
			p++;
		}
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct cudastub_search s;
	char summary[4096], escaped[64], *text = malloc(size + 1), *line, *next;
	size_t need;
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
	    badly_escaped(summary) || !strstr(summary, "to trace the search."))
		abort();
	/* the escape reports what it needs, and writes no more than it has */
	need = cudastub_log_escape(text, escaped, sizeof escaped);
	if (strlen(escaped) >= sizeof escaped || (need < sizeof escaped && strlen(escaped) != need))
		abort();
	free(text);
	return 0;
}

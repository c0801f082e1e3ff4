/*
 * What the search tried, kept for cudastub_<lib>_info() and error strings,
 * and echoed to stderr when CUDASTUB_DEBUG=1.
 *
 * Storage is a fixed array and a string arena inside the search record
 * (struct cudastub_search), so that a failed search can be reported without
 * allocating, and so the strings of the published record stay valid for the
 * life of the process. The log must hold under pressure, whatever the
 * environment holds (a 100 KB override, thousands of folders):
 *   - each entry is bounded: a longer one keeps its head and its tail
 *     around "...(N bytes)...", so a file name stays readable;
 *   - the attempts may fill only part of the arena; the rest is kept for
 *     the conclusion (the error, the chosen path, the summary), which is
 *     therefore always there;
 *   - the summary, the error strings' text, keeps its first words and its
 *     advice, and counts the attempts it had no room to name.
 * Messages (errors, outcomes, the summary, every debug line) go through the
 * one escape of outside text (loader_escape.c: C0, DEL, C1 and bytes that
 * are not UTF-8 as \xNN, the backslash as \\), so nothing a path holds can
 * move a terminal's cursor or print a line that looks like the stub's own.
 * Paths are data, kept as they are: the command escapes them with the same
 * function as it prints.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader_core.h"
#include "loader_escape.h"
#include "loader_log.h"
#include "loader_sys.h"

/* Longest text kept for one entry. */
enum { PATH_KEPT = 1024, MESSAGE_KEPT = 1024, SUMMARY_KEPT = 4096 };
/* Arena bytes the attempts may use; the rest waits for the conclusion. */
enum { ATTEMPTS_ARENA = CUDASTUB_ARENA_SIZE - CUDASTUB_ARENA_CONCLUSION };

void cudastub_text_add(char *out, size_t size, const char *text)
{
	size_t at = strlen(out);

	while (*text && at + 1 < size)
		out[at++] = *text++;
	out[at] = '\0';
}

void cudastub_text_add_int(char *out, size_t size, long n)
{
	char digits[24], *d = digits + sizeof digits;
	unsigned long u = n < 0 ? 0ul - (unsigned long)n : (unsigned long)n;

	*--d = '\0';
	do
		*--d = (char)('0' + u % 10);
	while (u /= 10);
	if (n < 0)
		*--d = '-';
	cudastub_text_add(out, size, d);
}

const char *cudastub_log_shorten(const char *text, char *out, size_t size)
{
	size_t len = strlen(text), half;
	char gap[48];

	if (len < size)
		return text;
	snprintf(gap, sizeof gap, "...(%zu bytes)...", len);
	if (size < strlen(gap) + 8)
		return "...";
	half = (size - strlen(gap) - 1) / 2;
	snprintf(out, size, "%.*s%s%s", (int)half, text, gap, text + len - half);
	return out;
}

/* Copies text, shortened to cap bytes and escaped when asked, into the
 * arena below limit; NULL when it has no room left. */
static const char *keep(struct cudastub_search *s, const char *text, size_t cap, int escape,
			unsigned limit)
{
	char shortened[SUMMARY_KEPT + 1];
	char *out = s->arena + s->arena_used;
	size_t room = s->arena_used < limit ? limit - s->arena_used : 0, len;

	if (!text)
		return NULL;
	text = cudastub_log_shorten(text, shortened,
				    cap < sizeof shortened ? cap : sizeof shortened);
	len = escape ? cudastub_escape(text, out, room) : strlen(text);
	if (len + 1 > room)
		return NULL;
	if (!escape)
		memcpy(out, text, len + 1);
	s->arena_used += (unsigned)len + 1;
	return out;
}

const char *cudastub_log_keep(struct cudastub_search *s, const char *text)
{
	const char *kept = keep(s, text, PATH_MAX, 0, CUDASTUB_ARENA_SIZE);

	return kept || !text ? kept : "(log full)";
}

const char *cudastub_log_keep_message(struct cudastub_search *s, const char *text)
{
	const char *kept = keep(s, text, MESSAGE_KEPT, 1, CUDASTUB_ARENA_SIZE);

	return kept || !text ? kept : "(log full)";
}

void cudastub_log_attempt(struct cudastub_search *s, cudastub_source source, int major,
			  const char *path, const char *outcome)
{
	cudastub_library_info *info = &s->info;
	unsigned mark = s->arena_used;
	const char *kept_path = NULL, *kept_outcome = NULL;

	cudastub_log_debug(s->lib, "  [%s] %s: %s", cudastub_source_name(source), path, outcome);
	if (info->attempt_count < CUDASTUB_MAX_ATTEMPTS &&
	    (kept_path = keep(s, path, PATH_KEPT, 0, ATTEMPTS_ARENA)) != NULL)
		kept_outcome = keep(s, outcome, MESSAGE_KEPT, 1, ATTEMPTS_ARENA);
	if (!kept_outcome) {
		s->arena_used = mark;
		info->attempts_dropped++;
		return;
	}
	cudastub_attempt *a = &s->attempts[info->attempt_count++];
	a->source = source;
	a->major = major;
	a->path = kept_path;
	a->outcome = kept_outcome;
}

/* CUDASTUB_DEBUG, read once: -1 until then. Racing readers compute the
 * same answer. */
static atomic_int debug_wanted = -1;

int cudastub_log_enabled(void)
{
	int wanted = atomic_load_explicit(&debug_wanted, memory_order_relaxed);

	if (wanted < 0) {
		const char *v = secure_getenv("CUDASTUB_DEBUG");

		wanted = v && *v && strcmp(v, "0") != 0;
		atomic_store_explicit(&debug_wanted, wanted, memory_order_relaxed);
	}
	return wanted;
}

void cudastub_log_debug(const struct cudastub_library *lib, const char *fmt, ...)
{
	char line[1024], escaped[2048];
	va_list ap;

	if (!cudastub_log_enabled())
		return;
	va_start(ap, fmt);
	if (vsnprintf(line, sizeof line, fmt, ap) >= (int)sizeof line)
		memcpy(line + sizeof line - 4, "...", 4); /* cut, and saying so */
	va_end(ap);
	/* cut, and saying so, between two characters: room is left for "..." */
	if (cudastub_escape(line, escaped, sizeof escaped - 3) >= sizeof escaped - 3)
		strcat(escaped, "...");
	cudastub_log_debug_escaped(lib, escaped);
}

void cudastub_log_debug_escaped(const struct cudastub_library *lib, const char *text)
{
	if (cudastub_log_enabled())
		cudastub_log_stderr("cudastub[%s]: %s\n", lib->name, text);
}

/* Formatted into a buffer and written with one system call: one write per
 * line keeps lines whole when threads interleave, and the stub imports no
 * stdio stream (stderr is an object, which the dynamic loader would look
 * up at every start rather than at the first use). */
void cudastub_log_stderr(const char *fmt, ...)
{
	char line[4096 + 64];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof line) {
		memcpy(line + sizeof line - 5, "...\n", 5); /* cut, and saying so */
		n = (int)sizeof line - 1;
	}
	(void)cudastub_sys_write(2, line, (size_t)n);
}

/* Appends to buf (n of size bytes used) what fits; returns the new length. */
static size_t append(char *buf, size_t size, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static size_t append(char *buf, size_t size, size_t n, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (n + 1 >= size)
		return n;
	va_start(ap, fmt);
	k = vsnprintf(buf + n, size - n, fmt, ap);
	va_end(ap);
	if (k < 0)
		return n;
	return n + (size_t)k < size ? n + (size_t)k : size - 1;
}

/*
 * The line error strings give for a failed search: what failed, how many
 * files were tried, and how to see them (`cudastub info`, the debug log)
 * or fix it. It fits inside one line of a program's own error message:
 * about 150 bytes, at most 220 (the error cut between characters past
 * ERROR_ROOM, a pin, the longest library names). The attempts themselves
 * stay in the library's info and in the debug log, which log them as the
 * search makes them. Returns the length written.
 */
#define ERROR_ROOM 64
/* The length of the longest start of text, escaped already (loader_escape.c),
 * that fits in room bytes and ends between two of its characters: a plain
 * cut could end inside an escape ("\\xf") or a UTF-8 sequence. */
static size_t whole_characters(const char *text, size_t room)
{
	size_t n = 0;

	while (text[n]) {
		unsigned char c = (unsigned char)text[n];
		size_t unit = c == '\\'	     ? (text[n + 1] == 'x' ? 4 : 2)
			      : c < 0x80     ? 1
			      : c >> 5 == 6  ? 2
			      : c >> 4 == 14 ? 3
					     : 4;

		if (n + unit > room || strnlen(text + n, unit) < unit)
			break;
		n += unit;
	}
	return n;
}

int cudastub_log_summary(struct cudastub_search *s, char *buf, unsigned size)
{
	const struct cudastub_library *lib = s->lib;
	const cudastub_library_info *info = &s->info;
	const char *error = info->error ? info->error : "not loaded";
	unsigned total = info->attempt_count + info->attempts_dropped;
	size_t n, cut = whole_characters(error, ERROR_ROOM);

	if (!size)
		return 0;
	n = append(buf, size, 0, "cudastub: %.*s%s", (int)cut, error, error[cut] ? "..." : "");
	if (total)
		n = append(buf, size, n, " (%u tried)", total);
	if (s->pin)
		n = append(buf, size, n, " (%s=%d)", lib->env_major, s->pin);
	n = append(buf, size, n, ". `cudastub info %s` or CUDASTUB_DEBUG=1 shows why; %s names it.",
		   lib->name, lib->env_path);
	return (int)n;
}

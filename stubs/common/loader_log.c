/*
 * What the search tried, kept for cudastub_<lib>_info() and error strings,
 * and echoed to stderr when CUDASTUB_DEBUG=1.
 *
 * Storage is a fixed array and a string arena inside the search record
 * (struct cudastub_search), so that a failed search can be reported without
 * allocating, and so the strings of the published record stay valid for the
 * life of the process.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader.h"

/* Copies text into the arena; truncates rather than fails. */
const char *cudastub_log_keep(struct cudastub_search *s, const char *text)
{
	unsigned room = CUDASTUB_ARENA_SIZE - s->arena_used;
	size_t len;
	char *out;

	if (!text)
		return NULL;
	if (room < 2)
		return "(log full)";
	len = strlen(text);
	if (len >= room)
		len = room - 1;
	out = s->arena + s->arena_used;
	memcpy(out, text, len);
	out[len] = '\0';
	s->arena_used += (unsigned)len + 1;
	return out;
}

void cudastub_log_attempt(struct cudastub_search *s, cudastub_source source, int major,
			  const char *path, const char *outcome)
{
	cudastub_library_info *info = &s->info;

	cudastub_log_debug(s->lib, "  [%s] %s: %s", cudastub_source_name(source), path, outcome);
	if (info->attempt_count == CUDASTUB_MAX_ATTEMPTS) {
		info->attempts_dropped++;
		return;
	}
	cudastub_attempt *a = &s->attempts[info->attempt_count++];
	a->source = source;
	a->major = major;
	a->path = cudastub_log_keep(s, path);
	a->outcome = cudastub_log_keep(s, outcome);
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
	char line[1024];
	va_list ap;

	if (!cudastub_log_enabled())
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	/* one write per line keeps lines whole when threads interleave */
	fprintf(stderr, "cudastub[%s]: %s\n", lib->name, line);
}

/*
 * A one-paragraph account of a failed search for error strings: what was
 * looked at and which variable would fix it. Returns the length written.
 */
int cudastub_log_summary(struct cudastub_search *s, char *buf, unsigned size)
{
	const struct cudastub_library *lib = s->lib;
	const cudastub_library_info *info = &s->info;
	int n = snprintf(buf, size,
			 "cudastub: %s; tried:", info->error ? info->error : "not loaded");
	unsigned i;

	for (i = 0; i < info->attempt_count && n >= 0 && (unsigned)n < size; i++) {
		const cudastub_attempt *a = &info->attempts[i];
		n += snprintf(buf + n, size - (unsigned)n, "%s %s (%s)", i ? ";" : "", a->path,
			      a->outcome);
	}
	if (n >= 0 && (unsigned)n < size && s->pin)
		n += snprintf(buf + n, size - (unsigned)n,
			      ". %s=%d limits the search to that major", lib->env_major, s->pin);
	if (n >= 0 && (unsigned)n < size)
		n += snprintf(buf + n, size - (unsigned)n,
			      ". Set %s to the library file or its folder, "
			      "or CUDASTUB_DEBUG=1 to trace the search.",
			      lib->env_path);
	return n;
}

/*
 * What a search tried, kept for cudastub info and the error strings, and
 * the CUDASTUB_DEBUG output (loader_log.c).
 */
#ifndef CUDASTUB_LOADER_LOG_H
#define CUDASTUB_LOADER_LOG_H

#include "loader_core.h"

/* loader_log.c. keep: data (a path) as it is; keep_message: a message,
 * escaped. Both shorten a long text around its middle, and are for the
 * search's conclusion (its attempts go through log_attempt). */
CUDASTUB_HIDDEN const char *cudastub_log_keep(struct cudastub_search *s, const char *text);
CUDASTUB_HIDDEN const char *cudastub_log_keep_message(struct cudastub_search *s, const char *text);
/* text, or when it has size bytes or more, its head and tail around
 * "...(N bytes)..." in out (size bytes). */
CUDASTUB_HIDDEN const char *cudastub_log_shorten(const char *text, char *out, size_t size);
/* Appends text, or n in decimal, to the string in out (size bytes),
 * cutting what does not fit. For the messages of every first call (a
 * loaded library's version, step 3's note): snprintf costs some 700
 * instructions a call, and as much again to bind at its first. */
CUDASTUB_HIDDEN void cudastub_text_add(char *out, size_t size, const char *text);
CUDASTUB_HIDDEN void cudastub_text_add_int(char *out, size_t size, long n);
CUDASTUB_HIDDEN void cudastub_log_attempt(struct cudastub_search *s, cudastub_source source,
					  int major, const char *path, const char *outcome);
CUDASTUB_HIDDEN int cudastub_log_enabled(void);
CUDASTUB_HIDDEN void cudastub_log_debug(const struct cudastub_library *lib, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A debug line of text escaped already (what keep_message or log_summary
 * wrote): log_debug would escape its backslashes a second time. */
CUDASTUB_HIDDEN void cudastub_log_debug_escaped(const struct cudastub_library *lib,
						const char *text);
/* printf to the standard error, in one write (CUDASTUB_DEBUG output, and
 * the few warnings a wait that ran out gives). */
CUDASTUB_HIDDEN void cudastub_log_stderr(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
CUDASTUB_HIDDEN int cudastub_log_summary(struct cudastub_search *s, char *buf, unsigned size);

#endif /* CUDASTUB_LOADER_LOG_H */

/*
 * Outside text as the command shows it. Every file name, environment
 * value, patchelf answer or argument the command prints goes through the
 * loader's one escape (stubs/loader/platform/loader_escape.c, compiled in), so the
 * command and the stubs' own messages show the same text the same way:
 * C0, DEL, C1 and bytes that are not UTF-8 as \xNN, the backslash as \\.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdlib.h>

#include "cli.h"
#include "loader_escape.h"

char *cli_escaped(const char *text)
{
	size_t need = cudastub_escape(text, NULL, 0);
	char *out = malloc(need + 1);

	if (out)
		cudastub_escape(text, out, need + 1);
	return out;
}

void cli_line(FILE *out, const char *fmt, ...)
{
	char *line = NULL, *shown = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (n >= 0)
		shown = cli_escaped(line);
	/* the message is lost, not printed raw, when memory is short */
	fputs(shown ? shown : "cudastub: out of memory", out);
	fputc('\n', out);
	free(shown);
	if (n >= 0)
		free(line);
}

/*
 * JSON string quoting. Every string of the report is escaped already
 * (cli.h: valid UTF-8, no control character), so quoting it is all JSON
 * asks: the quote and the backslash take a backslash. A JSON reader
 * therefore gets back the escaped text, \xNN and \\ included, the same
 * text the table shows.
 */
#include "json_string.h"

void json_write_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (const char *p = s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fputc('\\', out);
		fputc(*p, out);
	}
	fputc('"', out);
}

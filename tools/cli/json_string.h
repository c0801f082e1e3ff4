/*
 * JSON string quoting (json_string.c): what the writer (json.h) needs to
 * put escaped text in quotes.
 */
#ifndef CUDASTUB_CLI_JSON_STRING_H
#define CUDASTUB_CLI_JSON_STRING_H

#include <stdio.h>

/* Writes s, escaped text, as a JSON string: quoted, " and \\ escaped. */
void json_write_string(FILE *out, const char *s);

#endif

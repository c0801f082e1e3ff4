/*
 * Reading a CUDA version's ABI record (tools/gen_stubs/data/abi/), one
 * tab-separated record a line:
 *   fn    <name> <return type> <type> <declaration> <structs>
 *   enum  cudaError_t <enumerator> <value>
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart_test.h"

enum { FIELDS = 4 };

/* Splits line at tabs into up to FIELDS fields; returns how many. */
static int split(char *line, char *field[FIELDS])
{
	int n = 0;

	line[strcspn(line, "\r\n")] = '\0';
	while (n < FIELDS) {
		field[n++] = line;
		line = strchr(line, '\t');
		if (!line)
			break;
		*line++ = '\0';
	}
	return n;
}

static FILE *open_record(const char *record)
{
	FILE *f = fopen(record, "r");

	if (!f)
		fprintf(stderr, "cannot read the ABI record %s\n", record);
	return f;
}

int ct_abi_functions(const char *record, struct ct_abi_fn *out, int max)
{
	static char line[65536];
	FILE *f = open_record(record);
	char *field[FIELDS];
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof line, f))
		if (split(line, field) >= 3 && !strcmp(field[0], "fn") && n < max) {
			snprintf(out[n].name, sizeof out[n].name, "%s", field[1]);
			snprintf(out[n].ret, sizeof out[n].ret, "%s", field[2]);
			n++;
		}
	fclose(f);
	return n;
}

int ct_abi_codes(const char *record, struct ct_abi_code *out, int max)
{
	static char line[65536];
	FILE *f = open_record(record);
	char *field[FIELDS];
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof line, f))
		if (split(line, field) == 4 && !strcmp(field[0], "enum") &&
		    !strcmp(field[1], "cudaError_t") && n < max) {
			snprintf(out[n].name, sizeof out[n].name, "%s", field[2]);
			out[n].value = atoi(field[3]);
			n++;
		}
	fclose(f);
	return n;
}

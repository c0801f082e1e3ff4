/* Reading an ABI record (see ts_abi.h). */
#define _GNU_SOURCE
#include "ts_abi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int ts_abi_functions(const char *record, struct ts_abi_fn *out, int max)
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

int ts_abi_codes(const char *record, const char *type, struct ts_abi_code *out, int max)
{
	static char line[65536];
	char named[256];
	FILE *f = open_record(record);
	char *field[FIELDS];
	int n = 0;

	if (!f)
		return -1;
	/* the name the enum is recorded under: a typedef line's, or type */
	snprintf(named, sizeof named, "%s", type);
	while (fgets(line, sizeof line, f))
		if (split(line, field) == 3 && !strcmp(field[0], "typedef") &&
		    !strcmp(field[1], type))
			snprintf(named, sizeof named, "%s", field[2]);
	rewind(f);
	while (fgets(line, sizeof line, f))
		if (split(line, field) == 4 && !strcmp(field[0], "enum") &&
		    !strcmp(field[1], named) && n < max) {
			snprintf(out[n].name, sizeof out[n].name, "%s", field[2]);
			out[n].value = atoi(field[3]);
			n++;
		}
	fclose(f);
	return n;
}

const char *ts_abi_return_type(const struct ts_abi_fn *fns, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(fns[i].name, name))
			return fns[i].ret;
	return NULL;
}

/*
 * Column-aligned text tables. Cells are copied as they are: text from
 * outside comes escaped (cli.h), so no cell holds a control character
 * that could move the cursor or break a row. The last column is not
 * padded.
 */
#ifndef CUDASTUB_CLI_TABLE_H
#define CUDASTUB_CLI_TABLE_H

#include <stdio.h>

enum { TABLE_MAX_COLUMNS = 8 };

struct table {
	int columns;
	int rows;
	char **cells; /* rows * columns, row by row */
};

void table_init(struct table *t, int columns);
/* Adds a row of t->columns strings; a NULL cell prints as "-". */
void table_row(struct table *t, ...);
/* Prints every row, each line starting with prefix. */
void table_print(FILE *out, const struct table *t, const char *prefix);
void table_free(struct table *t);

#endif

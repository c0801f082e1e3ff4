/*
 * Column-aligned text tables. Cells are copied as they are: text from
 * outside comes escaped (cli.h), so no cell holds a control character
 * that could move the cursor or break a row. The last column is not
 * padded.
 */
#ifndef CUDASTUB_CLI_TEXT_TABLE_H
#define CUDASTUB_CLI_TEXT_TABLE_H

#include <stdio.h>

enum { TEXT_TABLE_MAX_COLUMNS = 8 };

struct text_table {
	int columns;
	int rows;
	char **cells; /* rows * columns, row by row */
};

void text_table_init(struct text_table *t, int columns);
/* Adds a row of t->columns strings; a NULL cell prints as "-". */
void text_table_row(struct text_table *t, ...);
/* Prints every row, each line starting with prefix. */
void text_table_print(FILE *out, const struct text_table *t, const char *prefix);
void text_table_free(struct text_table *t);

#endif

/* Text tables for the info report. */
#define _GNU_SOURCE
#include "text_table.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void text_table_init(struct text_table *t, int columns)
{
	t->columns = columns < TEXT_TABLE_MAX_COLUMNS ? columns : TEXT_TABLE_MAX_COLUMNS;
	t->rows = 0;
	t->cells = NULL;
}

static char *copy_cell(const char *s)
{
	return strdup(s ? s : "-");
}

void text_table_row(struct text_table *t, ...)
{
	char **grown = realloc(t->cells, sizeof *grown * (size_t)(t->rows + 1) * t->columns);
	va_list ap;

	if (!grown)
		return; /* out of memory: the row is left out */
	t->cells = grown;
	va_start(ap, t);
	for (int c = 0; c < t->columns; c++)
		t->cells[t->rows * t->columns + c] = copy_cell(va_arg(ap, const char *));
	va_end(ap);
	t->rows++;
}

static const char *cell(const struct text_table *t, int row, int column)
{
	const char *s = t->cells[row * t->columns + column];

	return s ? s : "?";
}

void text_table_print(FILE *out, const struct text_table *t, const char *prefix)
{
	size_t width[TEXT_TABLE_MAX_COLUMNS] = {0};

	for (int r = 0; r < t->rows; r++)
		for (int c = 0; c < t->columns; c++)
			if (strlen(cell(t, r, c)) > width[c])
				width[c] = strlen(cell(t, r, c));
	for (int r = 0; r < t->rows; r++) {
		fputs(prefix, out);
		for (int c = 0; c < t->columns; c++) {
			if (c + 1 < t->columns)
				fprintf(out, "%-*s  ", (int)width[c], cell(t, r, c));
			else
				fputs(cell(t, r, c), out);
		}
		fputc('\n', out);
	}
}

void text_table_free(struct text_table *t)
{
	for (int i = 0; i < t->rows * t->columns; i++)
		free(t->cells[i]);
	free(t->cells);
	t->cells = NULL;
	t->rows = 0;
}

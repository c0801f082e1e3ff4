/*
 * The JSON writer. Containers open on one line and list their members on
 * lines of their own; an empty container prints as {} or [].
 */
#include "json.h"
#include "json_string.h"

#include <string.h>

void json_init(struct json_writer *w, FILE *out)
{
	memset(w, 0, sizeof *w);
	w->out = out;
}

static void indent(struct json_writer *w, int depth)
{
	for (int i = 0; i < depth; i++)
		fputs("  ", w->out);
}

/* Whatever goes before a value or a key: a comma, a line break, indent. */
static void before_item(struct json_writer *w)
{
	if (w->after_key) {
		w->after_key = 0;
		return;
	}
	if (w->depth == 0)
		return;
	fputs(w->has_items[w->depth - 1] ? ",\n" : "\n", w->out);
	w->has_items[w->depth - 1] = 1;
	indent(w, w->depth);
}

static void open_container(struct json_writer *w, char c)
{
	before_item(w);
	fputc(c, w->out);
	if (w->depth < JSON_MAX_DEPTH)
		w->has_items[w->depth] = 0;
	w->depth++;
}

static void close_container(struct json_writer *w, char c)
{
	w->depth--;
	if (w->depth < JSON_MAX_DEPTH && w->has_items[w->depth]) {
		fputc('\n', w->out);
		indent(w, w->depth);
	}
	fputc(c, w->out);
}

void json_object_begin(struct json_writer *w)
{
	open_container(w, '{');
}

void json_object_end(struct json_writer *w)
{
	close_container(w, '}');
}

void json_array_begin(struct json_writer *w)
{
	open_container(w, '[');
}

void json_array_end(struct json_writer *w)
{
	close_container(w, ']');
}

void json_key(struct json_writer *w, const char *key)
{
	before_item(w);
	json_write_string(w->out, key);
	fputs(": ", w->out);
	w->after_key = 1;
}

void json_string(struct json_writer *w, const char *s)
{
	before_item(w);
	if (s)
		json_write_string(w->out, s);
	else
		fputs("null", w->out);
}

void json_int(struct json_writer *w, long long v)
{
	before_item(w);
	fprintf(w->out, "%lld", v);
}

void json_uint(struct json_writer *w, unsigned long long v)
{
	before_item(w);
	fprintf(w->out, "%llu", v);
}

void json_null(struct json_writer *w)
{
	before_item(w);
	fputs("null", w->out);
}

void json_finish(struct json_writer *w)
{
	fputc('\n', w->out);
}

void json_member_string(struct json_writer *w, const char *key, const char *s)
{
	json_key(w, key);
	json_string(w, s);
}

void json_member_int(struct json_writer *w, const char *key, long long v)
{
	json_key(w, key);
	json_int(w, v);
}

void json_member_uint(struct json_writer *w, const char *key, unsigned long long v)
{
	json_key(w, key);
	json_uint(w, v);
}

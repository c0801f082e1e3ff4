/*
 * A small streaming JSON writer: pretty-printed, two spaces per level.
 * Strings must be escaped text (cli.h; stubs/loader/platform/loader_escape.h):
 * valid UTF-8 without control characters, which only needs its quotes and
 * backslashes quoted to be a valid JSON string. A file name's odd bytes
 * therefore reach a JSON reader as the escapes \xNN, never as U+FFFD.
 */
#ifndef CUDASTUB_CLI_JSON_H
#define CUDASTUB_CLI_JSON_H

#include <stdio.h>

enum { JSON_MAX_DEPTH = 16 };

struct json_writer {
	FILE *out;
	int depth;
	int after_key;				 /* a key was written; its value follows */
	unsigned char has_items[JSON_MAX_DEPTH]; /* per open container */
};

void json_init(struct json_writer *w, FILE *out);
void json_object_begin(struct json_writer *w);
void json_object_end(struct json_writer *w);
void json_array_begin(struct json_writer *w);
void json_array_end(struct json_writer *w);
void json_key(struct json_writer *w, const char *key);
void json_string(struct json_writer *w, const char *s); /* NULL writes null */
void json_int(struct json_writer *w, long long v);
void json_uint(struct json_writer *w, unsigned long long v);
void json_null(struct json_writer *w);
/* A key and its value, inside an object. */
void json_member_string(struct json_writer *w, const char *key, const char *s);
void json_member_int(struct json_writer *w, const char *key, long long v);
void json_member_uint(struct json_writer *w, const char *key, unsigned long long v);
/* Ends the document with a newline. */
void json_finish(struct json_writer *w);

#endif

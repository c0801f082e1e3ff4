/*
 * A small, strict JSON parser for the tests: enough to read what
 * `cudastub info --json` prints and to check that it is JSON at all.
 * Strings are decoded (escapes, \u with surrogate pairs) to UTF-8.
 */
#ifndef CUDASTUB_E2E_JSON_PARSE_H
#define CUDASTUB_E2E_JSON_PARSE_H

#include <stddef.h>

enum jv_type { JV_NULL, JV_BOOL, JV_NUMBER, JV_STRING, JV_ARRAY, JV_OBJECT };

struct jv {
	enum jv_type type;
	int boolean;
	double number;
	char *string;	   /* JV_STRING, NUL-terminated */
	size_t count;	   /* members of an array or object */
	struct jv **items; /* their values */
	char **keys;	   /* JV_OBJECT: their keys */
};

/* The document, or NULL on any syntax error or trailing text. */
struct jv *jv_parse(const char *text);
void jv_free(struct jv *v);

/* NULL when v is not an object or lacks the key. */
const struct jv *jv_get(const struct jv *v, const char *key);
/* The string, or NULL when v is missing or not a string. */
const char *jv_str(const struct jv *v, const char *key);
/* True when v has the key and its value is null. */
int jv_is_null(const struct jv *v, const char *key);
/* The number, or fallback when missing or not a number. */
double jv_num(const struct jv *v, const char *key, double fallback);

/* The element of the "libraries" array whose "name" is name, or NULL. */
const struct jv *jv_library(const struct jv *doc, const char *name);

#endif

/* The tests' JSON parser: recursive descent over RFC 8259. */
#include "json_parse.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_DEPTH = 64 };

struct parser {
	const char *p;
	int depth;
};

static struct jv *parse_value(struct parser *ps);

static void skip_space(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
		ps->p++;
}

static struct jv *new_value(enum jv_type type)
{
	struct jv *v = calloc(1, sizeof *v);

	if (v)
		v->type = type;
	return v;
}

static int hex4(const char *s, unsigned *out)
{
	*out = 0;
	for (int i = 0; i < 4; i++) {
		char c = s[i];
		unsigned d;

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return -1;
		*out = *out * 16 + d;
	}
	return 0;
}

static size_t put_utf8(char *out, unsigned cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* A \u escape at ps->p (after the backslash-u), with its low surrogate. */
static int unicode_escape(struct parser *ps, unsigned *cp)
{
	unsigned low;

	if (hex4(ps->p, cp))
		return -1;
	ps->p += 4;
	if (*cp >= 0xdc00 && *cp <= 0xdfff)
		return -1; /* a lone low surrogate */
	if (*cp < 0xd800 || *cp > 0xdbff)
		return 0;
	if (ps->p[0] != '\\' || ps->p[1] != 'u' || hex4(ps->p + 2, &low) || low < 0xdc00 ||
	    low > 0xdfff)
		return -1;
	ps->p += 6;
	*cp = 0x10000 + ((*cp - 0xd800) << 10) + (low - 0xdc00);
	return 0;
}

/* A string at ps->p (on the opening quote); returns it decoded. */
static char *parse_string(struct parser *ps)
{
	/* decoding never makes a string longer than its source */
	char *out = malloc(strlen(ps->p) + 1);
	size_t n = 0;
	unsigned cp;

	if (!out || *ps->p++ != '"')
		goto fail;
	while (*ps->p != '"') {
		unsigned char c = (unsigned char)*ps->p++;

		if (c < 0x20)
			goto fail; /* raw control characters (and the end) */
		if (c != '\\') {
			out[n++] = (char)c;
			continue;
		}
		switch (*ps->p++) {
		case '"': out[n++] = '"'; break;
		case '\\': out[n++] = '\\'; break;
		case '/': out[n++] = '/'; break;
		case 'b': out[n++] = '\b'; break;
		case 'f': out[n++] = '\f'; break;
		case 'n': out[n++] = '\n'; break;
		case 'r': out[n++] = '\r'; break;
		case 't': out[n++] = '\t'; break;
		case 'u':
			if (unicode_escape(ps, &cp) || cp == 0)
				goto fail; /* a NUL would cut the C string */
			n += put_utf8(out + n, cp);
			break;
		default: goto fail;
		}
	}
	ps->p++;
	out[n] = '\0';
	return out;
fail:
	free(out);
	return NULL;
}

static int digits(struct parser *ps)
{
	const char *start = ps->p;

	while (*ps->p >= '0' && *ps->p <= '9')
		ps->p++;
	return ps->p > start;
}

static struct jv *parse_number(struct parser *ps)
{
	const char *start = ps->p;
	struct jv *v;

	if (*ps->p == '-')
		ps->p++;
	if (*ps->p == '0')
		ps->p++;
	else if (!digits(ps))
		return NULL;
	if (*ps->p == '.' && (ps->p++, !digits(ps)))
		return NULL;
	if (*ps->p == 'e' || *ps->p == 'E') {
		ps->p++;
		if (*ps->p == '+' || *ps->p == '-')
			ps->p++;
		if (!digits(ps))
			return NULL;
	}
	v = new_value(JV_NUMBER);
	if (v)
		v->number = strtod(start, NULL);
	return v;
}

static int append(struct jv *v, char *key, struct jv *item)
{
	struct jv **items = realloc(v->items, sizeof *items * (v->count + 1));
	char **keys;

	if (!items)
		return -1;
	v->items = items;
	if (v->type == JV_OBJECT) {
		keys = realloc(v->keys, sizeof *keys * (v->count + 1));
		if (!keys)
			return -1;
		v->keys = keys;
		v->keys[v->count] = key;
	}
	v->items[v->count++] = item;
	return 0;
}

/* An array or object at ps->p (on its opening bracket). */
static struct jv *parse_container(struct parser *ps, char open, char close)
{
	struct jv *v = new_value(open == '{' ? JV_OBJECT : JV_ARRAY);

	if (!v || ++ps->depth > MAX_DEPTH)
		goto fail;
	ps->p++;
	skip_space(ps);
	if (*ps->p == close) {
		ps->p++;
		ps->depth--;
		return v;
	}
	for (;;) {
		char *key = NULL;
		struct jv *item;

		skip_space(ps);
		if (open == '{') {
			if (*ps->p != '"' || !(key = parse_string(ps)))
				goto fail;
			skip_space(ps);
			if (*ps->p++ != ':') {
				free(key);
				goto fail;
			}
		}
		item = parse_value(ps);
		if (!item || append(v, key, item)) {
			free(key);
			jv_free(item);
			goto fail;
		}
		skip_space(ps);
		if (*ps->p == close)
			break;
		if (*ps->p++ != ',')
			goto fail;
	}
	ps->p++;
	ps->depth--;
	return v;
fail:
	jv_free(v);
	return NULL;
}

static struct jv *parse_literal(struct parser *ps, const char *word, enum jv_type type, int b)
{
	struct jv *v;

	if (strncmp(ps->p, word, strlen(word)))
		return NULL;
	ps->p += strlen(word);
	v = new_value(type);
	if (v)
		v->boolean = b;
	return v;
}

static struct jv *parse_value(struct parser *ps)
{
	struct jv *v;

	skip_space(ps);
	switch (*ps->p) {
	case '{': return parse_container(ps, '{', '}');
	case '[': return parse_container(ps, '[', ']');
	case '"':
		v = new_value(JV_STRING);
		if (v && !(v->string = parse_string(ps))) {
			free(v);
			v = NULL;
		}
		return v;
	case 't': return parse_literal(ps, "true", JV_BOOL, 1);
	case 'f': return parse_literal(ps, "false", JV_BOOL, 0);
	case 'n': return parse_literal(ps, "null", JV_NULL, 0);
	default: return parse_number(ps);
	}
}

struct jv *jv_parse(const char *text)
{
	struct parser ps = {text, 0};
	struct jv *v = parse_value(&ps);

	skip_space(&ps);
	if (v && *ps.p) {
		jv_free(v);
		return NULL;
	}
	return v;
}

void jv_free(struct jv *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->count; i++) {
		jv_free(v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->string);
	free(v);
}

const struct jv *jv_get(const struct jv *v, const char *key)
{
	if (!v || v->type != JV_OBJECT)
		return NULL;
	for (size_t i = 0; i < v->count; i++)
		if (!strcmp(v->keys[i], key))
			return v->items[i];
	return NULL;
}

const char *jv_str(const struct jv *v, const char *key)
{
	const struct jv *s = jv_get(v, key);

	return s && s->type == JV_STRING ? s->string : NULL;
}

int jv_is_null(const struct jv *v, const char *key)
{
	const struct jv *n = jv_get(v, key);

	return n && n->type == JV_NULL;
}

double jv_num(const struct jv *v, const char *key, double fallback)
{
	const struct jv *n = jv_get(v, key);

	return n && n->type == JV_NUMBER ? n->number : fallback;
}

const struct jv *jv_library(const struct jv *doc, const char *name)
{
	const struct jv *libs = jv_get(doc, "libraries");

	for (size_t i = 0; libs && libs->type == JV_ARRAY && i < libs->count; i++) {
		const char *n = jv_str(libs->items[i], "name");

		if (n && !strcmp(n, name))
			return libs->items[i];
	}
	return NULL;
}

/*
 * UTF-8 read by the tests themselves, apart from the loader's escape
 * (stubs/loader/platform/loader_escape.c), so that a check of what the
 * escape writes does not share its reading: the CLI's escaping suite and
 * the log's fuzz target (which compiles ts_utf8.c alone).
 */
#ifndef CUDASTUB_TS_UTF8_H
#define CUDASTUB_TS_UTF8_H

#include <stddef.h>

/* Length of the character at p when it is valid UTF-8 (no overlong form,
 * surrogate or code point above U+10FFFF) and no C0 control (a line break
 * allowed when lines is set), DEL or C1 control; else 0. */
size_t ts_clean_character(const unsigned char *p, int lines);

#endif

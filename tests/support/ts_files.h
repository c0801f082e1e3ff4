/*
 * Temporary folder trees for tests that lay out files (a fake driver
 * folder, a copy of a library under another name). ts_remove_tree
 * (test_support.h) removes them.
 */
#ifndef CUDASTUB_TS_FILES_H
#define CUDASTUB_TS_FILES_H

#include <stddef.h>

/* A fresh folder "$TMPDIR/cudastub-<tag>-XXXXXX" in buf; buf, or NULL. */
const char *ts_tmpdir(const char *tag, char *buf, size_t size);

/* Copies the bytes of from (following links) to a new file to, mode 0755.
 * 0, or -1. */
int ts_copy_file(const char *from, const char *to);

/* path when it exists; otherwise NULL after reporting it unavailable
 * (ts_unavailable: "<path> missing; <install>"). */
const char *ts_present(const char *path, const char *install);

/* The folder of path (all before its last slash) in buf; buf. */
const char *ts_folder_of(const char *path, char *buf, size_t size);

/* " <prefix>-fsanitize=<each>" for a sanitizer list ("address,undefined")
 * in buf: a program that loads a sanitizer build's stub needs that
 * sanitizer's runtime first, so it is built with the same flags. */
const char *ts_sanitizer_flags(const char *list, const char *prefix, char *buf, size_t size);

#endif

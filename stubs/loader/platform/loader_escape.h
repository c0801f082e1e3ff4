/*
 * The one escape of text that came from outside (paths, environment
 * values, dlerror() strings) before anything prints or returns it: the
 * loader's messages, its CUDASTUB_DEBUG lines, its error strings, and
 * every report of the cudastub command. A header of its own, so that the
 * command can compile loader_escape.c without the rest of the loader.
 */
#ifndef CUDASTUB_LOADER_ESCAPE_H
#define CUDASTUB_LOADER_ESCAPE_H

#include <stddef.h>

/*
 * Writes text escaped into out: characters that are valid UTF-8 and
 * printable pass through unchanged (so "ü" and "日本" stay readable); the
 * bytes of a C0 control (0x00-0x1f), DEL (0x7f), a C1 control (U+0080 to
 * U+009F, bytes c2 80 to c2 9f) and every byte that is not part of a well
 * formed UTF-8 sequence (a stray continuation byte, a truncated sequence,
 * an overlong form, a surrogate, a code point above U+10FFFF) become \xNN,
 * two lower-case hex digits each; the backslash becomes \\. The escape is
 * therefore reversible, and what it writes is valid UTF-8 holding no
 * control character.
 *
 * Like snprintf, it writes what fits in size bytes, always terminated
 * when size is not 0 (out may be NULL when it is), and returns the length
 * the whole escape needs. What is cut is cut between two characters:
 * never inside an escape or a UTF-8 sequence.
 */
__attribute__((visibility("hidden"))) size_t cudastub_escape(const char *text, char *out,
							     size_t size);

#endif

/*
 * Where a function's code lies in a library file.
 */
#ifndef CUDASTUB_TS_SYMBOL_OFFSET_H
#define CUDASTUB_TS_SYMBOL_OFFSET_H

/* The file offset of the code of the dynamic symbol name in the 64-bit ELF
 * file at path (its value mapped through the loadable segments), or -1. */
long ts_symbol_offset(const char *path, const char *name);

#endif

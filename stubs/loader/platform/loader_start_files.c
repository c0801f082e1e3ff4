/*
 * What GCC's start files look for, answered inside the stub.
 *
 * crti.o and crtbeginS.o, linked into every shared library, refer weakly
 * to the profiler's __gmon_start__ and to libitm's clone-table functions.
 * Left undefined, each is a symbol lookup that the dynamic loader makes at
 * every start of every process that links a stub, walking all of its
 * objects to find nothing: some 10,000 instructions per stub, a fifth of
 * what ten stubs add to a start. Defined here, hidden,
 * they are settled when the stub is linked.
 *
 * None of them does anything, which is what the start files do when they
 * are absent: crtbeginS.o calls the clone-table functions only for a
 * non-empty table, and a stub has no transactional-memory clones; a
 * program built for gprof starts it from its own __gmon_start__.
 *
 * Not --defsym=NAME=0: the linker turns the start files' load of the
 * address into a PC-relative one, which then points at the stub's first
 * byte instead of being 0, and _init calls it.
 */
#include <stddef.h>

void __gmon_start__(void);
void _ITM_registerTMCloneTable(void *table, size_t count);
void _ITM_deregisterTMCloneTable(void *table);

void __gmon_start__(void)
{
}

void _ITM_registerTMCloneTable(void *table, size_t count)
{
	(void)table;
	(void)count;
}

void _ITM_deregisterTMCloneTable(void *table)
{
	(void)table;
}

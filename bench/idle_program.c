/*
 * A program that links one library (cheap_call.h) and never calls it, so
 * that starting it costs what loading the library costs and nothing more.
 * The call stays in the program, behind a condition no start meets, so
 * the link keeps the library.
 *
 *   bench_idle_<library>_<stub|real>, bench_idle_empty, bench_idle_nothing
 */
#include "cheap_call.h"

int main(int argc, char **argv)
{
	(void)argv;
	if (argc > 1000)
		return cheap_call();
	return 0;
}

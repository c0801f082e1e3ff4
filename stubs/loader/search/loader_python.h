/*
 * Where Python and conda keep NVIDIA's wheels and libraries, for step 3 of
 * the search (loader_python.c).
 */
#ifndef CUDASTUB_LOADER_PYTHON_H
#define CUDASTUB_LOADER_PYTHON_H

#include "loader_core.h"

/* The folders step 3 looks under, in its order: roots
 * holding pip's nvidia/<component>/lib folders, or (conda) the library
 * files themselves. */
enum cudastub_root_kind { CUDASTUB_ROOT_WHEELS, CUDASTUB_ROOT_LIBRARY_FOLDER };
enum { CUDASTUB_MAX_PYTHON_ROOTS = 16 };
struct cudastub_python_roots {
	unsigned count;
	struct {
		char path[4096];
		enum cudastub_root_kind kind;
		const char *why; /* how it was found, for the log */
	} root[CUDASTUB_MAX_PYTHON_ROOTS];
};
/* Appends the Python and conda roots to roots (resolved, each once). */
CUDASTUB_HIDDEN void cudastub_python_roots(struct cudastub_python_roots *roots,
					   int loaded_from_python);

#endif /* CUDASTUB_LOADER_PYTHON_H */

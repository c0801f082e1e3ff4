/*
 * Opening one candidate and deciding whether it is the library wanted (loader_candidate.c).
 */
#ifndef CUDASTUB_LOADER_CANDIDATE_H
#define CUDASTUB_LOADER_CANDIDATE_H

#include "loader_core.h"

struct cudastub_self {
	const void *link_map; /* our own object */
	const char *path;     /* our own file, as the loader knows it */
	unsigned long dev, ino;
};
CUDASTUB_HIDDEN void cudastub_self_identify(struct cudastub_self *self);
enum cudastub_try {
	CUDASTUB_TRY_LOADED,   /* lib->handle and info are set */
	CUDASTUB_TRY_ABSENT,   /* nothing there */
	CUDASTUB_TRY_REJECTED, /* something there, not usable */
	CUDASTUB_TRY_SELF      /* a stub answered: look past the loader's pick */
};
CUDASTUB_HIDDEN enum cudastub_try cudastub_try_candidate(struct cudastub_search *s,
							 const struct cudastub_self *self,
							 cudastub_source source, int major,
							 const char *path, int dlopen_flags);

/* Whether an opened object is a cudastub build (it
 * defines a cudastub_<lib>_info of its own), not NVIDIA's. */
CUDASTUB_HIDDEN int cudastub_is_stub_build(void *handle);

#endif /* CUDASTUB_LOADER_CANDIDATE_H */

/*
 * CUDA versions: decoded, read from a file's name or text, from a library's
 * marker or the driver's answer (loader_versions.c, loader_marker.c,
 * loader_driver_name.c), and the order of majors that a process's CUDA
 * release asks for (loader_release.c).
 */
#ifndef CUDASTUB_LOADER_VERSIONS_H
#define CUDASTUB_LOADER_VERSIONS_H

#include "loader_core.h"

/* loader_release.c: the majors a search tries first, so that the process
 * keeps one CUDA release (a mask of CUDASTUB_MAJOR_BIT, 0 for none); fills
 * info.driver_version and info.choice. A library's preferred_majors. */
CUDASTUB_HIDDEN uint32_t cudastub_release_preference(struct cudastub_search *search);

/* loader_driver_name.c: the CUDA version (12040) the driver a file name
 * libcuda.so.<driver version> supports, by its branch, or 0 when the name
 * does not say; *at_least is set for a branch newer than any known, whose
 * answer is then the newest known version. _from_file resolves path's
 * links first and copies the driver version ("550.163.01") to driver. */
CUDASTUB_HIDDEN int cudastub_driver_version_of_name(const char *name, int *at_least);
CUDASTUB_HIDDEN int cudastub_driver_version_from_file(const char *path, char *driver, size_t size,
						      int *at_least);

/* loader_versions.c: a CUDA version (12040) as major and minor; -1 for
 * none (0 or less). */
CUDASTUB_HIDDEN int cudastub_version_decode(int version, int *major, int *minor);
/* A library's own version and the first of it in a CUDA release (the
 * spec's release lines, newest first, ending with cuda_major 0). */
struct cudastub_release_line {
	int cuda_major;
	int first[3]; /* major, minor, patch */
};
/* The CUDA major own belongs to: the newest line whose first version is
 * not newer than own; -1 when own is older than every line. */
CUDASTUB_HIDDEN int cudastub_release_of(const struct cudastub_release_line *lines,
					const int own[3]);
/* "<family>.so.<major>.<minor>[.<more>...]" (libcudart.so.11.8.89) as major
 * and minor: 0, or -1 for any other name. Digits only, no sign, major 1 to
 * 99, minor 0 to 99. */
CUDASTUB_HIDDEN int cudastub_version_from_file_name(const char *name, const char *family,
						    int *major, int *minor);
/* A version a library writes as text ("12.550.163.01": NVML's), read as
 * its first three numbers (own; a missing one is 0): 0, or -1 unless the
 * text, within size bytes and ended by NUL, is numbers of at most 6 digits
 * separated by single dots, two of them at least. */
enum { CUDASTUB_VERSION_TEXT_SIZE = 96 };
CUDASTUB_HIDDEN int cudastub_version_from_text(const char *text, size_t size, int own[3]);
/* A pin's text as a major (CUDASTUB_<LIB>_MAJOR): 0 and *major set when it
 * is digits only, not starting with 0, and a major sonames holds (any from
 * 1 to 99 when sonames serve every major, major 0); else -1. */
CUDASTUB_HIDDEN int cudastub_pin_parse(const char *text, const struct cudastub_soname *sonames,
				       int *major);
/* A library's own version code (cuDNN's cudnnGetVersion, NCCL's
 * ncclGetVersion) as major, minor and patch: major * 10000 + minor * 100 +
 * patch (cuDNN 9: 91900; NCCL 2.9 on: 22809), or below 10000 the older
 * major * 1000 + minor * 100 + patch (cuDNN 8: 8907; NCCL 2.8: 2804).
 * 0, or -1 for a code of 0 or less. */
CUDASTUB_HIDDEN int cudastub_version_code_split(long long code, int own[3]);

/* loader_marker.c: the CUDA version a loaded library says, in its
 * read-only data, it was built with: the "<major>.<minor>" that follows
 * marker ("+cuda" in NCCL's "NCCL version 2.28.9+cuda13.0"). 0, or -1 when
 * the library's file has no such text. */
CUDASTUB_HIDDEN int cudastub_cuda_version_after_marker(void *handle, const char *marker, int *major,
						       int *minor);
/* The same, of the library file at path (not opened blocking: a FIFO
 * answers -1). */
CUDASTUB_HIDDEN int cudastub_cuda_version_in_file(const char *path, const char *marker, int *major,
						  int *minor);

/* cuDriverGetVersion of an opened driver: its code (0 for success), or -1
 * when it has none; *version is 0 unless it answered. */
CUDASTUB_HIDDEN int cudastub_driver_version(void *driver, int *version);

#endif /* CUDASTUB_LOADER_VERSIONS_H */

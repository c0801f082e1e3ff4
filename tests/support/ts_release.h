/*
 * NVIDIA's libraries of a CUDA release, as the real-library suites find
 * them: 13 is the local toolkit's (ld.so.cache knows its folder), 12 and 11
 * the fixtures tests/fixtures/fetch.sh fetched (cuda-12.4, mathlibs-12.4,
 * cupti-12.4, cusolvermg-12.4, nvjpeg-12.4, nvfatbin-12.4, cufile-12.4,
 * npp-12.4, and the same of 11.8), which keep each library in the folder its Debian
 * package does.
 */
#ifndef CUDASTUB_TS_RELEASE_H
#define CUDASTUB_TS_RELEASE_H

#include <stddef.h>

/* The release's fixture folders joined by ':' in buf, as a packager puts a
 * release on LD_LIBRARY_PATH (a library needing another of its release
 * finds it there); "" for 13. Missing fixtures are reported
 * (ts_fixture_libdir) and left out. buf. */
const char *ts_release_path(int major, char *buf, size_t size);

/* The release's file soname in buf: the toolkit's for 13, else the first
 * of the release's fixture folders that holds it (or, for a library Debian
 * ships apart, its own fixture: nccl-2.29; N/A for one this machine cannot
 * have: cuDNN of 12 and 11, NCCL of 11). NULL when there is none,
 * after reporting why: a missing fixture or toolkit as ts_fixture_libdir
 * and ts_toolkit_file do (N/A where it is not this architecture's), a
 * fixture without the file as ts_unavailable. */
const char *ts_release_file(int major, const char *soname, char *buf, size_t size);

#endif

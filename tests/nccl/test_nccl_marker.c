/*
 * The CUDA release read from a library's read-only data
 * (stubs/loader/search/loader_marker.c, spec: cuda_release marker), on files,
 * without loading them: NCCL's banner names the CUDA it was built with.
 *
 *   real      the 13.0 toolkit's libnccl.so.2 says 13.0; Debian sid's
 *             (nccl-2.29 fixture) 12.4: read from the file alone, so this
 *             holds where that library cannot load (it needs glibc 2.38);
 *   this file a banner this test carries in its own .rodata is read, one
 *             it lacks is not;
 *   refused   a file that is no ELF, a folder, a FIFO (never opened
 *             blocking) and a missing path answer -1.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader.h"
#include "test_support.h"
#include "loader_versions.h"

/* a banner of this test's own: a constant, so in .rodata */
const char test_banner[] = "cudastub-test banner 1.2.3+cudatest11.8 end";

static void test_real(void)
{
	char toolkit[PATH_MAX], dir[PATH_MAX / 2], debian[PATH_MAX];
	int major = -1, minor = -1;

	if (ts_toolkit_file("libnccl.so.2", toolkit, sizeof toolkit)) {
		CU_ASSERT_EQUAL(cudastub_cuda_version_in_file(toolkit, "+cuda", &major, &minor), 0);
		CU_ASSERT_EQUAL(major, 13);
		CU_ASSERT_EQUAL(minor, 0);
		printf("  %s: CUDA %d.%d\n", toolkit, major, minor);
	}
	if (ts_fixture_libdir("nccl-2.29", dir, sizeof dir)) {
		snprintf(debian, sizeof debian, "%s/libnccl.so.2", dir);
		major = minor = -1;
		CU_ASSERT_EQUAL(cudastub_cuda_version_in_file(debian, "+cuda", &major, &minor), 0);
		CU_ASSERT_EQUAL(major, 12);
		CU_ASSERT_EQUAL(minor, 4);
		printf("  %s: CUDA %d.%d\n", debian, major, minor);
	}
}

TS_TEST(test_real, "NCCL's banner: 13.0 (toolkit), 12.4 (Debian)");

static void test_this_file(void)
{
	int major = -1, minor = -1;

	CU_ASSERT_PTR_NOT_NULL(strstr(test_banner, "+cudatest")); /* keeps it */
	CU_ASSERT_EQUAL(
		cudastub_cuda_version_in_file("/proc/self/exe", "+cudatest", &major, &minor), 0);
	CU_ASSERT_EQUAL(major, 11);
	CU_ASSERT_EQUAL(minor, 8);
	CU_ASSERT_EQUAL(
		cudastub_cuda_version_in_file("/proc/self/exe", "+nosuchmarker", &major, &minor),
		-1);
}

TS_TEST(test_this_file, "a banner in this test's own file");

static void test_refused(void)
{
	char dir[] = "/tmp/cudastub-marker-XXXXXX", path[sizeof dir + 16];
	int major, minor;
	FILE *f;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/text", dir);
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("not an ELF file, though it says +cuda13.0\n", f);
	fclose(f);
	CU_ASSERT_EQUAL(cudastub_cuda_version_in_file(path, "+cuda", &major, &minor), -1);
	CU_ASSERT_EQUAL(cudastub_cuda_version_in_file(dir, "+cuda", &major, &minor), -1);
	snprintf(path, sizeof path, "%s/fifo", dir);
	CU_ASSERT_EQUAL_FATAL(mkfifo(path, 0600), 0);
	CU_ASSERT_EQUAL(cudastub_cuda_version_in_file(path, "+cuda", &major, &minor), -1);
	CU_ASSERT_EQUAL(
		cudastub_cuda_version_in_file("/nonexistent/libnccl.so.2", "+cuda", &major, &minor),
		-1);
	ts_remove_tree(dir);
}

TS_TEST(test_refused, "no ELF, a folder, a FIFO, nothing: -1");

TS_MAIN_SUITE("the CUDA release from a library's read-only data", NULL, NULL, NULL)

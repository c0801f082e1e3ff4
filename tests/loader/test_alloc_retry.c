/*
 * A first call that cannot allocate its search record is not remembered.
 *
 * The first search of a process uses the record inside the library; a
 * thread that races it allocates one of its own (loader_load.c). When that
 * allocation fails, the call is answered from its fallback, and nothing is
 * published. The generated bind then must not settle the function's slot
 * on that fallback: the next call binds again and forwards once the
 * library is loaded. (A slot settled on the fallback would keep it for
 * the life of the process: the function would answer 36 after the runtime
 * had loaded.)
 *
 * The loader is compiled into this test with calloc redirected to
 * failing_calloc (CMakeLists.txt), which fails a search record's size
 * while armed; the library is described here, over the fake NVRTC, whose
 * constructor is slowed so that the first search is still running when the
 * racing call comes. The racing call is made from a dl_iterate_phdr
 * callback: holding a loader lock, it searches on its own rather than wait
 * for the first search (loader_load.c). The last test reads the one bind (loader_bind.c) and
 * every generated file, and checks that a slot is stored only through the
 * settling call.
 */
#define _GNU_SOURCE
#include <CUnit/CUnit.h>
#include <dlfcn.h>
#include <glob.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ld_nvrtc_library.h"
#include "loader.h"
#include "test_support.h"

static atomic_int calloc_armed, calloc_refused;

void *failing_calloc(size_t count, size_t size);
void *failing_calloc(size_t count, size_t size)
{
	if (atomic_load(&calloc_armed) && size == sizeof(struct cudastub_search)) {
		atomic_fetch_add(&calloc_refused, 1);
		return NULL;
	}
	return calloc(count, size);
}

static struct cudastub_library library = LD_NVRTC_LIBRARY(ld_nvrtc_probe_version);

static void *search_in_thread(void *arg)
{
	(void)arg;
	return cudastub_loader_bind(&library, "nvrtcVersion", &ld_nvrtc_row);
}

static void *racing_fn;

static int race_in_walk(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)info, (void)size, (void)data;
	racing_fn = cudastub_loader_bind(&library, "nvrtcVersion", &ld_nvrtc_row);
	return 1;
}

static void sleep_ms(long ms)
{
	struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};

	nanosleep(&t, NULL);
}

static void test_racing_call_without_memory_retries(void)
{
	static char resolver[1], fallback[1];
	_Atomic(void *) slot = resolver;
	pthread_t first;
	void *fn, *first_fn = NULL;
	int waited;

	CU_ASSERT_EQUAL_FATAL(setenv("LD_NVRTC_PATH", FAKE_NVRTC_13, 1), 0);
	CU_ASSERT_EQUAL_FATAL(setenv("FAKE_NVRTC_SLOW_MS", "400", 1), 0);
	CU_ASSERT_EQUAL_FATAL(pthread_create(&first, NULL, search_in_thread, NULL), 0);
	/* the first search has taken the library's own record once it counts */
	for (waited = 0; atomic_load(&library.search_runs) == 0 && waited < 5000; waited++)
		sleep_ms(1);
	CU_ASSERT_EQUAL(atomic_load(&library.search_runs), 1);

	atomic_store(&calloc_armed, 1);
	dl_iterate_phdr(race_in_walk, NULL);
	fn = racing_fn;
	atomic_store(&calloc_armed, 0);
	CU_ASSERT_EQUAL(atomic_load(&calloc_refused), 1);
	CU_ASSERT_PTR_NULL(fn);
	/* the first search has not published yet (its library sleeps) */
	CU_ASSERT_PTR_NULL(cudastub_loader_result(&library));
	cudastub_loader_settle_slot(&library, &slot, fn ? fn : fallback);
	CU_ASSERT_PTR_EQUAL(atomic_load(&slot), resolver);

	pthread_join(first, &first_fn);
	CU_ASSERT_PTR_NOT_NULL_FATAL(first_fn);
	CU_ASSERT_PTR_NOT_NULL_FATAL(cudastub_loader_result(&library));
	CU_ASSERT_EQUAL(cudastub_loader_info(&library)->state, CUDASTUB_STATE_LOADED);

	/* the next call binds again, and this answer is final */
	fn = cudastub_loader_bind(&library, "nvrtcVersion", &ld_nvrtc_row);
	CU_ASSERT_PTR_EQUAL(fn, first_fn);
	cudastub_loader_settle_slot(&library, &slot, fn ? fn : fallback);
	CU_ASSERT_PTR_EQUAL(atomic_load(&slot), first_fn);
	unsetenv("FAKE_NVRTC_SLOW_MS");
}

TS_TEST(test_racing_call_without_memory_retries, "a racing call that cannot allocate binds again");

/* Counts, in path, the lines that call cudastub_loader_settle_slot and
 * those that store into a slot any other way. */
static void count_stores(const char *path, size_t *settles, size_t *plain)
{
	FILE *f = fopen(path, "r");
	char line[4096];

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	while (fgets(line, sizeof line, f)) {
		if (strstr(line, "cudastub_loader_settle_slot("))
			(*settles)++;
		else if (strstr(line, "atomic_store") && strstr(line, "slot")) {
			(*plain)++;
			fprintf(stderr, "%s: %s", path, line);
		}
	}
	fclose(f);
}

/* Every export binds through the one bind, which stores its slot through
 * cudastub_loader_settle_slot; no generated file stores a slot at all. */
static void test_generated_binds_settle(void)
{
	glob_t files;
	size_t i, settles = 0, plain = 0;

	count_stores(SOURCE_DIR "/stubs/loader/bind/loader_bind.c", &settles, &plain);
	CU_ASSERT_EQUAL(settles, 1);
	CU_ASSERT_EQUAL_FATAL(glob(GENERATED_DIR "/*/cu*/*.[ch]", 0, NULL, &files), 0);
	CU_ASSERT(files.gl_pathc >= 30);
	for (i = 0; i < files.gl_pathc; i++)
		count_stores(files.gl_pathv[i], &settles, &plain);
	globfree(&files);
	CU_ASSERT_EQUAL(settles, 1);
	CU_ASSERT_EQUAL(plain, 0);
}

TS_TEST(test_generated_binds_settle, "the one bind settles a slot only when final");

TS_MAIN_SUITE("alloc_retry", NULL, NULL, NULL)

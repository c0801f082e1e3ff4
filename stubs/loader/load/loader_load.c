/*
 * The first call's path: search, and publish one outcome for the process.
 *
 * No lock is held while the search runs. The search calls dlopen and
 * dlsym, which take glibc's loader lock, and a first call can come from a
 * library constructor that already holds that lock: every nvcc-built
 * library calls the runtime from its constructor, and plain C constructors
 * may call any stub. A thread that waited there on a stub lock, while the
 * searching thread waited for the loader lock, would never wake. So:
 *
 *   - a thread that finds no published outcome, while another thread of
 *     the process searches, sleeps until that search publishes (a futex
 *     the publishing thread wakes), however long it takes, unless it holds
 *     one of the dynamic loader's locks (a first call from a constructor
 *     under dlopen, or from a dl_iterate_phdr callback): the searching
 *     thread may be waiting for that very lock, so such a thread searches
 *     at once, on its own (loader_locks.c tells which thread holds them).
 *     One of the threads waiting, the watcher, wakes every
 *     STALLED_SLICE_MS to see whether the search runs, and wakes them all
 *     once it has not run for STALLED_MS (a thread that ended, or was
 *     cancelled, in its search, or one blocked for long on something
 *     else). Where the loader's locks cannot be read, a waiter may be
 *     holding one unseen, and the watcher, every WAIT_SLICE_MS, gives the
 *     search up once it has not run for WAIT_FOR_SEARCH_MS instead: a
 *     thread blocked on a lock does not run, where one that loads a
 *     library, however large, does (its CPU clock says which). The others
 *     sleep and are woken once, so 64 first calls at once make one search,
 *     however loaded the machine; only the watcher polls, and only while
 *     the search is under way;
 *   - a thread that does not wait, or waited in vain, runs a search of its
 *     own, into a record of its own (struct cudastub_search), and nothing
 *     else is shared while searching;
 *   - the first finished record is published with one compare-and-swap;
 *     whoever loses drops its record and uses the winner's. Every thread
 *     therefore sees one choice, and a published record never changes;
 *   - dlopen of one file from several threads maps it once, so the chosen
 *     library is initialised once whatever the number of searches; the
 *     library is never closed;
 *   - the library's after_load hook then runs on every path that found it
 *     loaded, before anything is forwarded (the runtime stub replays its
 *     deferred kernel registrations there, see cudart_registry.c).
 *
 * fork: no stub lock is held while searching, so none is inherited, and
 * fork() waits until no library is half mapped (loader_fork.c). A record
 * published before fork() is the child's too; a child forked before any
 * was published searches on its own.
 *
 * exit: a search and its after_load hook are "in flight" for exit()
 * (loader_exit.c), whose handler, run before ld.so finalises anything,
 * waits up to 2 s for them; a search that begins once exit() has started
 * loads nothing, and one that exit() overtook publishes no library (what
 * it loaded stays loaded, unused): both publish "the process is exiting"
 * (the library-missing code). A thread that finds a library already
 * published uses it, as a thread of a directly linked program would while
 * exit() runs.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "loader_core.h"
#include "loader_load.h"
#include "loader_pid.h"
#include "loader_log.h"
#include "loader_process.h"
#include "loader_companion.h"
#include "loader_search.h"
#include "loader_versions.h"
#include "loader_wait.h"

/* How long a first call waits for another thread's search while that
 * search does not run: STALLED_MS where no waiting thread holds a loader
 * lock (a search blocked that long has ended, or waits on something that
 * may never come); where the locks cannot be read, WAIT_FOR_SEARCH_MS:
 * more than a search that loads the runtime takes without running
 * (reading pages of the file), less than a stall anyone would notice
 * where waiting cannot end (see above). A search that runs
 * is waited for however long it takes: a thread blocked on the loader
 * lock that a waiting thread holds does not run, and one that loads
 * cuBLAS (tens of milliseconds of dlopen) runs all along. Whether it runs
 * is read by the watcher every WAIT_SLICE_MS from its thread's CPU clock
 * and, where that has not moved, from its state: one that waits for a CPU
 * (a loaded machine) still runs. */
enum { WAIT_FOR_SEARCH_MS = 10, WAIT_SLICE_MS = 2, STALLED_MS = 1000, STALLED_SLICE_MS = 20 };

/* The majors lib loads, "13, 12 or 11", for a refusal to name. */
static void majors_text(const struct cudastub_library *lib, char *out, size_t size)
{
	size_t n = 0;

	out[0] = '\0';
	for (const struct cudastub_soname *so = lib->sonames; so->soname && n < size; so++) {
		const char *sep = so == lib->sonames ? "" : so[1].soname ? ", " : " or ";
		int k = snprintf(out + n, size - n, "%s%d", sep, so->major);

		n += k > 0 ? (size_t)k : 0;
	}
}

/*
 * Reads CUDASTUB_<LIB>_MAJOR, the only place it is read, into s->pin. An
 * empty value is no pin. Otherwise it must be a major written plainly: one
 * or more digits, the first not 0, nothing else (no sign, no space), and a
 * major the stub loads; a library with one name for every version (the
 * driver's libcuda.so.1, major 0) takes any major from 1 to 99, which its
 * probe then checks. Returns why the pin is refused (the search then finds
 * nothing), or NULL.
 */
static const char *read_pin(struct cudastub_search *s, char *msg, size_t size)
{
	const struct cudastub_library *lib = s->lib;
	const char *pin = secure_getenv(lib->env_major);
	char shown[64], majors[64];

	if (!pin || !*pin)
		return NULL;
	if (cudastub_pin_parse(pin, lib->sonames, &s->pin) == 0)
		return NULL;
	if (lib->sonames[0].major == 0)
		snprintf(msg, size,
			 "%s=\"%s\" is refused: give a CUDA major from 1 to 99, digits only",
			 lib->env_major, cudastub_log_shorten(pin, shown, sizeof shown));
	else {
		majors_text(lib, majors, sizeof majors);
		snprintf(msg, size,
			 "%s=\"%s\" is refused: give one of the majors this stub loads (%s), "
			 "digits only",
			 lib->env_major, cudastub_log_shorten(pin, shown, sizeof shown), majors);
	}
	return msg;
}

/* The summary is written for error strings, which name cudastub; the debug
 * log has its own prefix. */
static const char *info_text_after_prefix(const char *summary)
{
	static const char prefix[] = "cudastub: ";

	return strncmp(summary, prefix, sizeof prefix - 1) ? summary : summary + sizeof prefix - 1;
}

/* The first search of a process uses the record inside the library (no
 * allocation); a thread that races it gets one of its own. */
static struct cudastub_search *search_record(struct cudastub_library *lib)
{
	struct cudastub_search *s;

	if (!atomic_flag_test_and_set(&lib->first_claimed))
		s = lib->first_search;
	else if (!(s = calloc(1, sizeof *s)))
		return NULL;
	s->lib = lib;
	s->info = lib->not_tried;
	s->info.attempts = s->attempts;
	return s;
}

static void run_search(struct cudastub_search *s)
{
	struct cudastub_library *lib = s->lib;
	char msg[256], summary[4096];
	const char *bad_pin, *stuck;
	cudastub_state state;

	cudastub_log_debug(lib, "searching for %s (stub built for CUDA %d.%d)", lib->family,
			   lib->abi_major, lib->abi_minor);
	bad_pin = read_pin(s, msg, sizeof msg);
	stuck = cudastub_fork_left_loader_mid_change(); /* see loader_fork.c */
	if (bad_pin || stuck) {
		s->info.error = cudastub_log_keep_message(s, bad_pin ? bad_pin : stuck);
		state = CUDASTUB_STATE_NOT_FOUND;
	} else {
		state = cudastub_search(s);
	}
	if (state == CUDASTUB_STATE_LOADED) {
		cudastub_load_companion(s);
		cudastub_log_debug(lib, "using %s (%d.%d, %s)", s->info.path, s->info.major,
				   s->info.minor, cudastub_source_name(s->info.source));
	} else {
		cudastub_log_summary(s, summary, sizeof summary);
		s->summary = cudastub_log_keep(s, summary);
		cudastub_log_debug_escaped(lib, info_text_after_prefix(s->summary));
	}
	s->info.state = state;
}

/* Instead of a search, once exit() has started: nothing is loaded. */
static void refuse_at_exit(struct cudastub_search *s)
{
	s->summary = cudastub_exit_summary();
	cudastub_log_debug(s->lib, "%s", info_text_after_prefix(s->summary));
	s->info.state = CUDASTUB_STATE_NOT_FOUND;
}

/* A search's mark in the words that name one (struct cudastub_library):
 * its process in the high half, its thread's kernel id in the low. */
static unsigned long long search_mark(int pid, int tid)
{
	return ((unsigned long long)(unsigned)pid << 32) | (unsigned)tid;
}

static int thread_id(void)
{
	return (int)syscall(SYS_gettid);
}

/* After a publication, or a search that ended without one: the word is
 * given back, and those waiting look again. */
static void wake_waiters(struct cudastub_library *lib)
{
	atomic_store(&lib->searching, 0);
	atomic_store(&lib->stalled, 0);
	atomic_fetch_add(&lib->published, 1);
	if (atomic_load(&lib->waiters))
		cudastub_futex_wake_all(&lib->published);
}

/* The CPU time the thread tid has run, in nanoseconds, or -1 when it
 * cannot be read (a thread gone, a kernel that refuses). The clock of a
 * thread by its kernel id is Linux's ABI: pthread_getcpuclockid makes the
 * same from a pthread_t, which would be unsafe to read for a thread that
 * may have ended. */
static long long thread_cpu_ns(int tid)
{
	clockid_t clock = (clockid_t)((~(unsigned)tid << 3) | 6); /* per thread, scheduler */
	struct timespec t;

	if (tid <= 0 || clock_gettime(clock, &t) != 0)
		return -1;
	return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* Whether thread tid of this process is on a CPU or waits for one (R),
 * or waits for the disk (D): it runs, in the sense above, though its CPU
 * clock may not have moved (preempted on a loaded machine). A thread
 * blocked on a lock sleeps (S). False when unknown. */
static int thread_runnable(int tid)
{
	char path[48], text[128];
	const char *state;

	if (tid <= 0)
		return 0;
	snprintf(path, sizeof path, "/proc/self/task/%d/stat", tid);
	state = cudastub_proc_stat_field(path, 3, text, sizeof text);
	return state && (*state == 'R' || *state == 'D');
}

/* Whether the watcher should wait on: the searching thread tid ran since
 * *ran (its CPU time then, updated), or would have (it waits for a CPU or
 * the disk). */
static int searcher_runs(int tid, long long *ran)
{
	long long now = thread_cpu_ns(tid);
	int runs = (now >= 0 && *ran >= 0 && now > *ran) || thread_runnable(tid);

	*ran = now;
	return runs;
}

/* Waits for the search marked mark, which another thread of this process
 * runs, to publish; the published search, or NULL once it has ended
 * without one or was found stalled. The thread that becomes the watcher
 * (the first to wait) sleeps a slice at a time and reads whether the
 * search runs; it finds it stalled once it has not run for STALLED_MS in
 * all (WAIT_FOR_SEARCH_MS where the loader's locks could not be read:
 * locks_seen 0), and then wakes the others. The others sleep
 * until woken. The word is read before the result, and bumped after it is
 * stored, so a publication between the two makes the futex wait return at
 * once. */
static const struct cudastub_search *
wait_for_search(struct cudastub_library *lib, unsigned long long mark, int self, int locks_seen)
{
	const struct cudastub_search *s;
	int searcher = (int)(mark & 0xffffffffu), watching = 0;
	int slice_ms = locks_seen ? STALLED_SLICE_MS : WAIT_SLICE_MS;
	int limit_ms = locks_seen ? STALLED_MS : WAIT_FOR_SEARCH_MS;
	long long ran = -1;
	long stalled_ms = 0;

	atomic_fetch_add(&lib->waiters, 1);
	for (;;) {
		int seen = atomic_load(&lib->published), nobody = 0;

		if ((s = cudastub_loader_result(lib)) || atomic_load(&lib->searching) != mark ||
		    atomic_load(&lib->stalled) == mark)
			break;
		if (!watching && atomic_compare_exchange_strong(&lib->watcher, &nobody, self)) {
			watching = 1;
			ran = thread_cpu_ns(searcher);
		}
		if (!watching) {
			cudastub_futex_wait(&lib->published, seen, -1);
			continue;
		}
		if (cudastub_futex_wait(&lib->published, seen, slice_ms) == 0)
			continue; /* woken: look again */
		if (searcher_runs(searcher, &ran))
			stalled_ms = 0;
		else if ((stalled_ms += slice_ms) >= limit_ms) {
			/* the others stop waiting too */
			atomic_store(&lib->stalled, mark);
			atomic_fetch_add(&lib->published, 1);
			cudastub_futex_wake_all(&lib->published);
			break;
		}
	}
	if (watching)
		atomic_store(&lib->watcher, 0);
	atomic_fetch_sub(&lib->waiters, 1);
	return s ? s : cudastub_loader_result(lib);
}

/* Searches, then publishes unless another thread published first. */
static const struct cudastub_search *search_and_publish(struct cudastub_library *lib,
							enum cudastub_exit_pass pass)
{
	struct cudastub_search *mine = search_record(lib), *none = NULL;

	if (!mine) {
		wake_waiters(lib); /* none comes from here */
		return NULL;	   /* out of memory: this call fails, and since nothing is
				    * published its slot is not settled: the next call retries */
	}
	mine->info.search_runs = atomic_fetch_add(&lib->search_runs, 1) + 1;
	cudastub_fork_guard_install();
	if (pass == CUDASTUB_EXIT_EXITING)
		refuse_at_exit(mine);
	else
		run_search(mine);
	if (mine->info.state == CUDASTUB_STATE_LOADED)
		cudastub_exit_loaded();
	/* exit() began while this search loaded: what it loaded is whole (exit
	 * waited for it) but is about to be finalised, so nothing goes into it */
	if (mine->info.state == CUDASTUB_STATE_LOADED && cudastub_exit_started()) {
		mine->handle = NULL;
		refuse_at_exit(mine);
	}
	if (atomic_compare_exchange_strong_explicit(&lib->result, &none, mine, memory_order_acq_rel,
						    memory_order_acquire)) {
		wake_waiters(lib);
		return mine;
	}
	/* Lost the race: what this search loaded stays loaded (the winner
	 * found the same library, or nothing holds on to it), never closed. */
	cudastub_log_debug(lib, "another thread's search finished first; using its outcome");
	wake_waiters(lib);
	if (mine != lib->first_search)
		free(mine);
	return none;
}

static cudastub_state finish_load(struct cudastub_library *lib, const struct cudastub_search *s)
{
	if (s->info.state == CUDASTUB_STATE_LOADED && lib->after_load)
		lib->after_load(lib);
	return s->info.state;
}

cudastub_state cudastub_loader_load(struct cudastub_library *lib)
{
	const struct cudastub_search *s = cudastub_loader_result(lib);
	enum cudastub_exit_pass pass;
	cudastub_state state = CUDASTUB_STATE_NOT_FOUND;
	unsigned long long seen = 0, mine;
	int me, self;

	if (s)
		return finish_load(lib, s);
	me = cudastub_pid();
	self = thread_id();
	mine = search_mark(me, self);
	/* one thread claims the search; a plain load then store would let two
	 * that arrive together both see no search and both search */
	if (!atomic_compare_exchange_strong(&lib->searching, &seen, mine)) {
		/* another thread of this process searches: wait for it, unless
		 * that is this thread (a first call made inside its own
		 * search, from a constructor) or this thread holds a loader
		 * lock; or the word is a parent's, inherited across fork(),
		 * and means nothing */
		int held =
			(int)(seen >> 32) == me && seen != mine ? cudastub_loader_lock_held() : 1;

		if (held != 1 && (s = wait_for_search(lib, seen, self, held == 0)))
			return finish_load(lib, s);
		atomic_store(&lib->searching, mine);
	}
	/* a search that ended between the look above and the claim has
	 * published and given the word back: its outcome, not a second search
	 * (the claim acquires what that search released) */
	if ((s = cudastub_loader_result(lib))) {
		wake_waiters(lib);
		return finish_load(lib, s);
	}
	/* in flight for exit() from here until after_load has returned */
	pass = cudastub_exit_enter();
	if (pass == CUDASTUB_EXIT_UNREGISTERED) {
		cudastub_log_debug(lib, "no exit handler could be registered (is the process "
					"exiting?); nothing is loaded, a later call tries again");
		wake_waiters(lib);
	} else if ((s = search_and_publish(lib, pass)))
		state = finish_load(lib, s);
	cudastub_exit_leave(pass);
	return state;
}

const cudastub_library_info *cudastub_loader_info(struct cudastub_library *lib)
{
	const struct cudastub_search *s = cudastub_loader_result(lib);

	return s ? &s->info : &lib->not_tried;
}

/*
 * Deferred kernel registration, so that nvcc-built programs stay lazy.
 *
 * Every nvcc-built program and library registers its kernels and variables
 * from a constructor: __cudaRegisterFatBinary, then __cudaRegisterFunction,
 * __cudaRegisterVar, ... for that module, then __cudaRegisterFatBinaryEnd.
 * Forwarding those would load the runtime (and the driver) before main. So
 * until the runtime is live they are recorded here, and the program gets a
 * handle of the stub's own for each module.
 *
 * Invariants:
 *   1. Records keep the order of every call, across modules, and hold the
 *      program's pointers only (fat binary wrapper, host stubs, variables,
 *      names): nothing the program owns is copied.
 *   2. A stub handle is its module record's address with bit 0 set. The
 *      runtime's own handles are allocated pointers, so bit 0 tells them
 *      apart without reading memory that is not ours; the magic confirms.
 *   3. "Live" is set once, under the lock, right after the last record has
 *      been replayed. Before it, every registration call is recorded; after
 *      it, every one is forwarded (stub handles mapped to real ones). A
 *      call therefore never sees a half-replayed state, and no record is
 *      replayed twice or missed. The replay counts each record as replayed
 *      as its call into the runtime begins (see 7).
 *   4. The replay runs from the loader's after_load hook, which every path
 *      that loads the runtime passes before anything is forwarded: an API
 *      call, a launch entry point, __cudaInitModule (a host access to a
 *      __managed__ variable), cudastub_cudart_load(). It runs once; threads
 *      that need the runtime meanwhile wait for it on the lock.
 *   5. The lock is never held across the dynamic loader: the real entry
 *      points are looked up (dlsym) before it is taken. While holding it
 *      the replay only calls the runtime's registration functions, which
 *      take no loader lock (glibc's) either, so a thread that waits here
 *      inside a library constructor (holding the loader lock) always wakes.
 *   6. A module unregistered before it was ever replayed (a plugin closed,
 *      or exit with no CUDA call) is dropped with its records and loads
 *      nothing. Once live, unregistration forwards the real handle. Once
 *      exit() has started (nvcc's exit handlers unregister), it never waits
 *      for the lock: a module whose lock another thread holds is dropped.
 *   7. fork: the lock is taken around fork() (pthread_atfork, installed
 *      before the lock is first used), waiting at most a second, so a
 *      child inherits it neither held nor a replay half done; if the wait
 *      runs out the child gets a fresh lock. A child forked before the
 *      load records, loads and replays on its own. The lock's word names
 *      the process that holds it (registry_lock.h): glibc (2.36 on)
 *      skips, in the child of a fork already under way, the handlers
 *      installed during it, and a child that finds its parent's name
 *      there takes the lock over.
 *      A replay that outlasts the wait is cut by the fork: the child holds
 *      the runtime's memory as the replaying thread left it, the records
 *      replayed so far registered. Its first call goes on from the record
 *      after the last one begun: replaying the log from the start would
 *      register those modules and functions twice. The record in flight
 *      at the fork is not replayed again (the runtime may hold it whole or
 *      in part; a module whose own registration was in flight has no real
 *      handle in the child, and its later records are skipped).
 *   8. Cancellation: a thread cancelled while it held the lock would leave
 *      it held, and every later replay and __cudaUnregisterFatBinary (nvcc
 *      calls it at exit) would wait for ever. So cancellation is disabled
 *      while the lock is held across anything that may reach a
 *      cancellation point (the replay calls into the runtime), and, when
 *      a fork holds it, from the prepare handler to the parent's or
 *      child's handler of that fork (the loader's prepare handler, which
 *      runs after ours, waits, and other libraries' may too); the
 *      caller's own state is given back after. Recording a call holds the
 *      lock over an append only (no cancellation point: realloc is none,
 *      nor the lock's futex wait), and leaves the state alone: two
 *      pthread_setcancelstate calls were an eighth of the stub's own cost
 *      per recorded kernel.
 *   9. Cost: recording a kernel and replaying it must cost the stub no
 *      more than a twentieth of what NVIDIA's runtime spends registering
 *      it (some 1,100 instructions; bench/measure/registration.sh), with
 *      other threads alive too. So a function registered with nvcc's
 *      defaults, nearly every one:
 *      - is told apart by 9 instructions of assembly
 *        (cudart_register_entry.c), and recorded by a function that makes
 *        no call and saves no register;
 *      - is four words, told by its tag alone, at record and at replay,
 *        appended by one compare and one store of the log's end pointer;
 *      - takes no lock in a process with one thread (glibc's
 *        __libc_single_threaded: no other thread can replay, fork or
 *        unregister meanwhile), else the one-word lock (registry_lock.h);
 *      - finds "live" by the log's lack of room: the replay frees it.
 *  10. A fork that runs none of the registry's handlers (another thread's
 *      first registration installs them while that fork is under way:
 *      glibc 2.36 then skips them in both processes) does not wait for
 *      the lock, and its child may take a record half appended. So an
 *      append counts its record only once every field is stored: the
 *      child's log is whole, without the record in flight. (A 16-thread
 *      registration storm with forks found a child that replayed a record
 *      of zeros and crashed: 16 of 7,200 runs.)
 *
 * KNOWN: a fork in the few instructions between realloc moving a growing
 * log and the store of its new address leaves the child the old block
 * (growing into a new block and freeing the old after costs 50
 * instructions a kernel, most of them copying).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cudart_registry.h"
#include "loader_once.h"
#include "registry_lock.h"

/* A module's magic, which also says whether records may be added to it:
 * one 32-bit compare on a recorded kernel's way (invariant 9). */
#define MODULE_OPEN	0x6d647363u /* "csdm" */
#define MODULE_RELEASED 0x72647363u /* "csdr": unregistered before the replay */

/* One registered fat binary. Its address, tagged, is the stub handle. */
struct module {
	unsigned magic;	  /* MODULE_OPEN or MODULE_RELEASED */
	unsigned records; /* records in the log that name it */
	void *fat_binary;
	void **real;		    /* the runtime's handle, once replayed */
	struct module *prev, *next; /* every live module, for reachability */
	struct module *next_free;   /* compaction's free list */
};

/* One registration call, as the program made it (cudart_registry.h).
 * A function registered with nvcc's defaults, most of any log, is told by
 * its tag alone, so that recording it stores four words and replaying it
 * compares one (invariant 9). */
struct record {
	void **tagged;		 /* its module: the stub handle (tag 1) for a function
				  * with nvcc's defaults, else tag 3 and see kind */
	const void *host;	 /* fat binary, host function, variable or reference */
	void *device;		 /* device function or address */
	const char *device_name; /* NULL for a module's records */
	unsigned kind;		 /* enum cudart_record_kind, for tag 3 only */
	unsigned more;		 /* 1 + its index in registry.more, or 0: none */
};

#define TAG_PLAIN_FUNCTION 1u /* = a stub handle's own tag */
#define TAG_OTHER	   3u

static struct {
	atomic_uint lock; /* registry_lock.h */
	atomic_int live;  /* invariant 3 */
	/* the records: log[0] to at, with room up to end; a record is
	 * counted by the release store of at once whole (invariant 10), and a
	 * kernel's append compares and stores that pointer alone (invariant 9) */
	struct record *log, *at, *end;
	size_t dead; /* records of released modules */
	/* the record after the last whose replay has begun (7), or NULL for
	 * none: the log's start */
	struct record *replayed;
	union cudart_record_more *more;
	size_t more_count, more_capacity;
	struct module *modules;
} registry;

static cudastub_once_t fork_guard_once = CUDASTUB_ONCE_INIT;

/*
 * Whether this thread is the process's only one: glibc's
 * __libc_single_threaded, which glibc clears before a second thread
 * starts (and sets in a fork's child), as libstdc++ reads it to skip
 * atomic reference counts; or, where the C library has none, a byte that
 * is always 0. Alone, a thread appends a kernel's record without the lock
 * (invariant 9): no other thread can replay, fork or unregister meanwhile.
 * Looked up before the first stub handle exists; a libc of another
 * namespace (dlmopen) keeps its flag 0.
 */
static const char never_known_alone;
static _Atomic(const char *) single_threaded = &never_known_alone;
static atomic_int single_threaded_looked_up;

/* Looked up (glibc 2.32 on) rather than linked, as the stubs load on
 * glibc 2.17. dlsym takes the dynamic loader's lock: never called under
 * the once or the registry's lock, which a thread in a library
 * constructor, holding that lock, may be waiting for (invariant 5). */
static void look_up_single_threaded(void)
{
	const char *flag;

	if (atomic_load_explicit(&single_threaded_looked_up, memory_order_acquire))
		return;
	flag = dlsym(RTLD_DEFAULT, "__libc_single_threaded");
	if (flag)
		atomic_store_explicit(&single_threaded, flag, memory_order_relaxed);
	atomic_store_explicit(&single_threaded_looked_up, 1, memory_order_release);
}
/* the thread whose fork() holds the lock, or 0: a child that re-ran the
 * install (fork() cut the once short) may have the handlers twice */
static _Atomic(pthread_t) forking;
/* the forking thread's cancellation state while its fork holds the lock,
 * from the prepare handler to the parent's or child's (invariant 8); only
 * the thread that holds the lock reads or writes it */
static int forking_cancel_state;

/* Waits for the lock, at most a second: a replay holds it while calling
 * into the runtime, whose own fork handlers may already hold the runtime's
 * locks (they run before ours), and waiting for ever would deadlock.
 * Cancellation stays off while the fork holds the lock; a fork that could
 * not take it gives the caller its state back at once. */
static void fork_prepare(void)
{
	struct timespec until;
	unsigned mine, free_word = 0;
	int caller;

	if (pthread_equal(atomic_load(&forking), pthread_self()))
		return;
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &caller);
	mine = cudart_lock_mine();
	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += 1;
	if (atomic_compare_exchange_strong(&registry.lock, &free_word, mine) ||
	    cudart_lock_wait(&registry.lock, mine, &until) == 0) {
		forking_cancel_state = caller;
		atomic_store(&forking, pthread_self());
		return;
	}
	pthread_setcancelstate(caller, NULL);
}

static void fork_parent(void)
{
	if (pthread_equal(atomic_load(&forking), pthread_self())) {
		int caller = forking_cancel_state;

		atomic_store(&forking, (pthread_t)0);
		cudart_lock_give(&registry.lock);
		pthread_setcancelstate(caller, NULL);
	}
}

/* The child's lock is fresh, whether its fork held it or could not wait;
 * the records are whole (appends finish before the lock is let go), and a
 * replay cut short goes on from where it stopped at the child's first call
 * (invariant 7). Nothing in the child sleeps on the word. */
static void fork_child(void)
{
	int held = pthread_equal(atomic_load(&forking), pthread_self());

	atomic_store(&forking, (pthread_t)0);
	atomic_store(&registry.lock, 0);
	if (held)
		pthread_setcancelstate(forking_cancel_state, NULL);
}

/* The loader's guard first: glibc (2.36) runs no handler in a fork that
 * was already under way when it was installed, and the registry's prepare
 * handler may hold a fork up for a second; a fork that runs it must also
 * run the loader's, so that it never lands in the search that a thread
 * starts meanwhile. */
static void install_fork_guard(void)
{
	cudastub_fork_guard_install();
	pthread_atfork(fork_prepare, fork_parent, fork_child);
}

/* set once the fork guard is installed: the check before the once */
static atomic_int fork_guard_installed;

static void install_fork_guard_once(void)
{
	if (atomic_load_explicit(&fork_guard_installed, memory_order_acquire))
		return;
	/* the once runs again in a child an install cut short by fork() */
	cudastub_once(&fork_guard_once, install_fork_guard);
	atomic_store_explicit(&fork_guard_installed, 1, memory_order_release);
}

/* Takes the lock for an append, which reaches no cancellation point
 * (invariant 8): the caller's cancellation state is left as it is. */
static void registry_lock_brief(void)
{
	install_fork_guard_once();
	cudart_lock_take(&registry.lock);
}

/* Takes the lock with cancellation disabled (invariant 8); returns the
 * caller's state, for registry_unlock to give back. */
static int registry_lock(void)
{
	int caller;

	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &caller);
	registry_lock_brief();
	return caller;
}

static void registry_unlock(int caller)
{
	cudart_lock_give(&registry.lock);
	pthread_setcancelstate(caller, NULL);
}

/* The lock for an unregistration, which nvcc's exit handlers make: once
 * exit() has started it is not waited for (a replay that outlasted exit's
 * wait holds it, see loader_exit.c), and the module is dropped. 1 if held. */
static int registry_lock_unless_exiting(int *caller)
{
	if (!cudastub_exit_started()) {
		*caller = registry_lock();
		return 1;
	}
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, caller);
	install_fork_guard_once();
	if (cudart_lock_try(&registry.lock))
		return 1;
	pthread_setcancelstate(*caller, NULL);
	return 0;
}

static int is_live(void)
{
	return atomic_load_explicit(&registry.live, memory_order_acquire);
}

static void **handle_of(struct module *m)
{
	return (void **)((uintptr_t)m | 1u);
}

/* The module behind a stub handle, or NULL for any other handle. */
static struct module *module_of(void **handle)
{
	struct module *m;

	if (!((uintptr_t)handle & 1u))
		return NULL;
	m = (struct module *)((uintptr_t)handle & ~(uintptr_t)1u);
	return m->magic == MODULE_OPEN || m->magic == MODULE_RELEASED ? m : NULL;
}

static int is_released(const struct module *m)
{
	return m->magic == MODULE_RELEASED;
}

/* The module a record names (always one of the stub's). */
static struct module *record_module(const struct record *r)
{
	return (struct module *)((uintptr_t)r->tagged & ~(uintptr_t)TAG_OTHER);
}

static int is_plain_function(const struct record *r)
{
	return ((uintptr_t)r->tagged & TAG_OTHER) == TAG_PLAIN_FUNCTION;
}

/* What a record calls, and the index + 1 of what more it keeps (0: none):
 * a plain function's record stores neither. */
static enum cudart_record_kind record_kind(const struct record *r)
{
	return is_plain_function(r) ? CUDART_RECORD_FUNCTION : (enum cudart_record_kind)r->kind;
}

static unsigned record_more(const struct record *r)
{
	return is_plain_function(r) ? 0 : r->more;
}

static void unlink_module(struct module *m)
{
	if (m->prev)
		m->prev->next = m->next;
	else
		registry.modules = m->next;
	if (m->next)
		m->next->prev = m->prev;
}

/* The records in the log. */
static size_t log_count(void)
{
	return registry.log ? (size_t)(registry.at - registry.log) : 0;
}

/* Grows the log to hold one more record; 0 when out of memory (nothing
 * changed). */
static int make_log_room(void)
{
	size_t count = log_count(), grown;
	struct record *bigger;

	if (registry.at != registry.end)
		return 1;
	grown = count ? count * 2 : 64;
	bigger = realloc(registry.log, grown * sizeof *bigger);
	if (!bigger)
		return 0;
	registry.log = bigger;
	registry.end = bigger + grown;
	__atomic_store_n(&registry.at, bigger + count, __ATOMIC_RELEASE);
	return 1;
}

/* Grows an array of elements of size bytes to hold one more; 0 when out
 * of memory (nothing changed). */
static int make_room(void **array, size_t *capacity, size_t count, size_t size)
{
	size_t grown;
	void *bigger;

	if (count < *capacity)
		return 1;
	grown = *capacity ? *capacity * 2 : 64;
	bigger = realloc(*array, grown * size);
	if (!bigger)
		return 0;
	*array = bigger;
	*capacity = grown;
	return 1;
}

/* Counts the record r just filled, once whole (invariant 10): the log's
 * end is stored after every field, so a fork between the two leaves a
 * child that never sees a record half written. */
static void count_record(struct record *r)
{
	/* a release store, not a fence: ThreadSanitizer refuses fences */
	__atomic_store_n(&registry.at, r + 1, __ATOMIC_RELEASE);
}

/* The next record, filled (what more it keeps is the caller's), then
 * counted. The log has room for it. */
static void add_record(enum cudart_record_kind kind, struct module *m, const void *host,
		       void *device, const char *device_name, unsigned more)
{
	struct record *r = registry.at;

	r->tagged = (void **)((uintptr_t)m | TAG_OTHER);
	r->host = host;
	r->device = device;
	r->device_name = device_name;
	r->kind = kind;
	r->more = more;
	count_record(r);
}

static int append(enum cudart_record_kind kind, struct module *m, const void *host, void *device,
		  const char *device_name, const union cudart_record_more *more)
{
	if (!make_log_room() ||
	    (more && !make_room((void **)&registry.more, &registry.more_capacity,
				registry.more_count, sizeof *more)))
		return 0;
	if (more)
		registry.more[registry.more_count++] = *more;
	add_record(kind, m, host, device, device_name, more ? (unsigned)registry.more_count : 0);
	return 1;
}

void **cudart_registry_add_module(void *fat_binary)
{
	struct module *m;

	if (is_live())
		return NULL;
	look_up_single_threaded();
	m = calloc(1, sizeof *m);
	if (!m)
		return NULL; /* forwarding is the only thing left to try */
	m->magic = MODULE_OPEN;
	m->fat_binary = fat_binary;
	m->records = 1;
	registry_lock_brief();
	if (registry.live || !append(CUDART_RECORD_FAT_BINARY, m, fat_binary, NULL, NULL, NULL)) {
		cudart_lock_give(&registry.lock);
		free(m);
		return NULL;
	}
	m->next = registry.modules;
	if (m->next)
		m->next->prev = m;
	registry.modules = m;
	cudart_lock_give(&registry.lock);
	return handle_of(m);
}

int cudart_registry_record(enum cudart_record_kind kind, void **handle, const void *host,
			   void *device, const char *device_name,
			   const union cudart_record_more *more)
{
	struct module *m;
	int recorded = 0;

	/* A handle that is not the stub's came from the runtime, which is then
	 * live: forwarding is right for it. One of the stub's was made by
	 * cudart_registry_add_module, which installed the fork guard. */
	if (is_live() || !(m = module_of(handle)))
		return 0;
	cudart_lock_take(&registry.lock);
	/* A call on a module already unregistered is dropped, as it would
	 * load the runtime for nothing. */
	if (!registry.live) {
		if (is_released(m)) {
			recorded = 1;
		} else if (append(kind, m, host, device, device_name, more)) {
			m->records++;
			recorded = 1;
		}
	}
	cudart_lock_give(&registry.lock);
	return recorded;
}

/* The ways out of cudart_registry_function_plain, each to the whole path
 * with nvcc's defaults: with the lock held, given back first. Tail calls
 * with four arguments, so that the fast path saves no register. */
__attribute__((noinline)) static void plain_slow(void **handle, const char *host_fun,
						 char *device_fun, const char *device_name)
{
	cudart_registry_function_slow(handle, host_fun, device_fun, device_name, -1, NULL, NULL,
				      NULL, NULL, NULL);
}

__attribute__((noinline)) static void plain_locked_slow(void **handle, const char *host_fun,
							char *device_fun, const char *device_name)
{
	cudart_lock_give(&registry.lock);
	plain_slow(handle, host_fun, device_fun, device_name);
}

/* A plain function's record: four words (invariant 9), at r, where the
 * log has room. */
static void append_plain_function(struct module *m, void **handle, const char *host_fun,
				  char *device_fun, const char *device_name, struct record *r)
{
	r->tagged = handle; /* TAG_PLAIN_FUNCTION */
	r->host = host_fun;
	r->device = device_fun;
	r->device_name = device_name;
	count_record(r);
	m->records++;
}

/* "Live" needs no test of its own: the replay frees the log, and a log
 * without room takes the slow way, which tests it under the lock. */
void cudart_registry_function_plain(void **handle, const char *host_fun, char *device_fun,
				    const char *device_name)
{
	struct module *m = (struct module *)((uintptr_t)handle - TAG_PLAIN_FUNCTION);
	unsigned mine, free_word = 0;
	struct record *r;

	if (!((uintptr_t)handle & TAG_PLAIN_FUNCTION)) {
		plain_slow(handle, host_fun, device_fun, device_name);
		return;
	}
	if (*atomic_load_explicit(&single_threaded, memory_order_relaxed)) {
		r = registry.at;
		if (m->magic != MODULE_OPEN || r == registry.end) {
			plain_slow(handle, host_fun, device_fun, device_name);
			return;
		}
		append_plain_function(m, handle, host_fun, device_fun, device_name, r);
		return;
	}
	mine = (unsigned)cudastub_pid_known();
	if (!mine ||
	    !atomic_compare_exchange_strong_explicit(&registry.lock, &free_word, mine,
						     memory_order_acquire, memory_order_relaxed)) {
		plain_slow(handle, host_fun, device_fun, device_name);
		return;
	}
	r = registry.at;
	if (m->magic != MODULE_OPEN || r == registry.end) {
		plain_locked_slow(handle, host_fun, device_fun, device_name);
		return;
	}
	append_plain_function(m, handle, host_fun, device_fun, device_name, r);
	cudart_lock_give_mine(&registry.lock, mine);
}

void **cudart_registry_real_handle(void **handle)
{
	struct module *m = module_of(handle);

	if (!m)
		return handle;
	return is_live() ? m->real : NULL;
}

void **cudart_registry_forward_handle(void **handle)
{
	cudastub_loader_load(&cudastub_cudart_library);
	return cudart_registry_real_handle(handle);
}

/* How nvcc registers every function: no thread limit, and no tid, bid,
 * dimension or warp size pointers (a record then keeps nothing more). */
static int registered_as_nvcc_does(int thread_limit, uint3 *tid, uint3 *bid, dim3 *bDim, dim3 *gDim,
				   int *wSize)
{
	return thread_limit == -1 && !tid && !bid && !bDim && !gDim && !wSize;
}

void cudart_registry_function_slow(void **fatCubinHandle, const char *hostFun, char *deviceFun,
				   const char *deviceName, int thread_limit, uint3 *tid, uint3 *bid,
				   dim3 *bDim, dim3 *gDim, int *wSize)
{
	union cudart_record_more more = {
		.function = {thread_limit, tid, bid, bDim, gDim, wSize},
	};
	int plain = registered_as_nvcc_does(thread_limit, tid, bid, bDim, gDim, wSize);

	if (!cudart_registry_record(CUDART_RECORD_FUNCTION, fatCubinHandle, hostFun, deviceFun,
				    deviceName, plain ? NULL : &more))
		cudastub_cudart_forward___cudaRegisterFunction(
			cudart_registry_forward_handle(fatCubinHandle), hostFun, deviceFun,
			deviceName, thread_limit, tid, bid, bDim, gDim, wSize);
}

/* Frees the log and what its records keep beyond it. */
static void forget_log(void)
{
	free(registry.log);
	free(registry.more);
	registry.log = registry.at = registry.end = NULL;
	registry.more = NULL;
	registry.replayed = NULL;
	registry.more_count = registry.more_capacity = 0;
}

/* Drops the records of released modules and frees those modules, once
 * they make up half the log: unregistration stays O(1) amortised. */
static void compact(void)
{
	struct module *to_free = NULL;
	size_t i, count = log_count(), kept = 0, replayed = 0, more_kept = 0;
	size_t begun = registry.replayed ? (size_t)(registry.replayed - registry.log) : 0;

	for (i = 0; i < count; i++) {
		struct record *r = &registry.log[i];
		struct module *m = record_module(r);

		if (!is_released(m)) {
			/* what more a record keeps is in record order too, so it
			 * moves down as the records do */
			if (record_more(r)) {
				registry.more[more_kept++] = registry.more[r->more - 1];
				r->more = (unsigned)more_kept;
			}
			registry.log[kept++] = *r;
			replayed += i < begun;
		} else if (record_kind(r) == CUDART_RECORD_FAT_BINARY) {
			m->next_free = to_free;
			to_free = m;
		}
	}
	registry.at = registry.log + kept;
	registry.more_count = more_kept;
	registry.replayed = replayed ? registry.log + replayed : NULL;
	registry.dead = 0;
	while (to_free) {
		struct module *next = to_free->next_free;

		to_free->magic = 0;
		free(to_free);
		to_free = next;
	}
	if (!kept)
		forget_log();
}

int cudart_registry_unregister(void **handle, void ***real)
{
	struct module *m = module_of(handle);
	int caller;

	*real = handle;
	if (!m)
		return 0;
	if (!registry_lock_unless_exiting(&caller))
		return 1; /* exiting: dropped, nothing loaded, nothing waited for */
	if (!registry.live) {
		/* a module a parent replayed before a fork cut its replay short
		 * (invariant 7) is the runtime's: it is unregistered there */
		void **replayed = m->real;

		m->magic = MODULE_RELEASED; /* freed with its records, by compact() */
		registry.dead += m->records;
		unlink_module(m);
		if (registry.dead * 2 >= log_count())
			compact();
		registry_unlock(caller);
		*real = replayed;
		return replayed == NULL;
	}
	*real = m->real;
	unlink_module(m);
	m->magic = 0;
	registry_unlock(caller);
	free(m);
	return 0;
}

/* The real runtime's registration entry points. */
struct real_entry_points {
	void **(*fat_binary)(void *);
	void (*fat_binary_end)(void **);
	void (*function)(void **, const char *, char *, const char *, int, uint3 *, uint3 *, dim3 *,
			 dim3 *, int *);
	void (*var)(void **, char *, char *, const char *, int, size_t, int, int);
	void (*managed_var)(void **, void **, char *, const char *, int, size_t, int, int);
	void (*texture)(void **, const void *, const void **, const char *, int, int, int);
	void (*surface)(void **, const void *, const void **, const char *, int, int);
};

static void look_up(struct real_entry_points *real, void *runtime)
{
	*(void **)&real->fat_binary = dlsym(runtime, "__cudaRegisterFatBinary");
	*(void **)&real->fat_binary_end = dlsym(runtime, "__cudaRegisterFatBinaryEnd");
	*(void **)&real->function = dlsym(runtime, "__cudaRegisterFunction");
	*(void **)&real->var = dlsym(runtime, "__cudaRegisterVar");
	*(void **)&real->managed_var = dlsym(runtime, "__cudaRegisterManagedVar");
	*(void **)&real->texture = dlsym(runtime, "__cudaRegisterTexture");
	*(void **)&real->surface = dlsym(runtime, "__cudaRegisterSurface");
}

/* A function registered with nvcc's defaults keeps nothing more. */
static const union cudart_record_more function_defaults = {.function = {.thread_limit = -1}};

/* One record against the runtime. A module the runtime refused (or whose
 * entry point is missing) keeps a NULL real handle, and its later records
 * are skipped rather than handed NULL. */
static void replay_one(const struct real_entry_points *real, const struct record *r)
{
	struct module *m = record_module(r);
	unsigned more = record_more(r);
	const union cudart_record_more *x = more ? &registry.more[more - 1] : NULL;
	enum cudart_record_kind kind = record_kind(r);

	if (kind == CUDART_RECORD_FAT_BINARY) {
		m->real = real->fat_binary ? real->fat_binary((void *)r->host) : NULL;
		return;
	}
	if (!m->real)
		return;
	switch (kind) {
	case CUDART_RECORD_FAT_BINARY: break;
	case CUDART_RECORD_FAT_BINARY_END:
		if (real->fat_binary_end)
			real->fat_binary_end(m->real);
		break;
	case CUDART_RECORD_FUNCTION:
		if (!x)
			x = &function_defaults;
		if (real->function)
			real->function(m->real, r->host, r->device, r->device_name,
				       x->function.thread_limit, x->function.tid, x->function.bid,
				       x->function.block_dim, x->function.grid_dim,
				       x->function.warp_size);
		break;
	case CUDART_RECORD_VAR:
		if (real->var)
			real->var(m->real, (char *)r->host, r->device, r->device_name, x->var.ext,
				  x->var.size, x->var.constant, x->var.global);
		break;
	case CUDART_RECORD_MANAGED_VAR:
		if (real->managed_var)
			real->managed_var(m->real, (void **)r->host, r->device, r->device_name,
					  x->var.ext, x->var.size, x->var.constant, x->var.global);
		break;
	case CUDART_RECORD_TEXTURE:
		if (real->texture)
			real->texture(m->real, r->host, r->device, r->device_name, x->ref.dim,
				      x->ref.norm, x->ref.ext);
		break;
	case CUDART_RECORD_SURFACE:
		if (real->surface)
			real->surface(m->real, r->host, r->device, r->device_name, x->ref.dim,
				      x->ref.ext);
		break;
	}
}

/* Replays the log from registry.replayed on, each record counted as its
 * replay begins: a fork meanwhile never replays it twice (invariant 7).
 * Functions registered with nvcc's defaults, most of a log, take the short
 * way: their record's tagged word equals the stub handle of the module
 * before, whose real handle is kept (invariant 9). */
static void replay_from(const struct real_entry_points *real)
{
	/* fixed under the lock; the runtime's calls cannot change them */
	struct record *r = registry.replayed ? registry.replayed : registry.log, *end = registry.at;
	void **plain = NULL, **plain_real = NULL;

	while (r < end) {
		const struct record *this = r++;

		registry.replayed = r;
		if (__builtin_expect(this->tagged == plain, 1)) {
			real->function(plain_real, this->host, this->device, this->device_name, -1,
				       NULL, NULL, NULL, NULL, NULL);
			continue;
		}
		replay_one(real, this);
		/* the short way only where replay_one would call the same */
		plain_real = record_module(this)->real;
		plain = plain_real && real->function ? handle_of(record_module(this)) : NULL;
	}
}

void cudart_registry_replay(struct cudastub_library *lib)
{
	struct real_entry_points real;
	size_t from;
	int caller;

	if (is_live())
		return;
	/* Nothing recorded (a program without kernels, or a first call from a
	 * library constructor): live at once, without the seven lookups. A
	 * record appended meanwhile is seen under the lock, and looked up for. */
	caller = registry_lock();
	if (!registry.live && log_count() == 0) {
		forget_log(); /* no room: a plain function takes the slow way */
		atomic_store_explicit(&registry.live, 1, memory_order_release);
		registry_unlock(caller);
		return;
	}
	registry_unlock(caller);
	if (is_live())
		return;
	look_up(&real, cudastub_loader_handle(lib)); /* invariant 5: before the lock */
	caller = registry_lock();
	if (!registry.live) {
		if (registry.dead)
			compact(); /* released modules are not replayed */
		from = registry.replayed ? (size_t)(registry.replayed - registry.log) : 0;
		if (from)
			cudastub_log_debug(lib,
					   "a fork cut the parent's replay short: the runtime "
					   "holds the first %zu of %zu deferred registration "
					   "calls already; going on from there",
					   from, log_count());
		replay_from(&real);
		cudastub_log_debug(lib, "replayed %zu deferred registration calls",
				   log_count() - from);
		forget_log();
		atomic_store_explicit(&registry.live, 1, memory_order_release);
	}
	registry_unlock(caller);
}

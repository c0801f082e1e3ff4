/*
 * Run the search exactly once per process, whatever the number of threads
 * that make a first call at the same moment, and publish the outcome.
 *
 * The state is an atomic read with acquire ordering: once it says the
 * search is over, everything the search wrote (handle, info, log) is
 * visible. The mutex is held only while searching. A fork() during the
 * search waits for it (pthread_atfork), so a child never inherits a held
 * lock and never repeats a load its parent finished.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader.h"

static struct cudastub_library *fork_guarded[4];
static atomic_int fork_guard_count;

static void fork_prepare(void)
{
	int i, n = atomic_load(&fork_guard_count);

	for (i = 0; i < n; i++)
		pthread_mutex_lock(&fork_guarded[i]->lock);
}

static void fork_release(void)
{
	int i, n = atomic_load(&fork_guard_count);

	for (i = n - 1; i >= 0; i--)
		pthread_mutex_unlock(&fork_guarded[i]->lock);
}

/* Called with lib->lock held, before the first search. */
static void guard_against_fork(struct cudastub_library *lib)
{
	static pthread_mutex_t registering = PTHREAD_MUTEX_INITIALIZER;
	static int registered;
	int n;

	pthread_mutex_lock(&registering);
	if (!registered && pthread_atfork(fork_prepare, fork_release, fork_release) == 0)
		registered = 1;
	n = atomic_load(&fork_guard_count);
	if (n < (int)(sizeof fork_guarded / sizeof *fork_guarded)) {
		fork_guarded[n] = lib;
		atomic_store(&fork_guard_count, n + 1);
	}
	pthread_mutex_unlock(&registering);
}

static int debug_requested(void)
{
	const char *v = secure_getenv("CUDASTUB_DEBUG");

	return v && *v && strcmp(v, "0") != 0;
}

/* A pin must name a major the stub knows; anything else finds nothing. */
static const char *check_pin(struct cudastub_library *lib, char *msg, size_t size)
{
	const char *pin = secure_getenv(lib->env_major);
	const struct cudastub_soname *s;
	char *end;
	long major;

	if (!pin || !*pin)
		return NULL;
	major = strtol(pin, &end, 10);
	for (s = lib->sonames; s->soname && !*end; s++)
		if (s->major == major)
			return NULL;
	snprintf(msg, size, "%s=%s is not a major this stub can load", lib->env_major, pin);
	return msg;
}

/* The summary is written for error strings, which name cudastub; the debug
 * log has its own prefix. */
static const char *info_text_after_prefix(const char *summary)
{
	static const char prefix[] = "cudastub: ";

	return strncmp(summary, prefix, sizeof prefix - 1) ? summary : summary + sizeof prefix - 1;
}

static void fill_static_info(struct cudastub_library *lib)
{
	lib->info.name = lib->name;
	lib->info.abi_major = lib->abi_major;
	lib->info.abi_minor = lib->abi_minor;
	lib->info.attempts = lib->attempts;
}

static cudastub_state search_locked(struct cudastub_library *lib)
{
	char msg[256], summary[4096];
	const char *bad_pin;
	cudastub_state state;

	lib->debug = debug_requested();
	lib->info.search_runs++;
	cudastub_log_debug(lib, "searching for %s (stub built for CUDA %d.%d)", lib->family,
			   lib->abi_major, lib->abi_minor);
	bad_pin = check_pin(lib, msg, sizeof msg);
	if (bad_pin) {
		lib->info.error = cudastub_log_keep(lib, bad_pin);
		state = CUDASTUB_STATE_NOT_FOUND;
	} else {
		state = cudastub_search(lib);
	}
	if (state == CUDASTUB_STATE_LOADED) {
		cudastub_load_companion(lib);
		cudastub_log_debug(lib, "using %s (%d.%d, %s)", lib->info.path, lib->info.major,
				   lib->info.minor, cudastub_source_name(lib->info.source));
	} else {
		cudastub_log_summary(lib, summary, sizeof summary);
		lib->summary = cudastub_log_keep(lib, summary);
		cudastub_log_debug(lib, "%s", info_text_after_prefix(lib->summary));
	}
	lib->info.state = state;
	return state;
}

cudastub_state cudastub_loader_load(struct cudastub_library *lib)
{
	int state = atomic_load_explicit(&lib->state, memory_order_acquire);

	if (state != CUDASTUB_STATE_NOT_TRIED)
		return (cudastub_state)state;
	pthread_mutex_lock(&lib->lock);
	state = atomic_load_explicit(&lib->state, memory_order_relaxed);
	if (state == CUDASTUB_STATE_NOT_TRIED) {
		fill_static_info(lib);
		guard_against_fork(lib);
		state = search_locked(lib);
		atomic_store_explicit(&lib->state, state, memory_order_release);
	}
	pthread_mutex_unlock(&lib->lock);
	return (cudastub_state)state;
}

const cudastub_library_info *cudastub_loader_info(struct cudastub_library *lib)
{
	/* Before the search, report the static half; after it, everything. */
	if (atomic_load_explicit(&lib->state, memory_order_acquire) != CUDASTUB_STATE_NOT_TRIED)
		return &lib->info;
	pthread_mutex_lock(&lib->lock);
	fill_static_info(lib);
	pthread_mutex_unlock(&lib->lock);
	return &lib->info;
}

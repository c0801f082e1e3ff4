/*
 * The one bind: what an export's slot will hold, read from its row.
 *
 * The resolver hands over the slot's address; the slot's library table
 * (whose address table_define.h places in the section cudastub_tables of
 * this object, beside those of the other libraries it holds)
 * holds the slots in the order of its rows, so the address is the row. In
 * that row's order: the adapter when it goes first, the loader's symbol
 * (gated by majors, loader_lookup.c), the route to another name or a
 * translation, the adapter, and the fallback. The slot keeps the answer
 * only once a search has been published (cudastub_loader_settle_slot): a
 * library missing therefore answers the next calls straight from the
 * fallback the slot holds, logged once, as a function of its own did.
 */
#define _GNU_SOURCE

#include "table.h"
#include "loader_load.h"
#include "loader_log.h"

/* Every table of this object, one per library (libcudastub.so holds them
 * all); none in an object that links the loader without a stub (a test). */
extern const struct cudastub_table *const __start_cudastub_tables[] __attribute__((weak))
CUDASTUB_HIDDEN;
extern const struct cudastub_table *const __stop_cudastub_tables[] __attribute__((weak))
CUDASTUB_HIDDEN;
/* What each typed fallback of this object answers (CUDASTUB_FALLBACK_SAYS). */
extern const struct cudastub_account *const __start_cudastub_accounts[] __attribute__((weak))
CUDASTUB_HIDDEN;
extern const struct cudastub_account *const __stop_cudastub_accounts[] __attribute__((weak))
CUDASTUB_HIDDEN;

long cudastub_return_zero(void)
{
	return 0;
}

static const struct cudastub_table *table_of(_Atomic(void *) *slot)
{
	for (const struct cudastub_table *const *t = __start_cudastub_tables;
	     t < __stop_cudastub_tables; t++)
		if (slot >= (*t)->slots && slot < (*t)->slots + (*t)->count)
			return *t;
	return NULL;
}

/* The debug log's account of a typed fallback: its own sentence, with the
 * code it returns where it returns one. Nothing is looked up while the log
 * is off. */
static void log_typed(const struct cudastub_table *t, const struct cudastub_row *row,
		      const char *name)
{
	const struct cudastub_account *const *at, *a = NULL;
	int code;

	if (!cudastub_log_enabled())
		return;
	for (at = __start_cudastub_accounts; at < __stop_cudastub_accounts && !a; at++)
		if ((*at)->fallback == (const void *)row->typed)
			a = *at;
	if (!a) {
		cudastub_log_debug(t->lib, "%s: answered by the stub's own fallback for it", name);
		return;
	}
	if (a->code == CUDASTUB_SAYS_NO_CODE) {
		cudastub_log_debug(t->lib, "%s: %s", name, a->says);
		return;
	}
	code = t->lib->codes[cudastub_loader_why_unavailable(t->lib, &row->gate)];
	cudastub_log_debug(t->lib, "%s: %s %d", name, a->says,
			   a->code == CUDASTUB_SAYS_NEGATIVE ? -code : code);
}

/* The answer when the call cannot forward, and the debug log's account of
 * it: a code only where the function returns one (a struct, a text or a
 * probe's zeroed outputs are not "returns 35"). */
static void *fallback(const struct cudastub_table *t, const struct cudastub_row *row)
{
	const char *name = t->names + row->name;
	enum cudastub_unavailable why;

	switch (row->fallback) {
	case CUDASTUB_FALLBACK_TYPED: log_typed(t, row, name); return (void *)row->typed;
	case CUDASTUB_FALLBACK_ZERO:
		cudastub_log_debug(t->lib, "%s: returns 0 (or NULL, or nothing)", name);
		return (void *)cudastub_return_zero;
	}
	why = cudastub_loader_why_unavailable(t->lib, &row->gate);
	if (row->fallback == CUDASTUB_FALLBACK_NEGATIVE) {
		cudastub_log_debug(t->lib, "%s: returns -%d", name, t->lib->codes[why]);
		return (void *)t->negative[why];
	}
	cudastub_log_debug(t->lib, "%s: returns %d", name, t->lib->codes[why]);
	return (void *)t->code[why];
}

/* A row's adapter or route, with the release it stands in on. */
static void *ask(cudastub_any_fn get, const struct cudastub_release *release)
{
	return get ? ((void *(*)(const struct cudastub_release *))get)(release) : NULL;
}

/* The release the load published, read once for the whole bind. */
static struct cudastub_release release_of(const struct cudastub_table *t,
					  const struct cudastub_row *row)
{
	const struct cudastub_search *s = cudastub_loader_result(t->lib);
	struct cudastub_release release = {t->lib, NULL, 0, &row->gate, t->names + row->name};

	if (s && s->info.state == CUDASTUB_STATE_LOADED) {
		release.handle = s->handle;
		release.major = s->info.major;
	}
	return release;
}

/* The loader's symbol with the row's stand-ins around it: the adapter
 * when it goes first, the symbol, the route, the adapter. They are handed
 * the release the load published, read once here; a row without them (the
 * plain forward, nearly every row) does not read it. */
static void *with_stand_ins(const struct cudastub_table *t, const struct cudastub_row *row)
{
	struct cudastub_release release = release_of(t, row);
	void *fn = NULL;

	if (row->flags & CUDASTUB_ROW_ADAPTER_FIRST)
		fn = ask(row->adapt, &release);
	if (!fn)
		fn = cudastub_loader_bind(t->lib, t->names + row->name, &row->gate);
	if (!fn)
		fn = ask(row->route, &release);
	if (!fn && !(row->flags & CUDASTUB_ROW_ADAPTER_FIRST))
		fn = ask(row->adapt, &release);
	return fn;
}

static void *choose(const struct cudastub_table *t, const struct cudastub_row *row,
		    _Atomic(void *) *slot, void *unsettled)
{
	void *fn;

	if (row->flags & CUDASTUB_ROW_IN_PLACE)
		return (void *)row->typed; /* answered in place, nothing loaded */
	/* Threads whose first calls came together waited here for one search;
	 * the first to bind has settled the slot meanwhile: its answer is this
	 * one's, without a dlsym each (1,000 instructions, most of what each
	 * further thread cost). */
	cudastub_loader_load(t->lib);
	if ((fn = atomic_load_explicit(slot, memory_order_acquire)) != unsettled)
		return fn;
	if (row->adapt || row->route)
		fn = with_stand_ins(t, row);
	else
		fn = cudastub_loader_bind(t->lib, t->names + row->name, &row->gate);
	return fn ? fn : fallback(t, row);
}

void *cudastub_bind_slot(_Atomic(void *) *slot)
{
	const struct cudastub_table *t = table_of(slot);
	void *unsettled = atomic_load_explicit(slot, memory_order_acquire);
	void *fn;

	if (!t)
		__builtin_trap(); /* a slot outside every table: a broken build */
	fn = choose(t, &t->rows[slot - t->slots], slot, unsettled);
	cudastub_loader_settle_slot(t->lib, slot, fn);
	return fn;
}

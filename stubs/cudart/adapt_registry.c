/*
 * The one hook of every adapted export (the spec's adapter lines): the
 * first registered entry for the export that applies to the build and to
 * the loaded runtime, and whose callee the runtime exports
 * (adapt_loaded.h). Bind time only: a call never comes here again once
 * its slot holds the answer.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

#include "adapt_loaded.h"

/* The generated forms (cudart_forms.h): the majors they are given for,
 * then a line per name. The names are one block of text and the forms
 * one array of numbers, which the stub's load relocates nothing of. */
#define CUDASTUB_FORMS(name, ...)
#include "cudart_forms.h"
#undef CUDASTUB_FORMS

static const int form_majors[] = {CUDASTUB_CUDART_FORM_MAJORS};
enum { FORM_MAJORS = sizeof form_majors / sizeof form_majors[0] };

static const unsigned char forms[ADAPT_NAMES][FORM_MAJORS] = {
#define CUDASTUB_FORMS(name, family, ...) {__VA_ARGS__},
#include "cudart_forms.h"
#undef CUDASTUB_FORMS
};

/* Each name's family (0: none, a name the adapters call). */
enum {
	ADAPT_IN_none,
#define ADAPT_IN(family) ADAPT_IN_##family,
	CUDASTUB_CUDART_ADAPT_FAMILIES(ADAPT_IN)
#undef ADAPT_IN
};
static const unsigned char family_of[ADAPT_NAMES] = {
#define CUDASTUB_FORMS(name, family, ...) ADAPT_IN_##family,
#include "cudart_forms.h"
#undef CUDASTUB_FORMS
};

static const struct adapt_names {
#define CUDASTUB_FORMS(name, ...) char at_##name[sizeof #name];
#include "cudart_forms.h"
#undef CUDASTUB_FORMS
} names = {
#define CUDASTUB_FORMS(name, ...) #name,
#include "cudart_forms.h"
#undef CUDASTUB_FORMS
};

static const unsigned short name_at[ADAPT_NAMES] = {
#define CUDASTUB_FORMS(name, ...) offsetof(struct adapt_names, at_##name),
#include "cudart_forms.h"
#undef CUDASTUB_FORMS
};

static const char *name_of(int id)
{
	return (const char *)&names + name_at[id];
}

struct adapt_request {
	const struct cudastub_release *release;
	int name;   /* enum adapt_name */
	int caller; /* the build's form of the name */
	int column; /* the loaded major's column of forms */
};

static int applies(const struct adapt_entry *e, const struct adapt_request *q)
{
	int judged = e->judge == ADAPT_SELF ? q->name : e->judge;
	int theirs = forms[judged][q->column];

	if (e->caller && e->caller != q->caller)
		return 0;
	switch (e->when) {
	case ADAPT_ON_OLDER: return theirs && theirs < q->caller;
	case ADAPT_ON_NEWER: return theirs > q->caller;
	case ADAPT_ON_OTHER_MAJOR:
		if (q->release->major == q->release->lib->abi_major)
			return 0;
		break;
	}
	return !e->on || e->on == theirs;
}

void *cudastub_cudart_adapt_choose(const struct adapt_request *q, const struct adapt_entry *entries,
				   size_t count, void *(*translator)(int via),
				   _Atomic(void *) *callees)
{
	for (const struct adapt_entry *e = entries; e < entries + count; e++) {
		const char *callee_name = name_of(e->callee);
		void *callee;

		if (e->name != q->name || !applies(e, q))
			continue;
		callee = dlsym(q->release->handle, callee_name);
		if (!callee)
			continue;
		cudastub_log_debug(q->release->lib, "%s: adapter for CUDA %d: %s, %s",
				   name_of(q->name), q->release->major, callee_name,
				   e->via == ADAPT_AS_IS ? "as it is" : "translated");
		if (e->via == ADAPT_AS_IS)
			return callee;
		atomic_store_explicit(&callees[e->via], callee, memory_order_release);
		return translator(e->via);
	}
	return NULL;
}

/* The column of major among the recorded majors; -1 for one without
 * records (a runtime newer than every record): no entry applies there. */
static int column_of(int major)
{
	for (int i = 0; i < FORM_MAJORS; i++)
		if (form_majors[i] == major)
			return i;
	return -1;
}

static int name_id(const char *name)
{
	for (int id = 0; id < ADAPT_NAMES; id++)
		if (strcmp(name_of(id), name) == 0)
			return id;
	return -1;
}

void *cudastub_cudart_adapt(const struct cudastub_release *release)
{
	struct adapt_request q = {release, name_id(release->name), 0, column_of(release->major)};
	int own = column_of(release->lib->abi_major);

	/* No runtime loaded: dlsym(NULL, ...) would search the global scope
	 * and could find the stub itself. */
	if (!release->handle || q.name < 0 || q.column < 0 || own < 0)
		return NULL;
	q.caller = forms[q.name][own];
	switch (family_of[q.name]) {
#define ASK(family)                                                                                \
	case ADAPT_IN_##family: return cudastub_cudart_adapt_##family(&q);
		CUDASTUB_CUDART_ADAPT_FAMILIES(ASK)
#undef ASK
	}
	return NULL;
}

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
#include <string.h>

#include "adapt_loaded.h"

/* The generated forms (cudart_forms.h): first the majors they are given
 * for, then a line per adapted name. */
#define CUDASTUB_FORMS(name, ...)
#include "cudart_forms.h"
#undef CUDASTUB_FORMS

static const int form_majors[] = {CUDASTUB_CUDART_FORM_MAJORS};
enum { FORM_MAJORS = sizeof form_majors / sizeof form_majors[0] };

static const struct name_forms {
	const char *name;
	unsigned char form[FORM_MAJORS];
} forms[] = {
#define CUDASTUB_FORMS(name, ...) {#name, {__VA_ARGS__}},
#include "cudart_forms.h"
#undef CUDASTUB_FORMS
};

static const struct adapt_entry *const families[] = {
	cudastub_cudart_adapt_capture_edges, cudastub_cudart_adapt_capture_info,
	cudastub_cudart_adapt_entry_point,   cudastub_cudart_adapt_exec_update,
	cudastub_cudart_adapt_graph_edges,   cudastub_cudart_adapt_graph_node_params,
	cudastub_cudart_adapt_instantiate,   cudastub_cudart_adapt_launch_attributes,
	cudastub_cudart_adapt_mem_location,
};

static const struct name_forms *forms_of(const char *name)
{
	for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
		if (strcmp(forms[i].name, name) == 0)
			return &forms[i];
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

static int applies(const struct adapt_entry *e, const struct cudastub_release *release,
		   const struct name_forms *mine, int caller, int column)
{
	const struct name_forms *judged = e->judge ? forms_of(e->judge) : mine;
	int theirs = judged ? judged->form[column] : 0;

	if (e->caller && e->caller != caller)
		return 0;
	switch (e->when) {
	case ADAPT_ON_OLDER: return theirs && theirs < caller;
	case ADAPT_ON_NEWER: return theirs > caller;
	case ADAPT_ON_OTHER_MAJOR:
		if (release->major == release->lib->abi_major)
			return 0;
		break;
	case ADAPT_ON_FORM: break;
	}
	return !e->on || e->on == theirs;
}

/* The entry's stand-in, its callee stored for it; NULL when the runtime
 * does not export the callee. */
static void *take(const struct adapt_entry *e, const struct cudastub_release *release)
{
	void *callee = dlsym(release->handle, e->callee);

	if (!callee)
		return NULL;
	if (e->via)
		atomic_store_explicit(&e->via->callee, callee, memory_order_release);
	cudastub_log_debug(release->lib, "%s: adapter for CUDA %d: %s", release->name,
			   release->major, e->how);
	return e->via ? e->via->fn : callee;
}

void *cudastub_cudart_adapt(const struct cudastub_release *release)
{
	const struct name_forms *mine = forms_of(release->name);
	int column = column_of(release->major), own = column_of(release->lib->abi_major);
	void *fn;

	/* No runtime loaded: dlsym(NULL, ...) would search the global scope
	 * and could find the stub itself. */
	if (!release->handle || !mine || column < 0 || own < 0)
		return NULL;
	for (size_t f = 0; f < sizeof families / sizeof families[0]; f++)
		for (const struct adapt_entry *e = families[f]; e->name; e++)
			if (strcmp(e->name, release->name) == 0 &&
			    applies(e, release, mine, mine->form[own], column) &&
			    (fn = take(e, release)))
				return fn;
	return NULL;
}

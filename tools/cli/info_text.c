/*
 * The info report for people: one table row per library, then for each
 * linked stub the candidates its search tried, and for a library that did
 * not load, why and what to set. Every string of the report is escaped
 * already (cli.h), so it is printed as it is.
 */
#include "cli.h"
#include "text_table.h"

#include <string.h>

static void summary_table(FILE *out, const struct cli_library *libs, int count)
{
	struct text_table t;

	text_table_init(&t, 6);
	text_table_row(&t, "LIBRARY", "STATE", "VERSION", "FOUND BY", "STUB ABI", "PATH");
	for (int i = 0; i < count; i++) {
		const cudastub_library_info *info = &libs[i].info;
		int loaded = info->state == CUDASTUB_STATE_LOADED;
		int linked = info->state != CUDASTUB_STATE_NOT_LINKED;
		char version[80], abi[32];

		/* a library versioned apart from CUDA: its own, and CUDA's major */
		if (info->own_version)
			snprintf(version, sizeof version, "%.40s (CUDA %d)", info->own_version,
				 info->major);
		else
			snprintf(version, sizeof version, "%d.%d", info->major, info->minor);
		snprintf(abi, sizeof abi, "%d.%d", info->abi_major, info->abi_minor);
		text_table_row(&t, libs[i].name, cudastub_state_name(info->state),
			       loaded ? version : NULL,
			       loaded ? cudastub_source_name(info->source) : NULL,
			       linked ? abi : NULL, loaded ? info->path : NULL);
	}
	text_table_print(out, &t, "");
	text_table_free(&t);
}

static void attempts_table(FILE *out, const cudastub_library_info *info)
{
	struct text_table t;

	text_table_init(&t, 4);
	text_table_row(&t, "SOURCE", "MAJOR", "PATH", "OUTCOME");
	for (unsigned i = 0; info->attempts && i < info->attempt_count; i++) {
		const cudastub_attempt *a = &info->attempts[i];
		char major[16];

		snprintf(major, sizeof major, "%d", a->major);
		text_table_row(&t, cudastub_source_name(a->source), a->major ? major : "any",
			       a->path, a->outcome);
	}
	text_table_print(out, &t, "  ");
	text_table_free(&t);
}

/* What the choice of major rested on (stubs/loader/search/loader_release.c): the
 * one reason that applied, as the stub recorded it (release_reason), and
 * on a machine whose driver answered nothing, why. */
static void release_line(FILE *out, const struct cli_library *l)
{
	const cudastub_library_info *info = &l->info;
	/* CUDASTUB_NVRTC_PATH gives CUDASTUB_NVRTC_MAJOR */
	int stem = (int)strlen(l->env_path) - (int)strlen("_PATH");

	switch (info->release_reason) {
	case CUDASTUB_REASON_OVERRIDE:
		fprintf(out, "  release: no preference: the override %s chose the file\n",
			l->env_path);
		break;
	case CUDASTUB_REASON_PIN:
		fprintf(out, "  release: no preference: the pin %.*s_MAJOR chose the major\n", stem,
			l->env_path);
		break;
	case CUDASTUB_REASON_DRIVER:
		fprintf(out, "  driver: CUDA %d.%d (cuDriverGetVersion %d); %s\n",
			info->driver_version / 1000, (info->driver_version % 1000) / 10,
			info->driver_version, info->choice ? info->choice : "-");
		break;
	case CUDASTUB_REASON_NOTHING_ANSWERED:
		fputs("  release: no preference: no CUDA library in the process and no driver "
		      "answered; newest major first\n",
		      out);
		break;
	case CUDASTUB_REASON_IN_PROCESS: /* the choice names the library */
	default:			 /* a stub too old to record the reason */
		fprintf(out, "  release: %s\n",
			info->choice ? info->choice
				     : "no preference (this stub records no reason)");
	}
	/* choice and driver_missing come escaped from the stub */
	if (info->driver_missing)
		fprintf(out, "  driver: none: %s\n", info->driver_missing);
}

static void details(FILE *out, const struct cli_library *l)
{
	const cudastub_library_info *info = &l->info;
	int loaded = info->state == CUDASTUB_STATE_LOADED;

	/* path and error come escaped (cli_collect, the stub) */
	if (loaded)
		fprintf(out, "\n%s: loaded %s\n", l->name, info->path ? info->path : "-");
	else
		fprintf(out, "\n%s: %s: %s\n", l->name, cudastub_state_name(info->state),
			info->error ? info->error : "no library loaded");
	if (l->stub_path)
		fprintf(out, "  stub: %s\n", l->stub_path);
	if (l->release_aware && info->state != CUDASTUB_STATE_NOT_TRIED)
		release_line(out, l);
	fprintf(out, "  tried %u candidate%s, %lu dlopen call%s\n",
		info->attempt_count + info->attempts_dropped,
		info->attempt_count + info->attempts_dropped == 1 ? "" : "s", info->dlopen_calls,
		info->dlopen_calls == 1 ? "" : "s");
	if (info->attempt_count)
		attempts_table(out, info);
	if (info->attempts_dropped)
		fprintf(out, "  (%u more not recorded)\n", info->attempts_dropped);
	if (!loaded)
		fprintf(out,
			"  Set %s to the library file or its folder, or CUDASTUB_DEBUG=1 to "
			"trace the search.\n",
			l->env_path);
}

void cli_info_text(FILE *out, const struct cli_library *libs, int count)
{
	fprintf(out, "cudastub %s\n\n", CUDASTUB_CLI_VERSION);
	summary_table(out, libs, count);
	for (int i = 0; i < count; i++)
		if (libs[i].info.state != CUDASTUB_STATE_NOT_LINKED)
			details(out, &libs[i]);
}
